package catalog

import (
	"context"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
)

// AttributeTermServer implements catalog.v1.AttributeTermService.
type AttributeTermServer struct {
	pb.UnimplementedAttributeTermServiceServer
	*Service
}

// AttributeTermContentServer implements catalog.v1.AttributeTermContentService on the shared contents.
type AttributeTermContentServer struct {
	pb.UnimplementedAttributeTermContentServiceServer
	*Service
}

// AttributeTermList is the list spec of GET /v1/attributes/{attributeUuid}/terms.
var AttributeTermList = &list.Spec{
	Table:   "attribute_terms",
	Filters: list.CodeNameFilters(map[string]list.Field{"position": {Column: "position", Type: list.Int}}),
	Order:   list.CodeNameOrder(map[string]string{"position": "position"}),
}

func termToPB(t db.AttributeTerm) *pb.AttributeTerm {
	return &pb.AttributeTerm{Uuid: t.Uuid.String(), CreatedAt: timestamppb.New(t.CreatedAt), UpdatedAt: timestamppb.New(t.UpdatedAt),
		AttributeUuid: t.AttributeUuid.String(), Code: t.Code, DisplayName: t.DisplayName, Position: t.Position}
}

func termID(t db.AttributeTerm) uuid.UUID { return t.Uuid }

// terms is the attribute term family, scoped by its attribute.
var terms = &crud.Family[db.AttributeTerm, *pb.AttributeTerm, *pb.AttributeTermCreate, *pb.AttributeTermUpdate]{
	Kind: "term", Event: "attribute.term", IDKey: "termUuid", Unique: "code",
	ID: termID, ToPB: termToPB,
	CheckCreate: func(_ apierr.Validator, c *pb.AttributeTermCreate) string {
		return c.GetCode()
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.AttributeTermCreate) ([]db.AttributeTerm, error) {
		return t.Q.InsertAttributeTerms(ctx, db.InsertAttributeTermsParams{TenantID: t.Tenant, AttributeUuid: t.Scope.Parent, Uuids: ids, Now: t.Now,
			Codes: mapSlice(items, (*pb.AttributeTermCreate).GetCode), DisplayNames: mapSlice(items, displayNameOrCode[*pb.AttributeTermCreate]),
			Positions: mapSlice(items, (*pb.AttributeTermCreate).GetPosition)})
	},
	UpdateID: (*pb.AttributeTermUpdate).GetUuid,
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.AttributeTermUpdate) (db.AttributeTerm, error) {
		return t.Q.UpdateAttributeTerm(ctx, db.UpdateAttributeTermParams{TenantID: t.Tenant, AttributeUuid: t.Scope.Parent, Uuid: id,
			Code: optString(u, "code"), DisplayName: optString(u, "display_name"), Position: u.Position, Now: t.Now})
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.AttributeTerm, error) {
		return q.GetAttributeTerm(ctx, db.GetAttributeTermParams{TenantID: tenant, AttributeUuid: s.Parent, Uuid: id})
	},
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return t.Q.DeleteAttributeTerm(ctx, db.DeleteAttributeTermParams{TenantID: t.Tenant, AttributeUuid: t.Scope.Parent, Uuid: id})
	},
}

// attributeScope resolves the attributeUuid path parameter to the scope of its sub-resources.
func (s *Service) attributeScope(ctx context.Context, raw string) crud.Scope {
	a, err := attributes.Get(ctx, s.DB, crud.Scope{}, raw)
	if err != nil {
		return crud.Scope{Err: err}
	}
	return crud.Scope{Parent: a.Uuid, Keys: []string{"attributeUuid", a.Uuid.String()}}
}

