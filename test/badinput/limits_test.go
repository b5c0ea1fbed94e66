package badinput

import (
	"strings"
	"testing"

	. "github.com/catalogd/catalogd/server/apptest"
)

// An input value is at most 64 KiB of JSON: 400 naming value (the item in a bulk) above.
func TestInputValueAtMost64KiB(t *testing.T) {
	c := env.Client(t)
	group := Want(t, c.Post("/v1/type-groups", map[string]any{"code": "g", "entityType": "product"}), 201).Obj()["uuid"].(string)
	it := Want(t, c.Post("/v1/input-types", map[string]any{"typeGroupUuid": group, "code": "blob", "dataType": "json"}), 201).Obj()["uuid"].(string)
	product := Want(t, c.Post("/v1/products", map[string]any{"code": "p", "kind": "simple"}), 201).Obj()["uuid"].(string)
	path := "/v1/products/" + product + "/input-values"
	// {"a":"…"} of exactly 65 536 bytes is accepted; one byte more is refused.
	fits := strings.Repeat("x", 64<<10-len(`{"a":""}`))
	Want(t, c.Post(path, map[string]any{"inputTypeUuid": it, "value": map[string]any{"a": fits}}), 201)
	WantProblem(t, c.Post(path+"/bulk", []any{map[string]any{"inputTypeUuid": it, "value": map[string]any{"a": fits + "x"}}}), 400, "VALIDATION_FAILED", "[0].value")
	r := WantProblem(t, c.Post(path, map[string]any{"inputTypeUuid": it, "value": []any{fits, fits}}), 400, "VALIDATION_FAILED", "value")
	if !strings.Contains(string(r["detail"].(string)), "65536") {
		t.Errorf("the limit is not in the message: %v", r["detail"])
	}
}

// A pattern is bounded: length, character classes, the case-insensitive flag, compiled size; a
// value checked against one is bounded in length (the limit in the message).
func TestPatternLimits(t *testing.T) {
	c := env.Client(t)
	group := Want(t, c.Post("/v1/type-groups", map[string]any{"code": "g", "entityType": "product"}), 201).Obj()["uuid"].(string)
	for _, bad := range []struct{ pattern, words string }{
		{strings.Repeat(`\pL{1000}`, 107)[:961], "characters"}, // the attack's pattern: too long
		{`\pL{1000}`, "1000 instructions"},
		{`(?i)sku`, "case-insensitive"},
		{strings.Repeat(`[a-z]`, 17), "character classes"},
	} {
		r := WantProblem(t, c.Post("/v1/input-types", map[string]any{"typeGroupUuid": group, "code": "t", "dataType": "text",
			"constraints": map[string]any{"pattern": bad.pattern}}), 400, "VALIDATION_FAILED", "constraints.pattern")
		if !strings.Contains(r["detail"].(string), bad.words) {
			t.Errorf("pattern %.30q: %v", bad.pattern, r["detail"])
		}
	}
	it := Want(t, c.Post("/v1/input-types", map[string]any{"typeGroupUuid": group, "code": "sku", "dataType": "text",
		"constraints": map[string]any{"pattern": `^[a-z]{1,450}$`}}), 201).Obj()["uuid"].(string)
	product := Want(t, c.Post("/v1/products", map[string]any{"code": "p", "kind": "simple"}), 201).Obj()["uuid"].(string)
	path := "/v1/products/" + product + "/input-values"
	r := WantProblem(t, c.Post(path, map[string]any{"inputTypeUuid": it, "value": strings.Repeat("a", 20000)}), 400, "VALIDATION_FAILED", "value")
	if m, _ := r["meta"].(map[string]any); m["constraint"] != "pattern" || !strings.Contains(r["detail"].(string), "at most") {
		t.Errorf("long value: %v %v", r["detail"], r["meta"])
	}
	Want(t, c.Post(path, map[string]any{"inputTypeUuid": it, "value": strings.Repeat("a", 100)}), 201)
}
