package product_assets

import (
	"testing"

	"github.com/google/uuid"

	"github.com/catalogd/catalogd/gen/db"
	. "github.com/catalogd/catalogd/server/apptest"
)

// isFeatured: among a product's assets whose type has isFeaturedSource, the lowest
// displayPriority, then the oldest, then the lowest uuid; at most one per product; computed on
// read, so it follows priorities, links and the types' flag.
func TestFeatured(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p, q := mkProduct(t, c), mkProduct(t, c)
	gallery, hero := mkType(t, c, false), mkType(t, c, true)
	a := []string{mkAsset(t, c), mkAsset(t, c), mkAsset(t, c), mkAsset(t, c)}
	log := NewEventLog(pool, tenant).Skip(t)

	if f := featured(t, c, p); f != "" {
		t.Errorf("no assets, featured %s", f)
	}
	g0 := link(t, c, p, a[0], gallery, -10) // lowest priority, but not a featured source
	if f := featured(t, c, p); f != "" {
		t.Errorf("only a gallery asset, featured %s", f)
	}
	h5 := link(t, c, p, a[1], hero, 5)
	h3 := link(t, c, p, a[2], hero, 3)
	if f := featured(t, c, p); f != h3 {
		t.Errorf("featured %s, want h3 %s", f, h3)
	}
	// The other product has its own featured asset.
	q1 := link(t, c, q, a[1], hero, 100)
	if f := featured(t, c, q); f != q1 {
		t.Errorf("other product: featured %s, want %s", f, q1)
	}

	// A priority change moves it; the update's response and the other item's GET agree.
	up := Want(t, c.Patch(base(p)+"/"+h5, Body("displayPriority", 1)), 200).Obj()
	wantPA(t, "h5 now first", up, p, a[1], hero, 1, true)
	wantPA(t, "h3 no longer", Want(t, c.Get(base(p)+"/"+h3), 200).Obj(), p, a[2], hero, 3, false)

	// Ties: same priority, the oldest wins.
	h1 := link(t, c, p, a[3], hero, 1)
	if f := featured(t, c, p); f != h5 {
		t.Errorf("tie: featured %s, want the older h5 %s", f, h5)
	}
	// A bulk update that swaps them answers with the state after the whole bulk.
	bu := Want(t, c.Patch(base(p)+"/bulk", []any{Body("uuid", h5, "displayPriority", 10), Body("uuid", h1, "displayPriority", 0)}), 200).Objs()
	wantPA(t, "bulk [0]", bu[0], p, a[1], hero, 10, false)
	wantPA(t, "bulk [1]", bu[1], p, a[3], hero, 0, true)
	bu = Want(t, c.Patch(base(p)+"/bulk", []any{Body("uuid", h1, "displayPriority", 20), Body("uuid", h3, "displayPriority", 2)}), 200).Objs()
	wantPA(t, "bulk again [0]", bu[0], p, a[3], hero, 20, false)
	wantPA(t, "bulk again [1]", bu[1], p, a[2], hero, 2, true)

	// Changing an item's type moves it too.
	wantPA(t, "h3 to gallery", Want(t, c.Patch(base(p)+"/"+h3, Body("productAssetTypeUuid", gallery)), 200).Obj(), p, a[2], gallery, 2, false)
	if f := featured(t, c, p); f != h5 {
		t.Errorf("after type change: featured %s, want h5 %s", f, h5)
	}

	// Unlinking the featured asset hands it on.
	Want(t, c.Delete(base(p)+"/"+h5), 204)
	if f := featured(t, c, p); f != h1 {
		t.Errorf("after unlink: featured %s, want h1 %s", f, h1)
	}

	// The type's isFeaturedSource decides: off → none; on for gallery → its lowest priority.
	Want(t, c.Patch("/v1/product-asset-types/"+hero, Body("isFeaturedSource", false)), 200)
	if f := featured(t, c, p); f != "" {
		t.Errorf("no featured-source type: featured %s", f)
	}
	if f := featured(t, c, q); f != "" {
		t.Errorf("other product, no featured-source type: featured %s", f)
	}
	Want(t, c.Patch("/v1/product-asset-types/"+gallery, Body("isFeaturedSource", true)), 200)
	if f := featured(t, c, p); f != g0 {
		t.Errorf("gallery featured: featured %s, want g0 %s", f, g0)
	}
	wantPA(t, "g0 via get", Want(t, c.Get(base(p)+"/"+g0), 200).Obj(), p, a[0], gallery, -10, true)
	WantUUIDs(t, c, base(p)+Q("isFeatured[eq]", "false"), false, h3, h1)

	// Only the written rows get events (isFeatured is derived).
	log.Expect(t, "events",
		paEv("linked", p, g0), paEv("linked", p, h5), paEv("linked", p, h3), paEv("linked", q, q1),
		paEv("updated", p, h5), paEv("linked", p, h1), paEv("updated", p, h5), paEv("updated", p, h1),
		paEv("updated", p, h1), paEv("updated", p, h3), paEv("updated", p, h3), paEv("unlinked", p, h5),
		Ev("product_asset_type.updated", "productAssetTypeUuid", hero), Ev("product_asset_type.updated", "productAssetTypeUuid", gallery))
}

