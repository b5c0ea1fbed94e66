package fields

import (
	"fmt"
	"testing"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
)

// The rule check of a bulk create of 100 attributes and of a list request, as the interceptor
// runs it for every call.
func BenchmarkCheck(b *testing.B) {
	bulk := method(b, "AttributeService", "BulkCreateAttributes")
	req := &pb.BulkCreateAttributesRequest{}
	for i := range 100 {
		dn := fmt.Sprintf("Voltage %d", i)
		req.Items = append(req.Items, &pb.AttributeCreate{Code: fmt.Sprintf("attr-%06d-voltage", i), DisplayName: &dn})
	}
	b.Run("bulk create of 100", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := bulk.Check(req); err != nil {
				b.Fatal(err)
			}
		}
	})
	lst := method(b, "AttributeService", "ListAttributes")
	contains, size := "voltage", int32(20)
	lreq := &pb.ListAttributesRequest{Statuses: &pb.StringsFilter{Eq: []string{"published"}}, Code: &pb.StringFilter{Contains: &contains}, Size: &size}
	b.Run("list", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := lst.Check(lreq); err != nil {
				b.Fatal(err)
			}
		}
	})
}
