package hierarchy

import (
	"slices"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// family is one hierarchy resource: categories and collections follow the same contract
// (API.md "Catalog structure": a collection is a category without contents).
type family struct {
	name, base string
	// event is the event prefix, idKey the payload key and path parameter of one item.
	event, idKey string
	// keys of a response item.
	keys []string
	// hasContents: include[contents]/expand[contents] and the contents sub-resource.
	hasContents bool
}

var (
	nodeKeys    = []string{"uuid", "createdAt", "updatedAt", "removedAt", "status", "code", "displayName", "parentUuid", "position"}
	categoriesF = family{name: "category", base: "/v1/categories", event: "category", idKey: "categoryUuid",
		keys: append(slices.Clone(nodeKeys), "contentUuids", "contents"), hasContents: true}
	collectionsF = family{name: "collection", base: "/v1/collections", event: "collection", idKey: "collectionUuid",
		keys: nodeKeys}
	families = []family{categoriesF, collectionsF}
)

// forEach runs body as a parallel subtest per family.
func forEach(t *testing.T, body func(t *testing.T, f family)) {
	t.Parallel()
	for _, f := range families {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			body(t, f)
		})
	}
}

func (f family) path(id string) string { return f.base + "/" + id }

// create makes a node with code and extra key, value pairs (parentUuid, position, displayName).
func (f family) create(t *testing.T, c *Client, code string, extra ...any) map[string]any {
	t.Helper()
	return Want(t, c.Post(f.base, Body(append([]any{"code", code}, extra...)...)), 201).Obj()
}

// createID is create's uuid.
func (f family) createID(t *testing.T, c *Client, code string, extra ...any) string {
	t.Helper()
	return Str(f.create(t, c, code, extra...), "uuid")
}

func (f family) get(t *testing.T, c *Client, id string) map[string]any {
	t.Helper()
	return Want(t, c.Get(f.path(id)), 200).Obj()
}

func (f family) patch(t *testing.T, c *Client, id string, kv ...any) map[string]any {
	t.Helper()
	return Want(t, c.Patch(f.path(id), Body(kv...)), 200).Obj()
}

func (f family) transition(c *Client, id, tr string) Resp {
	return c.Patch(f.path(id)+"/actions/lifecycle", map[string]any{"transition": tr})
}

// moveTo brings a draft node to status.
func (f family) moveTo(t *testing.T, c *Client, id, status string) {
	t.Helper()
	steps := map[string][]string{"draft": nil, "active": {"activate"}, "inactive": {"activate", "deactivate"}, "removed": {"remove"}}[status]
	for _, tr := range steps {
		Want(t, f.transition(c, id, tr), 200)
	}
	if got := Str(f.get(t, c, id), "status"); got != status {
		t.Fatalf("moveTo %s: status %s", status, got)
	}
}

func (f family) ev(verb, id string) Event { return Ev(f.event+"."+verb, f.idKey, id) }

// wantNode checks a node's exact shape and its values (parent "" means null).
func (f family) wantNode(t *testing.T, what string, obj map[string]any, status, code, name, parent string, position int) {
	t.Helper()
	WantKeys(t, what, obj, f.keys...)
	WantCommon(t, what, obj)
	var wantParent any
	if parent != "" {
		wantParent = parent
	}
	if obj["status"] != status || obj["code"] != code || obj["displayName"] != name || obj["parentUuid"] != wantParent || obj["position"] != float64(position) {
		t.Errorf("%s: got status %v code %v displayName %v parentUuid %v position %v, want %s %s %s %v %d",
			what, obj["status"], obj["code"], obj["displayName"], obj["parentUuid"], obj["position"], status, code, name, wantParent, position)
	}
	if status == "removed" {
		if s, _ := obj["removedAt"].(string); !TimestampRe.MatchString(s) {
			t.Errorf("%s: removedAt %v on a removed node", what, obj["removedAt"])
		}
	} else if v, ok := obj["removedAt"]; !ok || v != nil {
		t.Errorf("%s: removedAt %v, want null", what, obj["removedAt"])
	}
	if f.hasContents && (obj["contentUuids"] != nil || obj["contents"] != nil) {
		t.Errorf("%s: contentUuids/contents without include/expand: %v", what, obj)
	}
}

// wantMeta fails unless the problem's meta has k = v.
func wantMeta(t *testing.T, p map[string]any, k, v string) {
	t.Helper()
	meta, _ := p["meta"].(map[string]any)
	if meta[k] != v {
		t.Errorf("meta.%s = %v, want %s (problem %v)", k, meta[k], v, p)
	}
}

// --- contents (categories) ---

func contentsOf(cat string) string { return "/v1/categories/" + cat + "/contents" }

func mkContent(t *testing.T, c *Client, cat, locale, name string, extra ...any) map[string]any {
	t.Helper()
	return Want(t, c.Post(contentsOf(cat), Body(append([]any{"localeUuid", locale, "displayName", name}, extra...)...)), 201).Obj()
}
