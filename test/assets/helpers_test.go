package assets

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

var assetKeys = []string{"uuid", "createdAt", "updatedAt", "code", "displayName", "description", "category", "storageLocation", "metadata"}

// mkAsset creates an asset (category image unless extra sets it) and returns it.
func mkAsset(t *testing.T, c *Client, code string, extra ...any) map[string]any {
	t.Helper()
	b := Body(extra...)
	b["code"] = code
	if _, ok := b["category"]; !ok {
		b["category"] = "image"
	}
	return Want(t, c.Post("/v1/assets", b), 201).Obj()
}

func mkCollection(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/collections", Body("code", "col_"+RandomHex(4))), 201).Obj(), "uuid")
}

func wantAsset(t *testing.T, what string, m map[string]any, kv ...any) {
	t.Helper()
	WantKeys(t, what, m, assetKeys...)
	WantCommon(t, what, m)
	WantFields(t, what, m, "storageLocation", "assets/"+Str(m, "uuid")+"/")
	WantFields(t, what, m, kv...)
}

func acBase(asset string) string { return "/v1/assets/" + asset + "/collections" }

func assetEv(verb, id string) Event { return Ev("asset."+verb, "assetUuid", id) }

func acEv(verb, asset, id string) Event {
	return Ev("asset.collection."+verb, "assetUuid", asset, "assetCollectionUuid", id)
}

func link(t *testing.T, c *Client, asset, col string) string {
	t.Helper()
	return Str(Want(t, c.Post(acBase(asset), Body("collectionUuid", col)), 201).Obj(), "uuid")
}
