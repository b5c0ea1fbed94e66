package hierarchy

import (
	"testing"
)

// The served OpenAPI document describes the hierarchy paths with the spec's query syntax and
// status codes.
func TestOpenAPI(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct{ Name, In string }
			Responses  map[string]any
		}
	}
	env.OpenAPI(t, &doc)
	common := []string{"uuids[eq]", "codes[eq]", "code[contains]", "code[starts]", "code[ends]", "code[order]", "displayNames[eq]",
		"displayName[contains]", "displayName[order]", "statuses[eq]", "status[order]", "parentUuids[eq]", "isRoot[eq]", "isRemoved[eq]",
		"position[eq]", "position[min]", "position[max]", "position[order]", "createdAt[eq]", "createdAt[min]", "createdAt[max]",
		"createdAt[order]", "updatedAt[min]", "updatedAt[order]", "page", "size"}
	for base, extra := range map[string][]string{
		"/v1/categories":  {"include[contents]", "expand[contents]"},
		"/v1/collections": nil,
	} {
		names := map[string]bool{}
		for _, p := range doc.Paths[base]["get"].Parameters {
			names[p.Name] = true
		}
		for _, want := range append(common, extra...) {
			if !names[want] {
				t.Errorf("GET %s lacks parameter %s", base, want)
			}
		}
		id := map[string]string{"/v1/categories": "{categoryUuid}", "/v1/collections": "{collectionUuid}"}[base]
		for path, ops := range map[string]map[string]string{
			base:                                   {"get": "200", "post": "201"},
			base + "/bulk":                         {"post": "201", "patch": "200"},
			base + "/" + id:                        {"get": "200", "patch": "200", "delete": "204"},
			base + "/" + id + "/actions/lifecycle": {"patch": "200"},
			base + "/bulk/actions/lifecycle":       {"patch": "200"},
		} {
			for verb, code := range ops {
				if _, ok := doc.Paths[path][verb].Responses[code]; !ok {
					t.Errorf("%s %s is not documented with %s", verb, path, code)
				}
			}
		}
	}
	for path, ops := range map[string]map[string]string{
		"/v1/categories/{categoryUuid}/contents":                       {"get": "200", "post": "201"},
		"/v1/categories/{categoryUuid}/contents/bulk":                  {"post": "201", "patch": "200"},
		"/v1/categories/{categoryUuid}/contents/{categoryContentUuid}": {"get": "200", "patch": "200", "delete": "204"},
	} {
		for verb, code := range ops {
			if _, ok := doc.Paths[path][verb].Responses[code]; !ok {
				t.Errorf("%s %s is not documented with %s", verb, path, code)
			}
		}
	}
}
