package catalog

import (
	"context"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
)

// AttributeContentServer implements catalog.v1.AttributeContentService on the shared contents.
type AttributeContentServer struct {
	pb.UnimplementedAttributeContentServiceServer
	*Service
}

func attributeContentToPB(c db.Content) *pb.AttributeContent {
	return &pb.AttributeContent{Uuid: c.Uuid.String(), CreatedAt: timestamppb.New(c.CreatedAt), UpdatedAt: timestamppb.New(c.UpdatedAt),
		AttributeUuid: c.ParentUuid.String(), LocaleUuid: c.LocaleUuid.String(), DisplayName: c.DisplayName, Description: c.Description}
}

var attributeContents = contentFamily[*pb.AttributeContent, *pb.AttributeContentCreate, *pb.AttributeContentUpdate](
	kindAttribute, "attribute.content", "attributeContentUuid", attributeContentToPB)

func (s *AttributeContentServer) ListAttributeContents(ctx context.Context, req *pb.ListAttributeContentsRequest) (*pb.ListAttributeContentsResponse, error) {
	out, page, err := listContentsAs(ctx, s.Service, kindAttribute, s.attributeScope(ctx, req.AttributeUuid), req, attributeContentToPB)
	return &pb.ListAttributeContentsResponse{Items: out, Pagination: page}, err
}

func (s *AttributeContentServer) GetAttributeContent(ctx context.Context, req *pb.GetAttributeContentRequest) (*pb.GetAttributeContentResponse, error) {
	m, err := attributeContents.GetAt(ctx, s.DB, s.attributeScope(ctx, req.AttributeUuid), req.AttributeContentUuid)
	return &pb.GetAttributeContentResponse{AttributeContent: m}, err
}

func (s *AttributeContentServer) CreateAttributeContent(ctx context.Context, req *pb.CreateAttributeContentRequest) (*pb.CreateAttributeContentResponse, error) {
	m, err := attributeContents.CreateOne(ctx, s.DB, s.attributeScope(ctx, req.AttributeUuid), req.AttributeContent)
	return &pb.CreateAttributeContentResponse{AttributeContent: m}, err
}

func (s *AttributeContentServer) BulkCreateAttributeContents(ctx context.Context, req *pb.BulkCreateAttributeContentsRequest) (*pb.BulkCreateAttributeContentsResponse, error) {
	out, err := attributeContents.CreateMany(ctx, s.DB, s.attributeScope(ctx, req.AttributeUuid), req.Items)
	return &pb.BulkCreateAttributeContentsResponse{Items: out}, err
}

func (s *AttributeContentServer) UpdateAttributeContent(ctx context.Context, req *pb.UpdateAttributeContentRequest) (*pb.UpdateAttributeContentResponse, error) {
	m, err := attributeContents.UpdateAt(ctx, s.DB, s.attributeScope(ctx, req.AttributeUuid), req.AttributeContentUuid, req.AttributeContent)
	return &pb.UpdateAttributeContentResponse{AttributeContent: m}, err
}

func (s *AttributeContentServer) BulkUpdateAttributeContents(ctx context.Context, req *pb.BulkUpdateAttributeContentsRequest) (*pb.BulkUpdateAttributeContentsResponse, error) {
	out, err := attributeContents.UpdateMany(ctx, s.DB, s.attributeScope(ctx, req.AttributeUuid), req.Items)
	return &pb.BulkUpdateAttributeContentsResponse{Items: out}, err
}

func (s *AttributeContentServer) DeleteAttributeContent(ctx context.Context, req *pb.DeleteAttributeContentRequest) (*pb.DeleteAttributeContentResponse, error) {
	return &pb.DeleteAttributeContentResponse{}, attributeContents.Delete(ctx, s.DB, s.attributeScope(ctx, req.AttributeUuid), req.AttributeContentUuid)
}
