package catalog

import (
	"context"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/crud"
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
	sc, err := s.attributeScope(ctx, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	rows, page, err := s.listContents(ctx, kindAttribute, sc, req)
	if err != nil {
		return nil, err
	}
	return &pb.ListAttributeContentsResponse{Items: mapSlice(rows, attributeContentToPB), Pagination: page}, nil
}

func (s *AttributeContentServer) GetAttributeContent(ctx context.Context, req *pb.GetAttributeContentRequest) (*pb.GetAttributeContentResponse, error) {
	sc, err := s.attributeScope(ctx, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	c, err := attributeContents.Get(ctx, s.DB, sc, req.AttributeContentUuid)
	if err != nil {
		return nil, err
	}
	return &pb.GetAttributeContentResponse{AttributeContent: attributeContentToPB(c)}, nil
}

func (s *AttributeContentServer) CreateAttributeContent(ctx context.Context, req *pb.CreateAttributeContentRequest) (*pb.CreateAttributeContentResponse, error) {
	sc, err := s.attributeScope(ctx, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	out, err := attributeContents.Create(ctx, s.DB, sc, []*pb.AttributeContentCreate{req.AttributeContent}, true)
	if err != nil {
		return nil, err
	}
	return &pb.CreateAttributeContentResponse{AttributeContent: out[0]}, nil
}

func (s *AttributeContentServer) BulkCreateAttributeContents(ctx context.Context, req *pb.BulkCreateAttributeContentsRequest) (*pb.BulkCreateAttributeContentsResponse, error) {
	if err := crud.Bulk(req.Items); err != nil {
		return nil, err
	}
	sc, err := s.attributeScope(ctx, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	out, err := attributeContents.Create(ctx, s.DB, sc, req.Items, false)
	if err != nil {
		return nil, err
	}
	return &pb.BulkCreateAttributeContentsResponse{Items: out}, nil
}

func (s *AttributeContentServer) UpdateAttributeContent(ctx context.Context, req *pb.UpdateAttributeContentRequest) (*pb.UpdateAttributeContentResponse, error) {
	if _, err := attributeContents.ParseID(req.AttributeContentUuid); err != nil {
		return nil, err
	}
	sc, err := s.attributeScope(ctx, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	u := orNew(req.AttributeContent)
	u.Uuid = req.AttributeContentUuid
	out, err := attributeContents.Update(ctx, s.DB, sc, []*pb.AttributeContentUpdate{u}, true)
	if err != nil {
		return nil, err
	}
	return &pb.UpdateAttributeContentResponse{AttributeContent: out[0]}, nil
}

func (s *AttributeContentServer) BulkUpdateAttributeContents(ctx context.Context, req *pb.BulkUpdateAttributeContentsRequest) (*pb.BulkUpdateAttributeContentsResponse, error) {
	if err := crud.Bulk(req.Items); err != nil {
		return nil, err
	}
	sc, err := s.attributeScope(ctx, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	out, err := attributeContents.Update(ctx, s.DB, sc, req.Items, false)
	if err != nil {
		return nil, err
	}
	return &pb.BulkUpdateAttributeContentsResponse{Items: out}, nil
}

func (s *AttributeContentServer) DeleteAttributeContent(ctx context.Context, req *pb.DeleteAttributeContentRequest) (*pb.DeleteAttributeContentResponse, error) {
	sc, err := s.attributeScope(ctx, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	if err := attributeContents.Delete(ctx, s.DB, sc, req.AttributeContentUuid); err != nil {
		return nil, err
	}
	return &pb.DeleteAttributeContentResponse{}, nil
}
