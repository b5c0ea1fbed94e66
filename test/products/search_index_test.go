package products

import (
	"fmt"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// The stored search arrays follow every write that changes what categoryTreeUuids and termUuids
// match: category links, category moves (the whole subtree's products), terms and their unlinking,
// a variant's own link of an attribute hiding its parent's terms, variants created under or moved
// to a parent.
func TestSearchArraysFollowEveryWrite(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	l := func(kv ...string) string { return "/v1/products" + Q(kv...) }
	root, mid, leaf, other := mkCategoryTree(t, c)
	fam := mkFamily(t, c)
	vp := mkProductID(t, c, "vp", "variant_parent", "familyUuid", fam)
	vp2 := mkProductID(t, c, "vp2", "variant_parent", "familyUuid", fam)
	v1 := mkProductID(t, c, "v1", "variant", "familyUuid", fam, "parentUuid", vp)
	v2 := mkProductID(t, c, "v2", "variant", "familyUuid", fam, "parentUuid", vp)
	s1, s2 := mkProductID(t, c, "s1", "simple"), mkProductID(t, c, "s2", "simple")
	WantSearchFresh(t, pool, tenant)

	// Category links and moves of the tree.
	linkCat := func(p, cat string) string {
		return Str(Want(t, c.Post("/v1/products/"+p+"/categories", Body("categoryUuid", cat)), 201).Obj(), "uuid")
	}
	s1Leaf := linkCat(s1, leaf)
	linkCat(s2, mid)
	linkCat(vp, root)
	WantSearchFresh(t, pool, tenant)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", root), false, s1, s2, vp)
	// mid (with leaf under it) moves under other: s1 and s2 leave root's tree for other's.
	Want(t, c.Patch("/v1/categories/"+mid, Body("parentUuid", other)), 200)
	WantSearchFresh(t, pool, tenant)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", root), false, vp)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", other), false, s1, s2)
	// mid becomes a root itself, then leaf moves straight under root.
	Want(t, c.Patch("/v1/categories/"+mid, Body("parentUuid", nil)), 200)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", other), false)
	Want(t, c.Patch("/v1/categories/"+leaf, Body("parentUuid", root)), 200)
	WantSearchFresh(t, pool, tenant)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", root), false, s1, vp)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", mid), false, s2)
	// Unlinking: s1 is in no tree any more.
	Want(t, c.Delete("/v1/products/"+s1+"/categories/"+s1Leaf), 204)
	WantSearchFresh(t, pool, tenant)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", root), false, vp)

	// Terms: the parent's red reaches its variants, unless a variant links colour itself.
	mkAttr := func() string {
		return Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
	}
	mkTerm := func(attr string) string {
		return Str(Want(t, c.Post("/v1/attributes/"+attr+"/terms", Body("code", "t_"+RandomHex(4))), 201).Obj(), "uuid")
	}
	colour := mkAttr()
	red, blue, green := mkTerm(colour), mkTerm(colour), mkTerm(colour)
	linkAttr := func(p string) string {
		return Str(Want(t, c.Post("/v1/products/"+p+"/attributes", Body("attributeUuid", colour)), 201).Obj(), "uuid")
	}
	linkTerm := func(p, pa, term string) string {
		return Str(Want(t, c.Post("/v1/products/"+p+"/attributes/"+pa+"/terms", Body("termUuid", term)), 201).Obj(), "uuid")
	}
	vpColour := linkAttr(vp)
	vpRed := linkTerm(vp, vpColour, red)
	WantSearchFresh(t, pool, tenant)
	WantUUIDs(t, c, l("termUuids[eq]", red), false, vp, v1, v2)
	v2Colour := linkAttr(v2) // without terms: hides the parent's red
	WantSearchFresh(t, pool, tenant)
	WantUUIDs(t, c, l("termUuids[eq]", red), false, vp, v1)
	linkTerm(v2, v2Colour, blue)
	WantUUIDs(t, c, l("termUuids[eq]", blue), false, v2)
	Want(t, c.Delete("/v1/products/"+v2+"/attributes/"+v2Colour), 204) // its terms go with it
	WantSearchFresh(t, pool, tenant)
	WantUUIDs(t, c, l("termUuids[eq]", red), false, vp, v1, v2)
	WantUUIDs(t, c, l("termUuids[eq]", blue), false)

	// A variant created under the parent inherits at once; one moved to another parent takes its terms.
	v3 := mkProductID(t, c, "v3", "variant", "familyUuid", fam, "parentUuid", vp)
	vp2Colour := linkAttr(vp2)
	linkTerm(vp2, vp2Colour, green)
	WantSearchFresh(t, pool, tenant)
	WantUUIDs(t, c, l("termUuids[eq]", red), false, vp, v1, v2, v3)
	Want(t, c.Patch("/v1/products/"+v1, Body("parentUuid", vp2)), 200)
	WantSearchFresh(t, pool, tenant)
	WantUUIDs(t, c, l("termUuids[eq]", red), false, vp, v2, v3)
	WantUUIDs(t, c, l("termUuids[eq]", green), false, vp2, v1)
	// Unlinking the parent's term, then deleting a variant.
	Want(t, c.Delete("/v1/products/"+vp+"/attributes/"+vpColour+"/terms/"+vpRed), 204)
	WantUUIDs(t, c, l("termUuids[eq]", red), false)
	Want(t, c.Delete("/v1/products/"+v3), 204)
	WantSearchFresh(t, pool, tenant)
	// All three filters at once, in one query.
	linkCat(v1, leaf)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", root, "termUuids[eq]", green), false, v1)
	WantUUIDs(t, c, l("categoryTreeUuids[eq]", root, "termUuids[eq]", green, "notReadyChannelUuids[eq]", mkChannel(t, c)), false, v1)
}

