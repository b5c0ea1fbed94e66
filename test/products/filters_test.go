package products

import (
	"slices"
	"testing"

	"google.golang.org/grpc/codes"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	. "github.com/catalogd/catalogd/server/apptest"
)

// The filters on what is linked to a product (API.md "Finding products and keeping in sync"):
// categories and category trees, tags, attributes and effective terms (a variant inherits its
// parent's), published channels; each alone, values with OR, filters with AND, over REST and gRPC,
// and through a keyset walk.
func TestLinkFilters(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	fam := mkFamily(t, c)
	vp := mkProductID(t, c, "vp", "variant_parent", "familyUuid", fam)
	v1 := mkProductID(t, c, "vp-1", "variant", "familyUuid", fam, "parentUuid", vp)
	v2 := mkProductID(t, c, "vp-2", "variant", "familyUuid", fam, "parentUuid", vp)
	s1, s2, s3 := mkProductID(t, c, "s1", "simple"), mkProductID(t, c, "s2", "simple"), mkProductID(t, c, "s3", "simple")
	bare := mkProductID(t, c, "bare", "simple") // linked to nothing: never matches a link filter
	all := []string{vp, v1, v2, s1, s2, s3, bare}

	// A category tree of three levels (root > mid > leaf) and an unrelated category.
	root, mid, leaf, other := mkCategoryTree(t, c)
	for _, l := range [][2]string{{vp, root}, {s1, leaf}, {s2, mid}, {s3, other}} {
		Want(t, c.Post("/v1/products/"+l[0]+"/categories", Body("categoryUuid", l[1])), 201)
	}
	t1, t2 := mkTag(t, c), mkTag(t, c)
	for _, l := range [][2]string{{s1, t1}, {s2, t1}, {v1, t2}} {
		Want(t, c.Post("/v1/products/"+l[0]+"/tags", Body("tagUuid", l[1])), 201)
	}

	// Attributes and terms: the parent has color = red, which v1 inherits; v2 links color itself
	// (blue), which hides the parent's red; s1 has size = large, s2 color = red.
	mkAttr := func() string {
		return Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
	}
	mkTerm := func(attr string) string {
		return Str(Want(t, c.Post("/v1/attributes/"+attr+"/terms", Body("code", "t_"+RandomHex(4))), 201).Obj(), "uuid")
	}
	color, size := mkAttr(), mkAttr()
	red, blue, large := mkTerm(color), mkTerm(color), mkTerm(size)
	link := func(p, attr string, terms ...string) {
		pa := Str(Want(t, c.Post("/v1/products/"+p+"/attributes", Body("attributeUuid", attr)), 201).Obj(), "uuid")
		for _, term := range terms {
			Want(t, c.Post("/v1/products/"+p+"/attributes/"+pa+"/terms", Body("termUuid", term)), 201)
		}
	}
	link(vp, color, red)
	link(v2, color, blue)
	link(s1, size, large)
	link(s2, color, red)

	// Publications: published on ch1 (s1), draft on ch1 (s2), published on ch2 (s3, vp); a
	// variant does not inherit its parent's publication.
	ch1, ch2 := mkChannel(t, c), mkChannel(t, c)
	for _, p := range []string{vp, s1, s2, s3} { // only an active product is published
		Want(t, transition(c, p, "activate"), 200)
	}
	pubs := map[string]string{}
	publish := func(p, pub, tr string) {
		Want(t, c.Patch("/v1/products/"+p+"/publications/"+pub+"/actions/lifecycle", Body("transition", tr)), 200)
	}
	for _, l := range [][3]string{{s1, ch1, "publish"}, {s2, ch1, ""}, {s3, ch2, "publish"}, {vp, ch2, "publish"}} {
		pubs[l[0]] = Str(Want(t, c.Post("/v1/products/"+l[0]+"/publications", Body("channelUuid", l[1])), 201).Obj(), "uuid")
		if l[2] != "" {
			publish(l[0], pubs[l[0]], l[2])
		}
	}

	l := func(kv ...string) string { return "/v1/products" + Q(kv...) }
	WantUUIDs(t, c, l(), false, all...)
	// Each filter alone, and repeated values (OR).
	WantUUIDs(t, c, l("categoryUuids[eq]", mid), false, s2)
	WantUUIDs(t, c, l("categoryUuids[eq]", root), false, vp)
	WantUUIDs(t, c, l("categoryUuids[eq]", mid, "categoryUuids[eq]", other), false, s2, s3)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", root), false, vp, s2, s1)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", mid), false, s2, s1)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", leaf), false, s1)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", leaf, "categoryTreeUuids[eq]", other), false, s1, s3)
	// Overlapping trees count each product once.
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", root, "categoryTreeUuids[eq]", mid), false, vp, s2, s1)
	WantUUIDs(t, c, l("tagUuids[eq]", t1), false, s1, s2)
	WantUUIDs(t, c, l("tagUuids[eq]", t1, "tagUuids[eq]", t2), false, s1, s2, v1)
	// v1 has color through its parent, v2 its own (and the parent's) link of it.
	WantUUIDs(t, c, l("attributeUuids[eq]", color), false, vp, v1, v2, s2)
	WantUUIDs(t, c, l("attributeUuids[eq]", size), false, s1)
	WantUUIDs(t, c, l("attributeUuids[eq]", size, "attributeUuids[eq]", color), false, vp, v1, v2, s1, s2)
	// v1 inherits red; v2's own link of color (blue) wins over the parent's red.
	WantUUIDs(t, c, l("termUuids[eq]", red), false, vp, v1, s2)
	WantUUIDs(t, c, l("termUuids[eq]", blue), false, v2)
	WantUUIDs(t, c, l("termUuids[eq]", red, "termUuids[eq]", large), false, vp, v1, s1, s2)
	// Draft publications do not count, nor the parent's for a variant.
	WantUUIDs(t, c, l("publishedChannelUuids[eq]", ch1), false, s1)
	WantUUIDs(t, c, l("publishedChannelUuids[eq]", ch2), false, s3, vp)
	WantUUIDs(t, c, l("publishedChannelUuids[eq]", ch1, "publishedChannelUuids[eq]", ch2), false, s1, s3, vp)
	// A uuid of nothing matches nothing.
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", "00000000-0000-4000-8000-000000000000"), false)

	// Filters combine with AND, with each other and with the column filters.
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", root, "tagUuids[eq]", t1), false, s1, s2)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", root, "termUuids[eq]", red), false, vp, s2)
	WantUUIDs(t, c, l("tagUuids[eq]", t1, "publishedChannelUuids[eq]", ch1), false, s1)
	WantUUIDs(t, c, l("attributeUuids[eq]", color, "kinds[eq]", "variant"), false, v1, v2)
	WantUUIDs(t, c, l("termUuids[eq]", red, "termUuids[eq]", blue, "parentUuids[eq]", vp, "code[order]", "desc"), true, v2, v1)
	WantUUIDs(t, c, l("categoryUuids[eq]", mid, "categoryTreeUuids[eq]", leaf), false)

	// The filters follow the writes: publishing s2 and unpublishing s3, linking v1's own color
	// (without terms: it no longer inherits red).
	publish(s2, pubs[s2], "publish")
	publish(s3, pubs[s3], "unpublish")
	WantUUIDs(t, c, l("publishedChannelUuids[eq]", ch1), false, s1, s2)
	WantUUIDs(t, c, l("publishedChannelUuids[eq]", ch2), false, vp)
	link(v1, color)
	WantUUIDs(t, c, l("termUuids[eq]", red), false, vp, s2)
	WantUUIDs(t, c, l("attributeUuids[eq]", color), false, vp, v1, v2, s2)

	// A keyset walk keeps the filters: pages of 2 in code order give the offset listing.
	walk := []string{"attributeUuids[eq]", color, "code[order]", "asc", "size", "2"}
	var got []string
	path := l(walk...)
	var first string
	for range 5 {
		r := Want(t, c.Get(path), 200)
		got = append(got, UUIDsOf(r.Items())...)
		next, _ := r.Obj()["pagination"].(map[string]any)["nextCursor"].(string)
		if next == "" {
			break
		}
		if first == "" {
			first = next
		}
		path = l(append(slices.Clone(walk), "cursor", next)...)
	}
	if want := []string{s2, vp, v1, v2}; !slices.Equal(got, want) {
		t.Errorf("keyset walk: %v, want %v", got, want)
	}
	// The cursor belongs to its filters: with other values of the same filter it is refused.
	Problem(t, "cursor of other filters", c.Get(l("attributeUuids[eq]", size, "code[order]", "asc", "size", "2", "cursor", first)),
		400, "VALIDATION_FAILED", "cursor")

	// Another tenant sees none of it with the same uuids.
	o, _ := env.TenantClient(t)
	WantUUIDs(t, o, l("categoryTreeUuids[eq]", root), false)
	WantUUIDs(t, o, l("termUuids[eq]", red), false)

	// Values must be uuids: 400 naming the filter.
	for _, f := range []string{"categoryUuids", "categoryTreeUuids", "tagUuids", "attributeUuids", "termUuids", "publishedChannelUuids", "readyChannelUuids", "notReadyChannelUuids"} {
		Problem(t, f+" x", c.Get(l(f+"[eq]", root, f+"[eq]", "x")), 400, "VALIDATION_FAILED", f+"[eq]")
	}

	// gRPC: the same request fields.
	pc := pb.NewProductServiceClient(env.GRPC)
	ctx := GRPCContext(t, tenant)
	page, err := pc.ListProducts(ctx, &pb.ListProductsRequest{CategoryTreeUuids: &pb.StringsFilter{Eq: []string{mid}},
		TagUuids: &pb.StringsFilter{Eq: []string{t1, t2}}, PublishedChannelUuids: &pb.StringsFilter{Eq: []string{ch1}}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, p := range page.Items {
		ids = append(ids, p.Uuid)
	}
	if !SameSet(ids, []string{s1, s2}) || page.Pagination.TotalItems != 2 {
		t.Errorf("gRPC ListProducts: %v (total %d), want s1, s2", ids, page.Pagination.TotalItems)
	}
	_, err = pc.ListProducts(ctx, &pb.ListProductsRequest{TermUuids: &pb.StringsFilter{Eq: []string{"red"}}})
	WantGRPC(t, "gRPC bad term uuid", err, codes.InvalidArgument, "VALIDATION_FAILED", "termUuids[eq]")
}

// The OpenAPI document offers the filters as uuid arrays on GET /v1/products.
func TestLinkFiltersInOpenAPI(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct {
				Name, In string
				Schema   struct {
					Type  string
					Items struct{ Format string }
				}
			}
		}
	}
	env.OpenAPI(t, &doc)
	found := map[string]bool{}
	for _, p := range doc.Paths["/v1/products"]["get"].Parameters {
		found[p.Name] = p.In == "query" && p.Schema.Type == "array" && p.Schema.Items.Format == "uuid"
	}
	for _, f := range []string{"categoryUuids", "categoryTreeUuids", "tagUuids", "attributeUuids", "termUuids", "publishedChannelUuids", "readyChannelUuids", "notReadyChannelUuids"} {
		if !found[f+"[eq]"] {
			t.Errorf("GET /v1/products lacks the query parameter %s[eq] as an array of uuids", f)
		}
	}
}
