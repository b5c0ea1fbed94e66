package families

import (
	"testing"
)

// The served OpenAPI document describes the family paths with the spec's query syntax and status
// codes, and each link list with the filters of its kind.
func TestOpenAPI(t *testing.T) {
	t.Parallel()
	var doc struct {
		Paths map[string]map[string]struct {
			Parameters []struct{ Name, In string }
			Responses  map[string]any
		}
	}
	env.OpenAPI(t, &doc)
	common := []string{"uuids[eq]", "createdAt[eq]", "createdAt[min]", "createdAt[max]", "createdAt[order]",
		"updatedAt[eq]", "updatedAt[min]", "updatedAt[max]", "updatedAt[order]", "page", "size"}
	lists := map[string][]string{
		"/v1/families": {"codes[eq]", "code[contains]", "code[starts]", "code[ends]", "code[order]", "displayNames[eq]",
			"displayName[contains]", "displayName[starts]", "displayName[ends]", "displayName[order]"},
		"/v1/families/{familyUuid}/attributes": {"attributeUuids[eq]", "requirementLevels[eq]", "requirementLevel[order]",
			"appliesTo[eq]", "isVariantAxis[eq]"},
		"/v1/families/{familyUuid}/input-types": {"inputTypeUuids[eq]", "requirementLevels[eq]", "requirementLevel[order]", "appliesTo[eq]"},
		"/v1/families/{familyUuid}/categories":  {"categoryUuids[eq]", "autoPopulate[eq]"},
		"/v1/families/{familyUuid}/asset-types": {"productAssetTypeUuids[eq]", "requirementLevels[eq]", "requirementLevel[order]",
			"minCount[eq]", "minCount[min]", "minCount[max]", "minCount[order]", "maxCount[eq]", "maxCount[min]", "maxCount[max]",
			"maxCount[order]", "appliesTo[eq]"},
		"/v1/families/{familyUuid}/relation-types": {"productRelationTypeUuids[eq]", "requirementLevels[eq]", "requirementLevel[order]",
			"minCount[eq]", "minCount[min]", "minCount[max]", "minCount[order]", "maxCount[eq]", "maxCount[min]", "maxCount[max]",
			"maxCount[order]"},
	}
	ids := map[string]string{
		"/v1/families":                             "{familyUuid}",
		"/v1/families/{familyUuid}/attributes":     "{familyAttributeUuid}",
		"/v1/families/{familyUuid}/input-types":    "{familyInputTypeUuid}",
		"/v1/families/{familyUuid}/categories":     "{familyCategoryUuid}",
		"/v1/families/{familyUuid}/asset-types":    "{familyAssetTypeUuid}",
		"/v1/families/{familyUuid}/relation-types": "{familyRelationTypeUuid}",
	}
	for base, extra := range lists {
		names := map[string]bool{}
		for _, p := range doc.Paths[base]["get"].Parameters {
			names[p.Name] = true
		}
		for _, want := range append(common, extra...) {
			if !names[want] {
				t.Errorf("GET %s lacks parameter %s", base, want)
			}
		}
		for path, ops := range map[string]map[string]string{
			base:                   {"get": "200", "post": "201"},
			base + "/bulk":         {"post": "201", "patch": "200"},
			base + "/" + ids[base]: {"get": "200", "patch": "200", "delete": "204"},
		} {
			for verb, code := range ops {
				if _, ok := doc.Paths[path][verb].Responses[code]; !ok {
					t.Errorf("%s %s is not documented with %s", verb, path, code)
				}
			}
		}
	}
}