func (s *AttributeTermServer) ListAttributeTerms(ctx context.Context, req *pb.ListAttributeTermsRequest) (*pb.ListAttributeTermsResponse, error) {
	sc := s.attributeScope(ctx, req.AttributeUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	tenant := reqctx.Tenant(ctx)
	rows, page, err := list.Run[db.AttributeTerm](ctx, s.DB, AttributeTermList, tenant, req, list.Eq("attribute_uuid", sc.Parent))
	if err != nil {
		return nil, err
	}
	out := mapSlice(rows, termToPB)
	if err := s.hydrateTerms(ctx, tenant, sc.Parent, out, mapSlice(rows, termID), req.Include, req.Expand); err != nil {
		return nil, err
	}
	return &pb.ListAttributeTermsResponse{Items: out, Pagination: page}, nil
}

func (s *Service) hydrateTerms(ctx context.Context, tenant string, attr uuid.UUID, out []*pb.AttributeTerm, ids []uuid.UUID, inc, exp *pb.AttributeTermInclude) error {
	conv := termContentToPB(attr)
	return hydrateContents(ctx, s.DB.Q, tenant, kindTerm, out, ids, inc.GetContents(), exp.GetContents(),
		func(t *pb.AttributeTerm, u *pb.UuidList) { t.ContentUuids = u },
		func(t *pb.AttributeTerm, cs []db.Content) {
			t.Contents = &pb.AttributeTermContentList{Items: mapSlice(cs, conv)}
		})
}

// getTerm resolves the attributeUuid and termUuid path parameters.
func (s *Service) getTerm(ctx context.Context, attrRaw, termRaw string) (db.AttributeTerm, error) {
	return terms.Get(ctx, s.DB, s.attributeScope(ctx, attrRaw), termRaw)
}

func (s *AttributeTermServer) GetAttributeTerm(ctx context.Context, req *pb.GetAttributeTermRequest) (*pb.GetAttributeTermResponse, error) {
	t, err := s.getTerm(ctx, req.AttributeUuid, req.TermUuid)
	if err != nil {
		return nil, err
	}
	out := []*pb.AttributeTerm{termToPB(t)}
	if err := s.hydrateTerms(ctx, t.TenantID, t.AttributeUuid, out, []uuid.UUID{t.Uuid}, req.Include, req.Expand); err != nil {
		return nil, err
	}
	return &pb.GetAttributeTermResponse{AttributeTerm: out[0]}, nil
}

func (s *AttributeTermServer) CreateAttributeTerm(ctx context.Context, req *pb.CreateAttributeTermRequest) (*pb.CreateAttributeTermResponse, error) {
	m, err := terms.CreateOne(ctx, s.DB, s.attributeScope(ctx, req.AttributeUuid), req.AttributeTerm)
	return &pb.CreateAttributeTermResponse{AttributeTerm: m}, err
}

func (s *AttributeTermServer) BulkCreateAttributeTerms(ctx context.Context, req *pb.BulkCreateAttributeTermsRequest) (*pb.BulkCreateAttributeTermsResponse, error) {
	out, err := terms.CreateMany(ctx, s.DB, s.attributeScope(ctx, req.AttributeUuid), req.Items)
	return &pb.BulkCreateAttributeTermsResponse{Items: out}, err
}

func (s *AttributeTermServer) UpdateAttributeTerm(ctx context.Context, req *pb.UpdateAttributeTermRequest) (*pb.UpdateAttributeTermResponse, error) {
	m, err := terms.UpdateAt(ctx, s.DB, s.attributeScope(ctx, req.AttributeUuid), req.TermUuid, req.AttributeTerm)
	return &pb.UpdateAttributeTermResponse{AttributeTerm: m}, err
}

func (s *AttributeTermServer) BulkUpdateAttributeTerms(ctx context.Context, req *pb.BulkUpdateAttributeTermsRequest) (*pb.BulkUpdateAttributeTermsResponse, error) {
	out, err := terms.UpdateMany(ctx, s.DB, s.attributeScope(ctx, req.AttributeUuid), req.Items)
	return &pb.BulkUpdateAttributeTermsResponse{Items: out}, err
}

func (s *AttributeTermServer) DeleteAttributeTerm(ctx context.Context, req *pb.DeleteAttributeTermRequest) (*pb.DeleteAttributeTermResponse, error) {
	return &pb.DeleteAttributeTermResponse{}, terms.Delete(ctx, s.DB, s.attributeScope(ctx, req.AttributeUuid), req.TermUuid)
}

// Term contents.

func termContentToPB(attr uuid.UUID) func(db.Content) *pb.AttributeTermContent {
	a := attr.String()
	return func(c db.Content) *pb.AttributeTermContent {
		return &pb.AttributeTermContent{Uuid: c.Uuid.String(), CreatedAt: timestamppb.New(c.CreatedAt), UpdatedAt: timestamppb.New(c.UpdatedAt),
			AttributeUuid: a, TermUuid: c.ParentUuid.String(), LocaleUuid: c.LocaleUuid.String(), DisplayName: c.DisplayName, Description: c.Description}
	}
}

// termContents is the content family of the terms of one attribute (its messages carry attributeUuid).
func termContents(attr uuid.UUID) *crud.Family[db.Content, *pb.AttributeTermContent, *pb.AttributeTermContentCreate, *pb.AttributeTermContentUpdate] {
	return contentFamily[*pb.AttributeTermContent, *pb.AttributeTermContentCreate, *pb.AttributeTermContentUpdate](
		kindTerm, "attribute.term.content", "termContentUuid", termContentToPB(attr))
}

// termScope resolves attributeUuid and termUuid to the scope of the term's contents, and the
// term contents family of its attribute.
func (s *Service) termScope(ctx context.Context, attrRaw, termRaw string) (crud.Scope, termContentFamily) {
	t, err := s.getTerm(ctx, attrRaw, termRaw)
	if err != nil {
		return crud.Scope{Err: err}, termContents(uuid.Nil)
	}
	return crud.Scope{Parent: t.Uuid, Keys: []string{"attributeUuid", t.AttributeUuid.String(), "termUuid", t.Uuid.String()}}, termContents(t.AttributeUuid)
}

type termContentFamily = *crud.Family[db.Content, *pb.AttributeTermContent, *pb.AttributeTermContentCreate, *pb.AttributeTermContentUpdate]

func (s *AttributeTermContentServer) ListAttributeTermContents(ctx context.Context, req *pb.ListAttributeTermContentsRequest) (*pb.ListAttributeTermContentsResponse, error) {
	sc, f := s.termScope(ctx, req.AttributeUuid, req.TermUuid)
	out, page, err := listContentsAs(ctx, s.Service, kindTerm, sc, req, f.ToPB)
	return &pb.ListAttributeTermContentsResponse{Items: out, Pagination: page}, err
}

func (s *AttributeTermContentServer) GetAttributeTermContent(ctx context.Context, req *pb.GetAttributeTermContentRequest) (*pb.GetAttributeTermContentResponse, error) {
	sc, f := s.termScope(ctx, req.AttributeUuid, req.TermUuid)
	m, err := f.GetAt(ctx, s.DB, sc, req.TermContentUuid)
	return &pb.GetAttributeTermContentResponse{AttributeTermContent: m}, err
}

func (s *AttributeTermContentServer) CreateAttributeTermContent(ctx context.Context, req *pb.CreateAttributeTermContentRequest) (*pb.CreateAttributeTermContentResponse, error) {
	sc, f := s.termScope(ctx, req.AttributeUuid, req.TermUuid)
	m, err := f.CreateOne(ctx, s.DB, sc, req.AttributeTermContent)
	return &pb.CreateAttributeTermContentResponse{AttributeTermContent: m}, err
}

func (s *AttributeTermContentServer) BulkCreateAttributeTermContents(ctx context.Context, req *pb.BulkCreateAttributeTermContentsRequest) (*pb.BulkCreateAttributeTermContentsResponse, error) {
	sc, f := s.termScope(ctx, req.AttributeUuid, req.TermUuid)
	out, err := f.CreateMany(ctx, s.DB, sc, req.Items)
	return &pb.BulkCreateAttributeTermContentsResponse{Items: out}, err
}

func (s *AttributeTermContentServer) UpdateAttributeTermContent(ctx context.Context, req *pb.UpdateAttributeTermContentRequest) (*pb.UpdateAttributeTermContentResponse, error) {
	sc, f := s.termScope(ctx, req.AttributeUuid, req.TermUuid)
	m, err := f.UpdateAt(ctx, s.DB, sc, req.TermContentUuid, req.AttributeTermContent)
	return &pb.UpdateAttributeTermContentResponse{AttributeTermContent: m}, err
}

func (s *AttributeTermContentServer) BulkUpdateAttributeTermContents(ctx context.Context, req *pb.BulkUpdateAttributeTermContentsRequest) (*pb.BulkUpdateAttributeTermContentsResponse, error) {
	sc, f := s.termScope(ctx, req.AttributeUuid, req.TermUuid)
	out, err := f.UpdateMany(ctx, s.DB, sc, req.Items)
	return &pb.BulkUpdateAttributeTermContentsResponse{Items: out}, err
}

func (s *AttributeTermContentServer) DeleteAttributeTermContent(ctx context.Context, req *pb.DeleteAttributeTermContentRequest) (*pb.DeleteAttributeTermContentResponse, error) {
	sc, f := s.termScope(ctx, req.AttributeUuid, req.TermUuid)
	return &pb.DeleteAttributeTermContentResponse{}, f.Delete(ctx, s.DB, sc, req.TermContentUuid)
}
