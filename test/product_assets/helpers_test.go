package product_assets

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

func mkAsset(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/assets", Body("code", "as_"+RandomHex(4), "category", "image")), 201).Obj(), "uuid")
}

func mkType(t *testing.T, c *Client, featured bool) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/product-asset-types", Body("code", "pat_"+RandomHex(4), "isFeaturedSource", featured)), 201).Obj(), "uuid")
}

func mkProduct(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/products", Body("code", "P_"+RandomHex(4), "kind", "simple")), 201).Obj(), "uuid")
}

func base(p string) string { return "/v1/products/" + p + "/assets" }

func wantPA(t *testing.T, what string, m map[string]any, product, asset, typ string, prio int, featured bool) {
	t.Helper()
	WantKeys(t, what, m, "uuid", "createdAt", "updatedAt", "productUuid", "assetUuid", "productAssetTypeUuid", "displayPriority", "isFeatured")
	WantCommon(t, what, m)
	WantFields(t, what, m, "productUuid", product, "assetUuid", asset, "productAssetTypeUuid", typ, "displayPriority", prio, "isFeatured", featured)
}

func link(t *testing.T, c *Client, p, asset, typ string, prio int) string {
	t.Helper()
	return Str(Want(t, c.Post(base(p), Body("assetUuid", asset, "productAssetTypeUuid", typ, "displayPriority", prio)), 201).Obj(), "uuid")
}

// featured is the uuid of the product's featured asset according to its list ("" when none).
func featured(t *testing.T, c *Client, p string) string {
	t.Helper()
	items := Want(t, c.Get(base(p)+Q("isFeatured[eq]", "true")), 200).Items()
	switch len(items) {
	case 0:
		return ""
	case 1:
		return Str(items[0], "uuid")
	}
	t.Fatalf("product %s has %d featured assets", p, len(items))
	return ""
}

func paEv(verb, p, id string) Event {
	return Ev("product.asset."+verb, "productUuid", p, "productAssetUuid", id)
}
