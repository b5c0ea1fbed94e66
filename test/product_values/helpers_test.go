package product_values

import (
	"reflect"
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

var valueKeys = []string{"uuid", "createdAt", "updatedAt", "productUuid", "inputTypeUuid", "channelUuid", "localeUuid", "value", "inherited"}

// wantValue checks an input value response: every key, formats and the values kv.
func wantValue(t *testing.T, what string, v map[string]any, kv ...any) {
	t.Helper()
	WantKeys(t, what, v, valueKeys...)
	WantCommon(t, what, v)
	for i := 0; i+1 < len(kv); i += 2 {
		if got := v[kv[i].(string)]; !reflect.DeepEqual(got, kv[i+1]) {
			t.Errorf("%s: %s = %#v, want %#v", what, kv[i], got, kv[i+1])
		}
	}
}

func base(product string) string { return "/v1/products/" + product + "/input-values" }

func ev(verb, product, id string) Event {
	return Ev("product.input_value."+verb, "productUuid", product, "inputValueUuid", id)
}

func mkProduct(t *testing.T, c *Client, kind string, extra ...any) string {
	t.Helper()
	b := Body(extra...)
	b["code"], b["kind"] = "P"+RandomHex(4), kind
	return Str(Want(t, c.Post("/v1/products", b), 201).Obj(), "uuid")
}

func mkFamily(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/families", Body("code", "f_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkGroup(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/type-groups", Body("code", "g_"+RandomHex(4), "entityType", "product")), 201).Obj(), "uuid")
}

// mkInputType creates an input type of dataType in group with extra fields (isLocalizable, constraints).
func mkInputType(t *testing.T, c *Client, group, dataType string, extra ...any) string {
	t.Helper()
	b := Body(extra...)
	b["typeGroupUuid"], b["code"], b["dataType"] = group, "it_"+RandomHex(4), dataType
	return Str(Want(t, c.Post("/v1/input-types", b), 201).Obj(), "uuid")
}

func mkChannel(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/channels", Body("code", "ch_"+RandomHex(4))), 201).Obj(), "uuid")
}

// set creates a value and returns it.
func set(t *testing.T, c *Client, product string, kv ...any) map[string]any {
	t.Helper()
	return Want(t, c.Post(base(product), Body(kv...)), 201).Obj()
}

// wantConstraint checks a 400 on value naming field and the broken constraint.
func wantConstraint(t *testing.T, r Resp, field, constraint string) {
	t.Helper()
	p := WantProblem(t, r, 400, "VALIDATION_FAILED", field)
	meta, _ := p["meta"].(map[string]any)
	if meta["constraint"] != constraint || !strings.Contains(p["detail"].(string), constraint) {
		t.Errorf("problem does not name constraint %s: %s", constraint, r.Raw)
	}
}
