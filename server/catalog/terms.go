package catalog

import (
	"context"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
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
	Table: "attribute_terms",
	Filters: map[string]list.Field{
		"uuids":        {Column: "uuid", Type: list.UUID},
		"codes":        {Column: "code", Type: list.Text},
		"code":         {Column: "code", Type: list.Text},
		"displayNames": {Column: "display_name", Type: list.Text},
		"displayName":  {Column: "display_name", Type: list.Text},
		"position":     {Column: "position", Type: list.Int},
		"createdAt":    {Column: "created_at", Type: list.Time},
		"updatedAt":    {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"code": "code", "displayName": "display_name", "position": "position",
		"createdAt": "created_at", "updatedAt": "updated_at"},
}

func termToPB(t db.AttributeTerm) *pb.AttributeTerm {
	return &pb.AttributeTerm{Uuid: t.Uuid.String(), CreatedAt: timestamppb.New(t.CreatedAt), UpdatedAt: timestamppb.New(t.UpdatedAt),
		AttributeUuid: t.AttributeUuid.String(), Code: t.Code, DisplayName: t.DisplayName, Position: t.Position}
}

func termEvent(verb string, attr, term uuid.UUID) events.Event {
	return events.New("attribute.term."+verb, "attributeUuid", attr.String(), "termUuid", term.String())
}

func termID(t db.AttributeTerm) uuid.UUID { return t.Uuid }

// attributeID resolves the attributeUuid path parameter to an existing attribute of the tenant.
func (s *Service) attributeID(ctx context.Context, raw string) (uuid.UUID, error) {
	p, err := s.attributeParent(ctx, raw)
	return p.uuid, err
}

func (s *AttributeTermServer) ListAttributeTerms(ctx context.Context, req *pb.ListAttributeTermsRequest) (*pb.ListAttributeTermsResponse, error) {
	attr, err := s.attributeID(ctx, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	tenant := reqctx.Tenant(ctx)
	rows, page, err := list.Run[db.AttributeTerm](ctx, s.DB.Pool, AttributeTermList, tenant, req, list.Eq("attribute_uuid", attr))
	if err != nil {
		return nil, err
	}
	out := mapSlice(rows, termToPB)
	if err := s.hydrateTerms(ctx, tenant, attr, out, mapSlice(rows, termID), req.Include, req.Expand); err != nil {
		return nil, err
	}
	return &pb.ListAttributeTermsResponse{Items: out, Pagination: page}, nil
}

func (s *Service) hydrateTerms(ctx context.Context, tenant string, attr uuid.UUID, out []*pb.AttributeTerm, ids []uuid.UUID, inc, exp *pb.AttributeTermInclude) error {
	if !inc.GetContents() && !exp.GetContents() {
		return nil
	}
	by, err := loadContents(ctx, s.DB.Q, tenant, kindTerm, ids)
	if err != nil {
		return err
	}
	conv := termContentToPB(attr)
	for i, t := range out {
		cs := by[ids[i]]
		if inc.GetContents() {
			t.ContentUuids = uuidList(cs)
		}
		if exp.GetContents() {
			t.Contents = &pb.AttributeTermContentList{Items: mapSlice(cs, conv)}
		}
	}
	return nil
}

func (s *Service) getTerm(ctx context.Context, attrRaw, termRaw string) (db.AttributeTerm, error) {
	attr, err := s.attributeID(ctx, attrRaw)
	if err != nil {
		return db.AttributeTerm{}, err
	}
	id, err := fields.UUID("termUuid", termRaw)
	if err != nil {
		return db.AttributeTerm{}, err
	}
	t, err := s.DB.Q.GetAttributeTerm(ctx, db.GetAttributeTermParams{TenantID: reqctx.Tenant(ctx), AttributeUuid: attr, Uuid: id})
	if store.IsNoRows(err) {
		return t, apierr.NotFoundf("term", termRaw)
	}
	return t, err
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
	out, err := s.createTerms(ctx, req.AttributeUuid, []*pb.AttributeTermCreate{req.AttributeTerm}, true)
	if err != nil {
		return nil, err
	}
	return &pb.CreateAttributeTermResponse{AttributeTerm: out[0]}, nil
}

func (s *AttributeTermServer) BulkCreateAttributeTerms(ctx context.Context, req *pb.BulkCreateAttributeTermsRequest) (*pb.BulkCreateAttributeTermsResponse, error) {
	if err := fields.Bulk(len(req.Items)); err != nil {
		return nil, err
	}
	out, err := s.createTerms(ctx, req.AttributeUuid, req.Items, false)
	if err != nil {
		return nil, err
	}
	return &pb.BulkCreateAttributeTermsResponse{Items: out}, nil
}

func (s *AttributeTermServer) createTerms(ctx context.Context, attrRaw string, items []*pb.AttributeTermCreate, single bool) ([]*pb.AttributeTerm, error) {
	attr, err := s.attributeID(ctx, attrRaw)
	if err != nil {
		return nil, err
	}
	tenant := reqctx.Tenant(ctx)
	v := apierr.NewValidator()
	n := len(items)
	p := db.InsertAttributeTermsParams{TenantID: tenant, AttributeUuid: attr, Uuids: make([]uuid.UUID, n),
		Codes: make([]string, n), DisplayNames: make([]string, n), Positions: make([]int32, n)}
	for i, it := range items {
		iv := v.Item(item(i, single))
		fields.Text(iv, "code", it.GetCode(), 1, 100)
		fields.OptText(iv, "displayName", optString(it, "display_name"), 1, 100)
		p.Uuids[i] = uuid.Must(uuid.NewV7())
		p.Codes[i] = it.GetCode()
		p.DisplayNames[i] = it.GetCode()
		if d := optString(it, "display_name"); d != nil {
			p.DisplayNames[i] = *d
		}
		p.Positions[i] = it.GetPosition()
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p.Now = store.Now()
	var rows []db.AttributeTerm
	err = s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		var err error
		if rows, err = q.InsertAttributeTerms(ctx, p); err != nil {
			return err
		}
		if err := conflicts(p.Uuids, idSet(rows, termID), single, "code", p.Codes, "term code"); err != nil {
			return err
		}
		return events.Record(ctx, q, tenant, p.Now, mapSlice(p.Uuids, func(id uuid.UUID) events.Event { return termEvent("created", attr, id) }))
	})
	if err != nil {
		return nil, err
	}
	return inOrder(p.Uuids, rows, termID, termToPB), nil
}

func (s *AttributeTermServer) UpdateAttributeTerm(ctx context.Context, req *pb.UpdateAttributeTermRequest) (*pb.UpdateAttributeTermResponse, error) {
	if _, err := fields.UUID("termUuid", req.TermUuid); err != nil {
		return nil, err
	}
	u := req.AttributeTerm
	if u == nil {
		u = &pb.AttributeTermUpdate{}
	}
	u.Uuid = req.TermUuid
	out, err := s.updateTerms(ctx, req.AttributeUuid, []*pb.AttributeTermUpdate{u}, true)
	if err != nil {
		return nil, err
	}
	return &pb.UpdateAttributeTermResponse{AttributeTerm: out[0]}, nil
}

func (s *AttributeTermServer) BulkUpdateAttributeTerms(ctx context.Context, req *pb.BulkUpdateAttributeTermsRequest) (*pb.BulkUpdateAttributeTermsResponse, error) {
	if err := fields.Bulk(len(req.Items)); err != nil {
		return nil, err
	}
	out, err := s.updateTerms(ctx, req.AttributeUuid, req.Items, false)
	if err != nil {
		return nil, err
	}
	return &pb.BulkUpdateAttributeTermsResponse{Items: out}, nil
}

func (s *AttributeTermServer) updateTerms(ctx context.Context, attrRaw string, items []*pb.AttributeTermUpdate, single bool) ([]*pb.AttributeTerm, error) {
	attr, err := s.attributeID(ctx, attrRaw)
	if err != nil {
		return nil, err
	}
	tenant := reqctx.Tenant(ctx)
	v := apierr.NewValidator()
	ids := make([]uuid.UUID, len(items))
	for i, it := range items {
		iv := v.Item(item(i, single))
		fields.ApplyMask(iv, it)
		ids[i] = fields.CheckUUID(iv, "uuid", it.GetUuid())
		fields.OptText(iv, "code", optString(it, "code"), 1, 100)
		fields.OptText(iv, "displayName", optString(it, "display_name"), 1, 100)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	now := store.Now()
	out := make([]*pb.AttributeTerm, len(items))
	err = s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		for i, it := range items {
			t, err := q.UpdateAttributeTerm(ctx, db.UpdateAttributeTermParams{TenantID: tenant, AttributeUuid: attr, Uuid: ids[i],
				Code: optString(it, "code"), DisplayName: optString(it, "display_name"), Position: it.Position, Now: now})
			if store.IsNoRows(err) {
				return notFoundField(fieldName("uuid", i, single), "term", it.GetUuid())
			} else if err != nil {
				return mapWriteErr(err, "code", i, single)
			}
			out[i] = termToPB(t)
		}
		return events.Record(ctx, q, tenant, now, mapSlice(ids, func(id uuid.UUID) events.Event { return termEvent("updated", attr, id) }))
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (s *AttributeTermServer) DeleteAttributeTerm(ctx context.Context, req *pb.DeleteAttributeTermRequest) (*pb.DeleteAttributeTermResponse, error) {
	attr, err := s.attributeID(ctx, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	id, err := fields.UUID("termUuid", req.TermUuid)
	if err != nil {
		return nil, err
	}
	tenant := reqctx.Tenant(ctx)
	err = s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		n, err := q.DeleteAttributeTerm(ctx, db.DeleteAttributeTermParams{TenantID: tenant, AttributeUuid: attr, Uuid: id})
		if err != nil {
			return inUse(err, "term", req.TermUuid)
		}
		if n == 0 {
			return apierr.NotFoundf("term", req.TermUuid)
		}
		return events.Record(ctx, q, tenant, store.Now(), []events.Event{termEvent("deleted", attr, id)})
	})
	if err != nil {
		return nil, err
	}
	return &pb.DeleteAttributeTermResponse{}, nil
}

// Term contents.

func termContentToPB(attr uuid.UUID) func(db.Content) *pb.AttributeTermContent {
	a := attr.String()
	return func(c db.Content) *pb.AttributeTermContent {
		return &pb.AttributeTermContent{Uuid: c.Uuid.String(), CreatedAt: timestamppb.New(c.CreatedAt), UpdatedAt: timestamppb.New(c.UpdatedAt),
			AttributeUuid: a, TermUuid: c.ParentUuid.String(), LocaleUuid: c.LocaleUuid.String(), DisplayName: c.DisplayName, Description: c.Description}
	}
}

func (s *Service) termParent(ctx context.Context, attrRaw, termRaw string) (contentParent, error) {
	t, err := s.getTerm(ctx, attrRaw, termRaw)
	if err != nil {
		return contentParent{}, err
	}
	return contentParent{kind: kindTerm, uuid: t.Uuid, event: "attribute.term.content", idKey: "termContentUuid",
		keys: []string{"attributeUuid", t.AttributeUuid.String(), "termUuid", t.Uuid.String()}}, nil
}

func (s *AttributeTermContentServer) ListAttributeTermContents(ctx context.Context, req *pb.ListAttributeTermContentsRequest) (*pb.ListAttributeTermContentsResponse, error) {
	p, err := s.termParent(ctx, req.AttributeUuid, req.TermUuid)
	if err != nil {
		return nil, err
	}
	rows, page, err := s.listContents(ctx, p, req)
	if err != nil {
		return nil, err
	}
	return &pb.ListAttributeTermContentsResponse{Items: mapSlice(rows, termContentToPB(uuid.MustParse(p.keys[1]))), Pagination: page}, nil
}

func (s *AttributeTermContentServer) GetAttributeTermContent(ctx context.Context, req *pb.GetAttributeTermContentRequest) (*pb.GetAttributeTermContentResponse, error) {
	p, err := s.termParent(ctx, req.AttributeUuid, req.TermUuid)
	if err != nil {
		return nil, err
	}
	c, err := s.getContent(ctx, p, req.TermContentUuid)
	if err != nil {
		return nil, err
	}
	return &pb.GetAttributeTermContentResponse{AttributeTermContent: termContentToPB(uuid.MustParse(p.keys[1]))(c)}, nil
}

func (s *AttributeTermContentServer) CreateAttributeTermContent(ctx context.Context, req *pb.CreateAttributeTermContentRequest) (*pb.CreateAttributeTermContentResponse, error) {
	p, err := s.termParent(ctx, req.AttributeUuid, req.TermUuid)
	if err != nil {
		return nil, err
	}
	out, err := createContentsAs(ctx, s.Service, p, []*pb.AttributeTermContentCreate{req.AttributeTermContent}, true, termContentToPB(uuid.MustParse(p.keys[1])))
	if err != nil {
		return nil, err
	}
	return &pb.CreateAttributeTermContentResponse{AttributeTermContent: out[0]}, nil
}

func (s *AttributeTermContentServer) BulkCreateAttributeTermContents(ctx context.Context, req *pb.BulkCreateAttributeTermContentsRequest) (*pb.BulkCreateAttributeTermContentsResponse, error) {
	if err := fields.Bulk(len(req.Items)); err != nil {
		return nil, err
	}
	p, err := s.termParent(ctx, req.AttributeUuid, req.TermUuid)
	if err != nil {
		return nil, err
	}
	out, err := createContentsAs(ctx, s.Service, p, req.Items, false, termContentToPB(uuid.MustParse(p.keys[1])))
	if err != nil {
		return nil, err
	}
	return &pb.BulkCreateAttributeTermContentsResponse{Items: out}, nil
}

func (s *AttributeTermContentServer) UpdateAttributeTermContent(ctx context.Context, req *pb.UpdateAttributeTermContentRequest) (*pb.UpdateAttributeTermContentResponse, error) {
	if _, err := fields.UUID("termContentUuid", req.TermContentUuid); err != nil {
		return nil, err
	}
	p, err := s.termParent(ctx, req.AttributeUuid, req.TermUuid)
	if err != nil {
		return nil, err
	}
	u := req.AttributeTermContent
	if u == nil {
		u = &pb.AttributeTermContentUpdate{}
	}
	u.Uuid = req.TermContentUuid
	out, err := updateContentsAs(ctx, s.Service, p, []*pb.AttributeTermContentUpdate{u}, true, termContentToPB(uuid.MustParse(p.keys[1])))
	if err != nil {
		return nil, err
	}
	return &pb.UpdateAttributeTermContentResponse{AttributeTermContent: out[0]}, nil
}

func (s *AttributeTermContentServer) BulkUpdateAttributeTermContents(ctx context.Context, req *pb.BulkUpdateAttributeTermContentsRequest) (*pb.BulkUpdateAttributeTermContentsResponse, error) {
	if err := fields.Bulk(len(req.Items)); err != nil {
		return nil, err
	}
	p, err := s.termParent(ctx, req.AttributeUuid, req.TermUuid)
	if err != nil {
		return nil, err
	}
	out, err := updateContentsAs(ctx, s.Service, p, req.Items, false, termContentToPB(uuid.MustParse(p.keys[1])))
	if err != nil {
		return nil, err
	}
	return &pb.BulkUpdateAttributeTermContentsResponse{Items: out}, nil
}

func (s *AttributeTermContentServer) DeleteAttributeTermContent(ctx context.Context, req *pb.DeleteAttributeTermContentRequest) (*pb.DeleteAttributeTermContentResponse, error) {
	p, err := s.termParent(ctx, req.AttributeUuid, req.TermUuid)
	if err != nil {
		return nil, err
	}
	if err := s.deleteContent(ctx, p, req.TermContentUuid); err != nil {
		return nil, err
	}
	return &pb.DeleteAttributeTermContentResponse{}, nil
}
