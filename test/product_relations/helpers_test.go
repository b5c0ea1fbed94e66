package product_relations

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// relKeys are the exact keys of a product relation.
var relKeys = []string{"uuid", "createdAt", "updatedAt", "productUuid", "productRelationTypeUuid", "targetProductUuid", "inverseRelationUuid"}

func mkProduct(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/products", Body("code", "p_"+RandomHex(4), "kind", "simple")), 201).Obj(), "uuid")
}

// mkType creates a product relation type of direction (one_way, two_way).
func mkType(t *testing.T, c *Client, direction string) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/product-relation-types", Body("code", "r_"+RandomHex(4), "direction", direction)), 201).Obj(), "uuid")
}

func base(product string) string { return "/v1/products/" + product + "/relations" }

func rel(typ, target string) map[string]any {
	return Body("productRelationTypeUuid", typ, "targetProductUuid", target)
}

// relate creates the relation product → target of typ and returns it.
func relate(t *testing.T, c *Client, product, typ, target string) map[string]any {
	t.Helper()
	return Want(t, c.Post(base(product), rel(typ, target)), 201).Obj()
}

// wantRel checks a relation: every key, formats, and its values (inverse nil for one-way).
func wantRel(t *testing.T, what string, r map[string]any, product, typ, target string, inverse any) {
	t.Helper()
	WantKeys(t, what, r, relKeys...)
	WantCommon(t, what, r)
	WantFields(t, what, r, "productUuid", product, "productRelationTypeUuid", typ, "targetProductUuid", target, "inverseRelationUuid", inverse)
	if r["createdAt"] != r["updatedAt"] {
		t.Errorf("%s: updatedAt %v differs from createdAt %v", what, r["updatedAt"], r["createdAt"])
	}
}

func ev(verb, product, id string) Event {
	return Ev("product.relation."+verb, "productUuid", product, "productRelationUuid", id)
}

// relationRows counts the tenant's relation rows (with an extra condition when given).
func relationRows(t *testing.T, tenant string, where ...string) int {
	t.Helper()
	return CountRows(t, pool, "product_relations", tenant, where...)
}
