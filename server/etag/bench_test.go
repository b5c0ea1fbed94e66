package etag

import (
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
)

// BenchmarkFillProductPage is the cost the tags add to a page of 100 products (every list answer
// fills the tag of each item).
func BenchmarkFillProductPage(b *testing.B) {
	page := &pb.ListProductsResponse{}
	for i := 0; i < 100; i++ {
		page.Items = append(page.Items, &pb.Product{Uuid: "0190a5e4-7c1a-7d3e-9f10-2b3c4d5e6f70", Code: "SKU-12345", Kind: pb.ProductKind(1),
			CreatedAt: timestamppb.Now(), UpdatedAt: timestamppb.Now(), FamilyUuid: proto.String("0190a5e4-7c1a-7d3e-9f10-2b3c4d5e6f71")})
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range page.Items {
			p.Etag = ""
		}
		Fill(page)
	}
}
