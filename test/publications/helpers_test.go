package publications

import (
	"fmt"
	"reflect"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

var pubKeys = []string{"uuid", "createdAt", "updatedAt", "productUuid", "channelUuid", "status", "publishedAt"}

func base(product string) string { return "/v1/products/" + product + "/publications" }

func ev(verb, product, id string) Event {
	return Ev("product.publication."+verb, "productUuid", product, "publicationUuid", id)
}

func moveEv(verb, product, id string) Event {
	return Ev("product."+verb, "productUuid", product, "publicationUuid", id)
}

// wantPub checks a publication response: every key, formats and the values kv.
func wantPub(t *testing.T, what string, v map[string]any, kv ...any) {
	t.Helper()
	WantKeys(t, what, v, pubKeys...)
	WantCommon(t, what, v)
	for i := 0; i+1 < len(kv); i += 2 {
		if got := v[kv[i].(string)]; !reflect.DeepEqual(got, kv[i+1]) {
			t.Errorf("%s: %s = %#v, want %#v", what, kv[i], got, kv[i+1])
		}
	}
}

func mkProduct(t *testing.T, c *Client, kind string, extra ...any) string {
	t.Helper()
	b := Body(extra...)
	b["code"], b["kind"] = "P"+RandomHex(4), kind
	return Str(Want(t, c.Post("/v1/products", b), 201).Obj(), "uuid")
}

func activate(t *testing.T, c *Client, product string) {
	t.Helper()
	Want(t, c.Patch("/v1/products/"+product+"/actions/lifecycle", Body("transition", "activate")), 200)
}

func mkFamily(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/families", Body("code", "f_"+RandomHex(4))), 201).Obj(), "uuid")
}

func mkGroup(t *testing.T, c *Client) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/type-groups", Body("code", "g_"+RandomHex(4), "entityType", "product")), 201).Obj(), "uuid")
}

func mkInputType(t *testing.T, c *Client, group string, localizable bool) string {
	t.Helper()
	return Str(Want(t, c.Post("/v1/input-types", Body("typeGroupUuid", group, "code", "it_"+RandomHex(4), "dataType", "text",
		"isLocalizable", localizable)), 201).Obj(), "uuid")
}

func mkChannel(t *testing.T, c *Client, locales ...string) string {
	t.Helper()
	if locales == nil {
		locales = []string{}
	}
	return Str(Want(t, c.Post("/v1/channels", Body("code", "ch_"+RandomHex(4), "localeUuids", locales)), 201).Obj(), "uuid")
}

func mkPub(t *testing.T, c *Client, product, channel string) string {
	t.Helper()
	return Str(Want(t, c.Post(base(product), Body("channelUuid", channel)), 201).Obj(), "uuid")
}

func move(c *Client, product, pub, tr string) Resp {
	return c.Patch(base(product)+"/"+pub+"/actions/lifecycle", Body("transition", tr))
}

func readiness(t *testing.T, c *Client, product, pub string) (bool, []map[string]any) {
	t.Helper()
	r := Want(t, c.Get(base(product)+"/"+pub+"/readiness"), 200).Obj()
	WantKeys(t, "readiness", r, "ready", "missing")
	var out []map[string]any
	for _, m := range r["missing"].([]any) {
		e := m.(map[string]any)
		WantKeys(t, "missing entry", e, "kind", "uuid", "code", "localeUuid", "detail")
		out = append(out, e)
	}
	return r["ready"].(bool), out
}

// missingOf is the meta.missing list of a REQUIREMENTS_NOT_MET problem: a JSON array of objects
// (never a JSON-encoded string).
func missingOf(t *testing.T, p map[string]any) []map[string]any {
	t.Helper()
	arr, ok := Meta(p)["missing"].([]any)
	if !ok {
		t.Fatalf("meta.missing %#v is not an array", Meta(p)["missing"])
	}
	out := make([]map[string]any, len(arr))
	for i, m := range arr {
		if out[i], ok = m.(map[string]any); !ok {
			t.Fatalf("meta.missing[%d] %#v is not an object", i, m)
		}
	}
	return out
}

// wantMissingErrors checks that a REQUIREMENTS_NOT_MET problem has one errors[] entry per entry of
// its meta.missing, in order: field prefix+"missing[j]", message that entry's detail.
func wantMissingErrors(t *testing.T, p map[string]any, prefix string) {
	t.Helper()
	missing := missingOf(t, p)
	errs, _ := p["errors"].([]any)
	if len(errs) != len(missing) {
		t.Fatalf("%d errors for %d missing requirements: %v", len(errs), len(missing), p)
	}
	for j, e := range errs {
		e := e.(map[string]any)
		if want := fmt.Sprintf("%smissing[%d]", prefix, j); e["field"] != want || e["message"] != missing[j]["detail"] || Str(e, "message") == "" {
			t.Errorf("errors[%d] = %v, want field %s, message %v", j, e, want, missing[j]["detail"])
		}
	}
}

// kinds summarises missing entries as kind/uuid/localeUuid triples.
func kinds(ms []map[string]any) [][3]any {
	out := make([][3]any, len(ms))
	for i, m := range ms {
		out[i] = [3]any{m["kind"], m["uuid"], m["localeUuid"]}
	}
	return out
}
