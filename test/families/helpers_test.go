package families

import (
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// Fixtures: the referenced resources, made through their own APIs.

func mkFamily(t *testing.T, c *Client, code string) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/families", Body("code", code)), 201).Obj(), "uuid")
}

func mkAttribute(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/attributes", Body("code", "a_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkCategory(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/categories", Body("code", "c_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkInputType(t *testing.T, c *Client) string {
	t.Helper()
	g := Str(Want(t, c.Post("/v1/type-groups", Body("code", "g_"+RandomHex(4), "entityType", "product")), 201).Obj(), "uuid")
	return Str(Want(t, c.Post("/v1/input-types", Body("typeGroupUuid", g, "code", "i_"+RandomHex(4), "dataType", "text")), 201).Obj(), "uuid")
}

func mkAssetType(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/product-asset-types", Body("code", "at_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkRelationType(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/product-relation-types", Body("code", "rt_"+RandomHex(4), "direction", "one_way")), 201).Obj(), "uuid")
}
