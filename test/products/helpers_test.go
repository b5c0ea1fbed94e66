package products

import (
	"fmt"
	"sync"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// productKeys are the exact keys of a product response without include/expand.
var productKeys = []string{"uuid", "createdAt", "updatedAt", "removedAt", "status", "code", "displayName", "kind",
	"familyUuid", "parentUuid", "brandUuid", "productCategoryUuids", "productCategories", "productTagUuids", "productTags",
	"productAttributeUuids", "productAttributes", "inputValueUuids", "inputValues", "publicationUuids", "publications",
	"variantUuids", "variants", "productAssetUuids", "productAssets", "productRelationUuids", "productRelations", "featuredAssetUuid"}

// wantProduct checks a product response: every key, formats and the values kv.
func wantProduct(t *testing.T, what string, p map[string]any, kv ...any) {
	t.Helper()
	WantKeys(t, what, p, productKeys...)
	WantCommon(t, what, p)
	WantFields(t, what, p, kv...)
}

func mkFamily(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/families", Body("code", "f_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkBrand(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/brands", Body("code", "b_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkCategory(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/categories", Body("code", "c_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkTag(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/tags", Body("code", "t_"+RandomHex(4))), 201).Obj(), "uuid")
}

// mkProduct creates a product of kind with extra fields and returns it.
func mkProduct(t *testing.T, c *Client, code, kind string, extra ...any) map[string]any {
	t.Helper()
	b := Body(extra...)
	b["code"], b["kind"] = code, kind
	return Want(t, c.Post("/v1/products", b), 201).Obj()
}

func mkProductID(t *testing.T, c *Client, code, kind string, extra ...any) string {
	t.Helper()
	return Str(mkProduct(t, c, code, kind, extra...), "uuid")
}

func pev(verb, id string) Event { return Ev("product."+verb, "productUuid", id) }

func transition(c *Client, id, tr string) Resp {
	return c.Patch("/v1/products/"+id+"/actions/lifecycle", Body("transition", tr))
}

// mkCategoryTree creates a category tree of three levels (root > mid > leaf) and an unrelated
// category, returning their uuids.
func mkCategoryTree(t *testing.T, c *Client) (root, mid, leaf, other string) {
	t.Helper()
	mkCat := func(extra ...any) string {
		b := Body(extra...)
		b["code"] = "c_" + RandomHex(4)
		return Str(Want(t, c.Post("/v1/categories", b), 201).Obj(), "uuid")
	}
	root = mkCat()
	mid = mkCat("parentUuid", root)
	leaf = mkCat("parentUuid", mid)
	return root, mid, leaf, mkCat()
}

// racing runs concurrent writers (Go, Wait) and collects the answers they did not expect, which
// report prints from the test's goroutine.
type racing struct {
	sync.WaitGroup
	fail chan string
}

func newRacing() *racing { return &racing{fail: make(chan string, 200)} }

// want records r unless it has status.
func (x *racing) want(what string, r Resp, status int) {
	if r.Status != status {
		x.fail <- fmt.Sprintf("%s: %d %.300s", what, r.Status, r.Raw)
	}
}

// report waits for the writers and fails t with every unexpected answer.
func (x *racing) report(t *testing.T) {
	t.Helper()
	x.Wait()
	close(x.fail)
	for f := range x.fail {
		t.Error(f)
	}
}
