package structure_basic

import (
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/uuid"

	. "github.com/catalogd/catalogd/server/apptest"
)

// family is one top-level family of the group: all four share the code/displayName contract
// (API.md), so one suite checks each; what differs is declared here.
type family struct {
	name  string
	path  string
	event string // event name prefix
	idKey string // path parameter and event payload key
	// keys of a response object.
	keys []string
	// base holds the create fields required beyond code (the relation type's direction).
	base map[string]any
	// defaults are the values of the fields beyond the common ones after a create from base.
	defaults map[string]any
	// table of the family (row counts).
	table string
	// contents: the family has localized contents (and include/expand).
	contents bool
}

var (
	brandsF = family{name: "brands", path: "/v1/brands", event: "brand", idKey: "brandUuid", table: "brands", contents: true,
		keys:     []string{"uuid", "createdAt", "updatedAt", "code", "displayName", "contentUuids", "contents"},
		defaults: map[string]any{"contentUuids": nil, "contents": nil}}
	tagsF = family{name: "tags", path: "/v1/tags", event: "tag", idKey: "tagUuid", table: "tags", contents: true,
		keys:     []string{"uuid", "createdAt", "updatedAt", "code", "displayName", "contentUuids", "contents"},
		defaults: map[string]any{"contentUuids": nil, "contents": nil}}
	assetTypesF = family{name: "product-asset-types", path: "/v1/product-asset-types", event: "product_asset_type", idKey: "productAssetTypeUuid",
		table:    "product_asset_types",
		keys:     []string{"uuid", "createdAt", "updatedAt", "code", "displayName", "isFeaturedSource"},
		defaults: map[string]any{"isFeaturedSource": false}}
	relationTypesF = family{name: "product-relation-types", path: "/v1/product-relation-types", event: "product_relation_type", idKey: "productRelationTypeUuid",
		table:    "product_relation_types",
		keys:     []string{"uuid", "createdAt", "updatedAt", "code", "displayName", "direction"},
		base:     map[string]any{"direction": "one_way"},
		defaults: map[string]any{"direction": "one_way"}}
)

var families = []family{brandsF, tagsF, assetTypesF, relationTypesF}

// forEachFamily runs body as a parallel subtest per family.
func forEachFamily(t *testing.T, body func(t *testing.T, f family)) {
	t.Parallel()
	for _, f := range families {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			body(t, f)
		})
	}
}

// body is a create body: base, code (omitted when empty) and extra key/value pairs.
func (f family) body(code string, kv ...any) map[string]any {
	b := maps.Clone(f.base)
	if b == nil {
		b = map[string]any{}
	}
	if code != "" {
		b["code"] = code
	}
	for i := 0; i+1 < len(kv); i += 2 {
		b[kv[i].(string)] = kv[i+1]
	}
	return b
}

func (f family) item(id string) string { return f.path + "/" + id }

// create makes one item (201) and returns it.
func (f family) create(t *testing.T, c *Client, code string, kv ...any) map[string]any {
	t.Helper()
	return Want(t, c.Post(f.path, f.body(code, kv...)), 201).Obj()
}

// bulkCreate makes items of the codes in one bulk and returns them in order.
func (f family) bulkCreate(t *testing.T, c *Client, codes ...string) []map[string]any {
	t.Helper()
	items := make([]any, len(codes))
	for i, code := range codes {
		items[i] = f.body(code)
	}
	return Want(t, c.Post(f.path+"/bulk", items), 201).Objs()
}

func (f family) get(t *testing.T, c *Client, id string) map[string]any {
	t.Helper()
	return Want(t, c.Get(f.item(id)), 200).Obj()
}

// wantItem checks a response object: exactly the family's keys, the common fields' formats, code,
// displayName and the defaults of the family's other fields.
func (f family) wantItem(t *testing.T, what string, obj map[string]any, code, displayName string) {
	t.Helper()
	WantKeys(t, what, obj, f.keys...)
	WantCommon(t, what, obj)
	if obj["code"] != code || obj["displayName"] != displayName {
		t.Errorf("%s: code/displayName %v/%v, want %s/%s", what, obj["code"], obj["displayName"], code, displayName)
	}
	for k, v := range f.defaults {
		if obj[k] != v {
			t.Errorf("%s: %s %v, want %v", what, k, obj[k], v)
		}
	}
}

func (f family) ev(verb, id string) Event { return Ev(f.event+"."+verb, f.idKey, id) }

func randomUUID() string { return uuid.NewString() }

func codesOf(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = Str(it, "code")
	}
	return out
}

// listCodes is the codes a list answers (size 100), in order, failing unless it answers 200
// with a consistent pagination.
func listCodes(t *testing.T, c *Client, path string) []string {
	t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	r := Want(t, c.Get(path+sep+"size=100"), 200)
	items := r.Items()
	if tot := int(r.Obj()["pagination"].(map[string]any)["totalItems"].(float64)); tot != len(items) {
		t.Errorf("GET %s: totalItems %d but %d items", path, tot, len(items))
	}
	return codesOf(items)
}

// wantCodes fails unless got equals want (in order when ordered, else as sets).
func wantCodes(t *testing.T, what string, got []string, ordered bool, want ...string) {
	t.Helper()
	g, w := slices.Clone(got), slices.Clone(want)
	if !ordered {
		sort.Strings(g)
		sort.Strings(w)
	}
	if !slices.Equal(g, w) && !(len(g) == 0 && len(w) == 0) {
		t.Errorf("%s: codes %v, want %v (ordered=%v)", what, got, want, ordered)
	}
}
