package history

import (
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
)

// Diff compares the API JSON member by member: strings holding commas, braces and escaped quotes,
// nested objects and arrays, exact number literals; creates and deletes leave nulls out.
func TestDiff(t *testing.T) {
	v1, _ := structpb.NewValue(map[string]any{"a": []any{1, "x,}\"]"}, "n": map[string]any{"k": "{"}})
	v2, _ := structpb.NewValue(map[string]any{"a": []any{1, "x,}\"]"}, "n": map[string]any{"k": "}"}})
	desc := "say \"hi\", {then} [go]"
	before := &pb.ProductInputValue{Uuid: "u", InputTypeUuid: "t", Value: v1, ProductUuid: "p"}
	after := &pb.ProductInputValue{Uuid: "u", InputTypeUuid: "t", Value: v2, ProductUuid: "p"}
	got, err := Diff(before, after)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"field":"value","before":{"a":[1,"x,}\"]"],"n":{"k":"{"}},"after":{"a":[1,"x,}\"]"],"n":{"k":"}"}}}]`; string(got) != want {
		t.Errorf("update:\n got %s\nwant %s", got, want)
	}
	b := &pb.Brand{Uuid: "u", Code: "acme", DisplayName: "Acme"}
	a := &pb.Brand{Uuid: "u", Code: "acme", DisplayName: desc}
	if got, _ := Diff(b, a); string(got) != `[{"field":"displayName","before":"Acme","after":"say \"hi\", {then} [go]"}]` {
		t.Errorf("string with separators: %s", got)
	}
	if got, _ := Diff(b, b); string(got) != `[]` {
		t.Errorf("same state: %s", got)
	}
	if got, _ := Diff(nil, b); string(got) != `[{"field":"code","after":"acme"},{"field":"displayName","after":"Acme"}]` {
		t.Errorf("create: %s", got)
	}
	if got, _ := Diff(b, nil); string(got) != `[{"field":"code","before":"acme"},{"field":"displayName","before":"Acme"}]` {
		t.Errorf("delete: %s", got)
	}
}
