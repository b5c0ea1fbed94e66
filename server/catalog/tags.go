package catalog

import (
	"context"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/crud"
)

// Tags are lightweight labels of products, localized through content entries: a code/displayName
// family with contents, declared with the generic codeNameFamily of brands.go.

// Parent kind of tag contents in the contents table.
const kindTag = "tag"

// tags is the tag family (events tag.*, payload tagUuid) and its contents (tag.content.*, tagUuid
// and tagContentUuid).
var tags = newCodeNameFamily[*pb.Tag, *pb.TagCreate, *pb.TagUpdate, *pb.TagContent, *pb.TagContentCreate, *pb.TagContentUpdate](
	kindTag, "tags", codeNameTable((*db.Queries).InsertTags, (*db.Queries).UpdateTag, (*db.Queries).GetTag, (*db.Queries).DeleteTag))

// TagList is the list spec of GET /v1/tags.
var TagList = tags.spec

// TagServer implements catalog.v1.TagService.
type TagServer struct {
	pb.UnimplementedTagServiceServer
	*Service
}

func (s *TagServer) ListTags(ctx context.Context, req *pb.ListTagsRequest) (*pb.ListTagsResponse, error) {
	out, page, err := tags.listHydrated(ctx, s.Service, req, req.Include, req.Expand)
	return &pb.ListTagsResponse{Items: out, Pagination: page}, err
}

func (s *TagServer) CreateTag(ctx context.Context, req *pb.CreateTagRequest) (*pb.CreateTagResponse, error) {
	m, err := tags.CreateOne(ctx, s.DB, crud.Scope{}, req.Tag)
	return &pb.CreateTagResponse{Tag: m}, err
}

func (s *TagServer) BulkCreateTags(ctx context.Context, req *pb.BulkCreateTagsRequest) (*pb.BulkCreateTagsResponse, error) {
	out, err := tags.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateTagsResponse{Items: out}, err
}

func (s *TagServer) GetTag(ctx context.Context, req *pb.GetTagRequest) (*pb.GetTagResponse, error) {
	m, err := tags.getHydrated(ctx, s.Service, req.TagUuid, req.Include, req.Expand)
	return &pb.GetTagResponse{Tag: m}, err
}

func (s *TagServer) UpdateTag(ctx context.Context, req *pb.UpdateTagRequest) (*pb.UpdateTagResponse, error) {
	m, err := tags.UpdateAt(ctx, s.DB, crud.Scope{}, req.TagUuid, req.Tag)
	return &pb.UpdateTagResponse{Tag: m}, err
}

func (s *TagServer) BulkUpdateTags(ctx context.Context, req *pb.BulkUpdateTagsRequest) (*pb.BulkUpdateTagsResponse, error) {
	out, err := tags.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateTagsResponse{Items: out}, err
}

func (s *TagServer) DeleteTag(ctx context.Context, req *pb.DeleteTagRequest) (*pb.DeleteTagResponse, error) {
	return &pb.DeleteTagResponse{}, tags.Delete(ctx, s.DB, crud.Scope{}, req.TagUuid)
}

// TagContentServer implements catalog.v1.TagContentService on the shared contents.
type TagContentServer struct {
	pb.UnimplementedTagContentServiceServer
	*Service
}

func (s *TagContentServer) ListTagContents(ctx context.Context, req *pb.ListTagContentsRequest) (*pb.ListTagContentsResponse, error) {
	out, page, err := tags.listContents(ctx, s.Service, req.TagUuid, req)
	return &pb.ListTagContentsResponse{Items: out, Pagination: page}, err
}

func (s *TagContentServer) CreateTagContent(ctx context.Context, req *pb.CreateTagContentRequest) (*pb.CreateTagContentResponse, error) {
	m, err := tags.contents.CreateOne(ctx, s.DB, tags.scope(ctx, s.Service, req.TagUuid), req.TagContent)
	return &pb.CreateTagContentResponse{TagContent: m}, err
}

func (s *TagContentServer) BulkCreateTagContents(ctx context.Context, req *pb.BulkCreateTagContentsRequest) (*pb.BulkCreateTagContentsResponse, error) {
	out, err := tags.contents.CreateMany(ctx, s.DB, tags.scope(ctx, s.Service, req.TagUuid), req.Items)
	return &pb.BulkCreateTagContentsResponse{Items: out}, err
}

func (s *TagContentServer) GetTagContent(ctx context.Context, req *pb.GetTagContentRequest) (*pb.GetTagContentResponse, error) {
	m, err := tags.contents.GetAt(ctx, s.DB, tags.scope(ctx, s.Service, req.TagUuid), req.TagContentUuid)
	return &pb.GetTagContentResponse{TagContent: m}, err
}

func (s *TagContentServer) UpdateTagContent(ctx context.Context, req *pb.UpdateTagContentRequest) (*pb.UpdateTagContentResponse, error) {
	m, err := tags.contents.UpdateAt(ctx, s.DB, tags.scope(ctx, s.Service, req.TagUuid), req.TagContentUuid, req.TagContent)
	return &pb.UpdateTagContentResponse{TagContent: m}, err
}

func (s *TagContentServer) BulkUpdateTagContents(ctx context.Context, req *pb.BulkUpdateTagContentsRequest) (*pb.BulkUpdateTagContentsResponse, error) {
	out, err := tags.contents.UpdateMany(ctx, s.DB, tags.scope(ctx, s.Service, req.TagUuid), req.Items)
	return &pb.BulkUpdateTagContentsResponse{Items: out}, err
}

func (s *TagContentServer) DeleteTagContent(ctx context.Context, req *pb.DeleteTagContentRequest) (*pb.DeleteTagContentResponse, error) {
	return &pb.DeleteTagContentResponse{}, tags.contents.Delete(ctx, s.DB, tags.scope(ctx, s.Service, req.TagUuid), req.TagContentUuid)
}
