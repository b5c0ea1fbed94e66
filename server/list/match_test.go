package list

import (
	"slices"
	"strings"
	"testing"

	catalogv1 "github.com/catalogd/catalogd/gen/catalog/v1"
)

var matchSpec = &Spec{
	Table: "items",
	Filters: CodeNameFilters(map[string]Field{
		"statuses": {Column: "status", Type: Enum, Values: []string{"draft", "removed"}},
		// The codes of linked rows, as a family would declare a filter on another table.
		"codes": {Type: Text, Match: "items.uuid IN (SELECT l.item_uuid FROM links l WHERE l.tenant_id = @tenant AND l.code = ANY(@values))"},
		"uuids": {Type: UUID, Match: "EXISTS (SELECT 1 FROM tags g WHERE g.tenant_id = @tenant AND g.item_uuid = items.uuid AND g.tag_uuid = ANY(@values))"},
	}),
	Order:      CodeNameOrder(map[string]string{"status": "status"}),
	SoftDelete: &SoftDelete{StatusColumn: "status", Removed: "removed", IsRemovedField: "isRemoved", StatusesField: "statuses"},
}

// A Match filter puts its condition in the WHERE with the tenant and its values bound.
func TestBuildMatch(t *testing.T) {
	q, err := matchSpec.Build("t1", &catalogv1.ListAttributesRequest{
		Codes: &catalogv1.StringsFilter{Eq: []string{"a", "b"}},
		Uuids: &catalogv1.StringsFilter{Eq: []string{"0b5e5b1c-7f3a-4e6d-9c1b-2a4f6d8e0c13"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Fields in the request's field order: uuids (1) before codes (2).
	for _, want := range []string{
		"(items.uuid IN (SELECT l.item_uuid FROM links l WHERE l.tenant_id = $1 AND l.code = ANY($3::text[])))",
		"(EXISTS (SELECT 1 FROM tags g WHERE g.tenant_id = $1 AND g.item_uuid = items.uuid AND g.tag_uuid = ANY($2::uuid[])))",
	} {
		if !strings.Contains(q.SQL, want) || !strings.Contains(q.CountSQL, want) {
			t.Errorf("SQL without %s:\n%s\n%s", want, q.SQL, q.CountSQL)
		}
	}
	if len(q.Args) != 3 || q.Args[0] != "t1" || !slices.Equal(q.Args[2].([]string), []string{"a", "b"}) {
		t.Errorf("args %v", q.Args)
	}
	// Its values are checked like a column's.
	_, err = matchSpec.Build("t1", &catalogv1.ListAttributesRequest{Uuids: &catalogv1.StringsFilter{Eq: []string{"x"}}})
	if !slices.Equal(errFields(err), []string{"uuids[eq]"}) {
		t.Errorf("bad uuid: %v", err)
	}
}

func TestCheckMatch(t *testing.T) {
	req := &catalogv1.ListAttributesRequest{}
	if err := matchSpec.Check(req); err != nil {
		t.Errorf("match spec: %v", err)
	}
	bad := *matchSpec
	bad.Filters = CodeNameFilters(map[string]Field{"statuses": matchSpec.Filters["statuses"], "uuids": {Type: UUID, Match: "uuid = $2"}})
	if err := bad.Check(req); err == nil || !strings.Contains(err.Error(), "uuids") {
		t.Errorf("a Match without @values: %v", err)
	}
	bad.Filters = CodeNameFilters(map[string]Field{"statuses": matchSpec.Filters["statuses"], "createdAt": {Type: Time, Match: "created_at > @values"}})
	if err := bad.Check(req); err == nil || !strings.Contains(err.Error(), "createdAt") {
		t.Errorf("a Match on a time filter: %v", err)
	}
}
