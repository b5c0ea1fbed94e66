package history

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

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
	// One Differ for the entries of a write (events.Record), appending to one buffer, gives each
	// entry what Diff gives it alone.
	var d Differ
	var buf []byte
	pairs := [][2]proto.Message{{before, after}, {nil, b}, {b, a}, {b, nil}, {b, b}}
	ends := make([]int, len(pairs))
	for i, p := range pairs {
		var err error
		if buf, err = d.Append(buf, p[0], p[1]); err != nil {
			t.Fatal(err)
		}
		ends[i] = len(buf)
	}
	start := 0
	for i, p := range pairs {
		want, _ := Diff(p[0], p[1])
		if got := string(buf[start:ends[i]]); got != string(want) {
			t.Errorf("entry %d of one Differ: %s, want %s", i, got, want)
		}
		start = ends[i]
	}
}

// BenchmarkDiffBulk is the changes of a bulk create of 100 attributes, as events.Record makes them
// (one Differ for the write): go test -run - -bench DiffBulk ./server/history
func BenchmarkDiffBulk(b *testing.B) {
	now := timestamppb.Now()
	as := make([]*pb.Attribute, 100)
	for i := range as {
		as[i] = &pb.Attribute{Uuid: "0193b2c4-5d6e-7f80-9a1b-2c3d4e5f6a7b", CreatedAt: now, UpdatedAt: now,
			Status: pb.AttributeStatus(1), Code: fmt.Sprintf("b_%d", i), DisplayName: "Bulk attribute", Etag: `"e"`}
	}
	b.ReportAllocs()
	for b.Loop() {
		var d Differ
		var buf []byte
		for _, a := range as {
			var err error
			if buf, err = d.Append(buf, nil, a); err != nil {
				b.Fatal(err)
			}
		}
	}
}
