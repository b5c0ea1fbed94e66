package product_attributes

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func mkAttr(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkTerm(t *testing.T, c *Client, attr string) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/attributes/"+attr+"/terms", Body("code", "t_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkProduct(t *testing.T, c *Client, kind string, extra ...any) string {
	t.Helper()
	b := Body(extra...)
	b["code"], b["kind"] = "P_"+RandomHex(4), kind
	return Str(Want(t, c.Post("/v1/products", b), 201).Obj(), "uuid")
}

// family creates a variant_parent with n variants: parent, variants.
func family(t *testing.T, c *Client, n int) (string, []string) {
	t.Helper()
	fam := Str(Want(t, c.Post("/v1/families", Body("code", "f_"+RandomHex(4))), 201).Obj(), "uuid")
	parent := mkProduct(t, c, "variant_parent", "familyUuid", fam)
	vs := make([]string, n)
	for i := range vs {
		vs[i] = mkProduct(t, c, "variant", "familyUuid", fam, "parentUuid", parent)
	}
	return parent, vs
}

func paBase(p string) string     { return "/v1/products/" + p + "/attributes" }
func ptBase(p, pa string) string { return paBase(p) + "/" + pa + "/terms" }

func wantPA(t *testing.T, what string, m map[string]any, product, attr string, axis bool) {
	t.Helper()
	WantKeys(t, what, m, "uuid", "createdAt", "updatedAt", "productUuid", "attributeUuid", "isVariantAxis", "inherited",
		"productTermUuids", "productTerms")
	WantCommon(t, what, m)
	WantFields(t, what, m, "productUuid", product, "attributeUuid", attr, "isVariantAxis", axis, "inherited", false)
}

func wantPT(t *testing.T, what string, m map[string]any, product, pa, term string) {
	t.Helper()
	WantKeys(t, what, m, "uuid", "createdAt", "updatedAt", "productUuid", "productAttributeUuid", "termUuid")
	WantCommon(t, what, m)
	WantFields(t, what, m, "productUuid", product, "productAttributeUuid", pa, "termUuid", term)
}

func link(t *testing.T, c *Client, p, attr string, axis bool) string {
	t.Helper()
	return Str(Want(t, c.Post(paBase(p), Body("attributeUuid", attr, "isVariantAxis", axis)), 201).Obj(), "uuid")
}

func linkTerm(t *testing.T, c *Client, p, pa, term string) string {
	t.Helper()
	return Str(Want(t, c.Post(ptBase(p, pa), Body("termUuid", term)), 201).Obj(), "uuid")
}

func paEv(verb, p, id string) Event {
	return Ev("product.attribute."+verb, "productUuid", p, "productAttributeUuid", id)
}

func ptEv(verb, p, pa, id string) Event {
	return Ev("product.attribute_term."+verb, "productUuid", p, "productAttributeUuid", pa, "productTermUuid", id)
}
