package catalog

import (
	"context"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
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

// attributeParent resolves /v1/attributes/{attributeUuid} as the owner of contents.
func (s *Service) attributeParent(ctx context.Context, raw string) (contentParent, error) {
	id, err := fields.UUID("attributeUuid", raw)
	if err != nil {
		return contentParent{}, err
	}
	if _, err := s.DB.Q.GetAttribute(ctx, db.GetAttributeParams{TenantID: reqctx.Tenant(ctx), Uuid: id}); store.IsNoRows(err) {
		return contentParent{}, apierr.NotFoundf("attribute", raw)
	} else if err != nil {
		return contentParent{}, err
	}
	return contentParent{kind: kindAttribute, uuid: id, event: "attribute.content", idKey: "attributeContentUuid",
		keys: []string{"attributeUuid", id.String()}}, nil
}

func (s *AttributeContentServer) ListAttributeContents(ctx context.Context, req *pb.ListAttributeContentsRequest) (*pb.ListAttributeContentsResponse, error) {
	p, err := s.attributeParent(ctx, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	rows, page, err := s.listContents(ctx, p, req)
	if err != nil {
		return nil, err
	}
	return &pb.ListAttributeContentsResponse{Items: mapSlice(rows, attributeContentToPB), Pagination: page}, nil
}

func (s *AttributeContentServer) GetAttributeContent(ctx context.Context, req *pb.GetAttributeContentRequest) (*pb.GetAttributeContentResponse, error) {
	p, err := s.attributeParent(ctx, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	c, err := s.getContent(ctx, p, req.AttributeContentUuid)
	if err != nil {
		return nil, err
	}
	return &pb.GetAttributeContentResponse{AttributeContent: attributeContentToPB(c)}, nil
}

func (s *AttributeContentServer) CreateAttributeContent(ctx context.Context, req *pb.CreateAttributeContentRequest) (*pb.CreateAttributeContentResponse, error) {
	rows, err := s.createAttributeContents(ctx, req.AttributeUuid, []*pb.AttributeContentCreate{req.AttributeContent}, true)
	if err != nil {
		return nil, err
	}
	return &pb.CreateAttributeContentResponse{AttributeContent: rows[0]}, nil
}

func (s *AttributeContentServer) BulkCreateAttributeContents(ctx context.Context, req *pb.BulkCreateAttributeContentsRequest) (*pb.BulkCreateAttributeContentsResponse, error) {
	if err := fields.Bulk(len(req.Items)); err != nil {
		return nil, err
	}
	rows, err := s.createAttributeContents(ctx, req.AttributeUuid, req.Items, false)
	if err != nil {
		return nil, err
	}
	return &pb.BulkCreateAttributeContentsResponse{Items: rows}, nil
}

func (s *AttributeContentServer) createAttributeContents(ctx context.Context, parent string, items []*pb.AttributeContentCreate, single bool) ([]*pb.AttributeContent, error) {
	p, err := s.attributeParent(ctx, parent)
	if err != nil {
		return nil, err
	}
	return createContentsAs(ctx, s.Service, p, items, single, attributeContentToPB)
}

func (s *AttributeContentServer) UpdateAttributeContent(ctx context.Context, req *pb.UpdateAttributeContentRequest) (*pb.UpdateAttributeContentResponse, error) {
	u := req.AttributeContent
	if u == nil {
		u = &pb.AttributeContentUpdate{}
	}
	if _, err := fields.UUID("attributeContentUuid", req.AttributeContentUuid); err != nil {
		return nil, err
	}
	u.Uuid = req.AttributeContentUuid
	rows, err := s.updateAttributeContents(ctx, req.AttributeUuid, []*pb.AttributeContentUpdate{u}, true)
	if err != nil {
		return nil, err
	}
	return &pb.UpdateAttributeContentResponse{AttributeContent: rows[0]}, nil
}

func (s *AttributeContentServer) BulkUpdateAttributeContents(ctx context.Context, req *pb.BulkUpdateAttributeContentsRequest) (*pb.BulkUpdateAttributeContentsResponse, error) {
	if err := fields.Bulk(len(req.Items)); err != nil {
		return nil, err
	}
	rows, err := s.updateAttributeContents(ctx, req.AttributeUuid, req.Items, false)
	if err != nil {
		return nil, err
	}
	return &pb.BulkUpdateAttributeContentsResponse{Items: rows}, nil
}

func (s *AttributeContentServer) updateAttributeContents(ctx context.Context, parent string, items []*pb.AttributeContentUpdate, single bool) ([]*pb.AttributeContent, error) {
	p, err := s.attributeParent(ctx, parent)
	if err != nil {
		return nil, err
	}
	return updateContentsAs(ctx, s.Service, p, items, single, attributeContentToPB)
}

func (s *AttributeContentServer) DeleteAttributeContent(ctx context.Context, req *pb.DeleteAttributeContentRequest) (*pb.DeleteAttributeContentResponse, error) {
	p, err := s.attributeParent(ctx, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	if err := s.deleteContent(ctx, p, req.AttributeContentUuid); err != nil {
		return nil, err
	}
	return &pb.DeleteAttributeContentResponse{}, nil
}