// Writers that meet: products linked under a category while the category moves back and forth,
// and terms linked to a parent while variants are created under it and moved to it. Whatever the
// interleaving, every product ends with the arrays its links give (each pair of writers meets on
// a lock: the category-tree lock, or the parent's row).
func TestSearchArraysUnderConcurrentWrites(t *testing.T) {
	t.Parallel()
	c, tenant := env.TenantClient(t)
	a, mid, leaf, b := mkCategoryTree(t, c)
	fam := mkFamily(t, c)
	attr := Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
	var terms []string
	for range 8 {
		terms = append(terms, Str(Want(t, c.Post("/v1/attributes/"+attr+"/terms", Body("code", "t_"+RandomHex(4))), 201).Obj(), "uuid"))
	}
	vp := mkProductID(t, c, "vp", "variant_parent", "familyUuid", fam)
	other := mkProductID(t, c, "other", "variant_parent", "familyUuid", fam)
	pa := Str(Want(t, c.Post("/v1/products/"+vp+"/attributes", Body("attributeUuid", attr)), 201).Obj(), "uuid")

	wg := newRacing()
	wantStatus := wg.want
	wg.Add(1)
	go func() { // the category moves
		defer wg.Done()
		for i := range 10 {
			wantStatus("move", c.Patch("/v1/categories/"+mid, Body("parentUuid", []string{a, b}[i%2])), 200)
		}
	}()
	for w := range 4 { // products linked under leaf
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 5 {
				r := c.Post("/v1/products", Body("code", fmt.Sprintf("p%d-%d", w, i), "kind", "simple"))
				wantStatus("create", r, 201)
				if r.Status == 201 {
					wantStatus("link", c.Post("/v1/products/"+Str(r.Obj(), "uuid")+"/categories", Body("categoryUuid", leaf)), 201)
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // terms on the parent
		defer wg.Done()
		for _, term := range terms {
			wantStatus("term", c.Post("/v1/products/"+vp+"/attributes/"+pa+"/terms", Body("termUuid", term)), 201)
		}
	}()
	for w := range 3 { // variants created under it, and moved to it from another parent
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 3 {
				wantStatus("variant", c.Post("/v1/products", Body("code", fmt.Sprintf("v%d-%d", w, i), "kind", "variant",
					"familyUuid", fam, "parentUuid", vp)), 201)
				r := c.Post("/v1/products", Body("code", fmt.Sprintf("m%d-%d", w, i), "kind", "variant", "familyUuid", fam, "parentUuid", other))
				wantStatus("variant elsewhere", r, 201)
				if r.Status == 201 {
					wantStatus("move variant", c.Patch("/v1/products/"+Str(r.Obj(), "uuid"), Body("parentUuid", vp)), 200)
				}
			}
		}()
	}
	wg.report(t)
	WantSearchFresh(t, pool, tenant)
	// Every variant carries all eight terms; every linked product is in b's or a's tree as mid is now.
	WantTotal(t, c, "/v1/products?size=100&kinds[eq]=variant&termUuids[eq]="+terms[7], 18)
	WantTotal(t, c, "/v1/products?size=100&categoryTreeUuids[eq]="+b, 20)
}
