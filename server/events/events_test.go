package events

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The payload encoder writes what encoding/json wrote before it (keys in order; the same content
// for any string, jsonb keeping only the content).
func TestAppendPayload(t *testing.T) {
	for _, p := range []map[string]string{
		{},
		{"attributeUuid": "0194f7a2-1c2d-7e3f-8a9b-0c1d2e3f4a5b"},
		{"productUuid": "a", "productAttributeUuid": "b", "productTermUuid": "c"},
		{"k": "quote \" backslash \\ tab \t newline \n nul \x00 <html> & é \u2028 \xff"},
	} {
		got := appendPayload(nil, p)
		want, _ := json.Marshal(p)
		var g, w map[string]string
		if err := json.Unmarshal(got, &g); err != nil {
			t.Fatalf("%q is not JSON: %v", got, err)
		}
		_ = json.Unmarshal(want, &w)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%q reads as %v, encoding/json's %q as %v", got, g, want, w)
		}
		if p["k"] == "" && string(got) != string(want) { // plain payloads: the very bytes
			t.Errorf("got %s, want %s", got, want)
		}
	}
}

// TestCatalogDescriptionsReadWell: every description starts with "A " or "An " as its noun wants
// (an "An asset file" once became "Ann asset file"), and ends with its payload keys.
func TestCatalogDescriptionsReadWell(t *testing.T) {
	for _, ty := range Catalog() {
		d := ty.Description
		article, rest, _ := strings.Cut(d, " ")
		vowel := rest != "" && strings.ContainsAny(rest[:1], "aeiou")
		if (article == "A" && vowel) || (article == "An" && !vowel) || (article != "A" && article != "An") {
			t.Errorf("%s: %q does not start with the right article", ty.Name, d)
		}
		if !strings.Contains(d, "Payload: ") {
			t.Errorf("%s: %q does not name its payload", ty.Name, d)
		}
	}
}