// The queries the product's include/expand uses agree with the product asset endpoints.
func TestHydrationQueries(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	p, q, none := mkProduct(t, c), mkProduct(t, c), mkProduct(t, c)
	gallery, hero := mkType(t, c, false), mkType(t, c, true)
	a := []string{mkAsset(t, c), mkAsset(t, c), mkAsset(t, c)}
	p0 := link(t, c, p, a[0], gallery, 0)
	p1 := link(t, c, p, a[1], hero, 7)
	p2 := link(t, c, p, a[2], hero, 7)
	q0 := link(t, c, q, a[0], gallery, 1)
	link(t, c, none, a[1], gallery, 0)
	ids := []uuid.UUID{uuid.MustParse(p), uuid.MustParse(q)}
	_, tenant2 := env.TenantClient(t)

	rows, err := db.New(pool).ListProductAssetsOfProducts(t.Context(), db.ListProductAssetsOfProductsParams{TenantID: tenant, ProductUuids: ids})
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		product, uuid string
		featured      bool
	}
	var got []key
	for _, r := range rows {
		got = append(got, key{r.ProductUuid.String(), r.Uuid.String(), r.IsFeatured})
	}
	// Ordered by product, then displayPriority, createdAt, uuid.
	wantP := []key{{p, p0, false}, {p, p1, true}, {p, p2, false}}
	wantQ := []key{{q, q0, false}}
	want := append(append([]key{}, wantP...), wantQ...)
	if p > q {
		want = append(append([]key{}, wantQ...), wantP...)
	}
	if len(got) != len(want) {
		t.Fatalf("ListProductAssetsOfProducts: %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("ListProductAssetsOfProducts[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	// The same rows as the endpoint's GET.
	for _, r := range rows {
		m := Want(t, c.Get(base(r.ProductUuid.String())+"/"+r.Uuid.String()), 200).Obj()
		WantFields(t, "get "+r.Uuid.String(), m, "isFeatured", r.IsFeatured, "displayPriority", r.DisplayPriority, "assetUuid", r.AssetUuid.String(),
			"productAssetTypeUuid", r.ProductAssetTypeUuid.String())
	}

	feat, err := db.New(pool).ListFeaturedAssetsOfProducts(t.Context(), db.ListFeaturedAssetsOfProductsParams{TenantID: tenant, ProductUuids: append(ids, uuid.MustParse(none))})
	if err != nil {
		t.Fatal(err)
	}
	if len(feat) != 1 || feat[0].ProductUuid.String() != p || feat[0].ProductAssetUuid.String() != p1 || feat[0].AssetUuid.String() != a[1] {
		t.Errorf("ListFeaturedAssetsOfProducts: %+v, want only %s/%s/%s", feat, p, p1, a[1])
	}
	// Another tenant reads nothing of them.
	other, err := db.New(pool).ListProductAssetsOfProducts(t.Context(), db.ListProductAssetsOfProductsParams{TenantID: tenant2, ProductUuids: ids})
	if err != nil || len(other) != 0 {
		t.Errorf("other tenant: %v %v", other, err)
	}
	otherF, err := db.New(pool).ListFeaturedAssetsOfProducts(t.Context(), db.ListFeaturedAssetsOfProductsParams{TenantID: tenant2, ProductUuids: ids})
	if err != nil || len(otherF) != 0 {
		t.Errorf("other tenant featured: %v %v", otherF, err)
	}
}
