package catalog

import (
	"context"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/lifecycle"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
)

// AttributeServer implements catalog.v1.AttributeService.
type AttributeServer struct {
	pb.UnimplementedAttributeServiceServer
	*Service
}

var attributeStatuses = []string{"draft", "published", "unpublished", "removed"}

// AttributeList is the list spec of GET /v1/attributes.
var AttributeList = &list.Spec{
	Table:      "attributes",
	Filters:    list.CodeNameFilters(map[string]list.Field{"statuses": {Column: "status", Type: list.Enum, Values: attributeStatuses}}),
	Order:      list.CodeNameOrder(map[string]string{"status": "status"}),
	SoftDelete: &list.SoftDelete{StatusColumn: "status", Removed: "removed", IsRemovedField: "isRemoved", StatusesField: "statuses"},
}

func attributeToPB(a db.Attribute) *pb.Attribute {
	return &pb.Attribute{
		Uuid:        a.Uuid.String(),
		CreatedAt:   timestamppb.New(a.CreatedAt),
		UpdatedAt:   timestamppb.New(a.UpdatedAt),
		RemovedAt:   tsp(a.RemovedAt),
		Status:      pb.AttributeStatus(enumValue(pb.AttributeStatus_value, "ATTRIBUTE_STATUS_", a.Status)),
		Code:        a.Code,
		DisplayName: a.DisplayName,
	}
}

// attributes is the attribute family.
var attributes = &crud.Family[db.Attribute, *pb.Attribute, *pb.AttributeCreate, *pb.AttributeUpdate]{
	Kind: "attribute", Event: "attribute", IDKey: "attributeUuid", Unique: "code",
	ID:   func(a db.Attribute) uuid.UUID { return a.Uuid },
	ToPB: attributeToPB,
	CheckCreate: func(_ apierr.Validator, c *pb.AttributeCreate) string {
		return c.GetCode()
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.AttributeCreate) ([]db.Attribute, error) {
		p := db.InsertAttributesParams{TenantID: t.Tenant, Uuids: ids, Now: t.Now,
			Codes: mapSlice(items, (*pb.AttributeCreate).GetCode), DisplayNames: mapSlice(items, displayNameOrCode[*pb.AttributeCreate])}
		return t.Q.InsertAttributes(ctx, p)
	},
	UpdateID: (*pb.AttributeUpdate).GetUuid,
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.AttributeUpdate) (db.Attribute, error) {
		return t.Q.UpdateAttribute(ctx, db.UpdateAttributeParams{TenantID: t.Tenant, Uuid: id, Code: optString(u, "code"),
			DisplayName: optString(u, "display_name"), Now: t.Now})
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, _ crud.Scope, id uuid.UUID) (db.Attribute, error) {
		return q.GetAttribute(ctx, db.GetAttributeParams{TenantID: tenant, Uuid: id})
	},
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return t.Q.DeleteAttribute(ctx, db.DeleteAttributeParams{TenantID: t.Tenant, Uuid: id})
	},
	Lifecycle: &crud.Lifecycle[db.Attribute]{
		Machine: lifecycle.Machine{Kind: "attribute", Moves: map[string]lifecycle.Move{
			"publish":   {From: []string{"draft", "unpublished"}, To: "published", Event: "published"},
			"unpublish": {From: []string{"published"}, To: "unpublished", Event: "unpublished"},
			"remove":    {From: []string{"draft", "published", "unpublished"}, To: "removed", Event: "removed"},
			"restore":   {From: []string{"removed"}, To: "draft", Event: "restored"},
		}},
		Status: func(a db.Attribute) string { return a.Status },
		Lock: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID) ([]db.Attribute, error) {
			return t.Q.LockAttributes(ctx, db.LockAttributesParams{TenantID: t.Tenant, Uuids: ids})
		},
		Set: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, status string) ([]db.Attribute, error) {
			return t.Q.SetAttributeStatus(ctx, db.SetAttributeStatusParams{TenantID: t.Tenant, Uuids: ids, Status: status, Now: t.Now})
		},
	},
}

// ListAttributes lists attributes with the filters of the spec.
func (s *AttributeServer) ListAttributes(ctx context.Context, req *pb.ListAttributesRequest) (*pb.ListAttributesResponse, error) {
	tenant := reqctx.Tenant(ctx)
	rows, page, err := list.Run[db.Attribute](ctx, s.DB, AttributeList, tenant, req)
	if err != nil {
		return nil, err
	}
	out := mapSlice(rows, attributeToPB)
	if err := s.hydrateAttributes(ctx, tenant, out, mapSlice(rows, attributes.ID), req.Include, req.Expand); err != nil {
		return nil, err
	}
	return &pb.ListAttributesResponse{Items: out, Pagination: page}, nil
}

// hydrateAttributes fills contentUuids / contents when asked for.
func (s *AttributeServer) hydrateAttributes(ctx context.Context, tenant string, out []*pb.Attribute, ids []uuid.UUID, inc, exp *pb.AttributeInclude) error {
	return hydrateContents(ctx, s.DB.Q, tenant, kindAttribute, out, ids, inc.GetContents(), exp.GetContents(),
		func(a *pb.Attribute, u *pb.UuidList) { a.ContentUuids = u },
		func(a *pb.Attribute, cs []db.Content) {
			a.Contents = &pb.AttributeContentList{Items: mapSlice(cs, attributeContentToPB)}
		})
}

// GetAttribute returns one attribute.
func (s *AttributeServer) GetAttribute(ctx context.Context, req *pb.GetAttributeRequest) (*pb.GetAttributeResponse, error) {
	a, err := attributes.Get(ctx, s.DB, crud.Scope{}, req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	out := []*pb.Attribute{attributeToPB(a)}
	if err := s.hydrateAttributes(ctx, a.TenantID, out, []uuid.UUID{a.Uuid}, req.Include, req.Expand); err != nil {
		return nil, err
	}
	return &pb.GetAttributeResponse{Attribute: out[0]}, nil
}

// CreateAttribute creates one attribute in status draft.
func (s *AttributeServer) CreateAttribute(ctx context.Context, req *pb.CreateAttributeRequest) (*pb.CreateAttributeResponse, error) {
	m, err := attributes.CreateOne(ctx, s.DB, crud.Scope{}, req.Attribute)
	return &pb.CreateAttributeResponse{Attribute: m}, err
}

// BulkCreateAttributes creates 1 to 100 attributes atomically.
func (s *AttributeServer) BulkCreateAttributes(ctx context.Context, req *pb.BulkCreateAttributesRequest) (*pb.BulkCreateAttributesResponse, error) {
	out, err := attributes.CreateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkCreateAttributesResponse{Items: out}, err
}

// UpdateAttribute changes the fields given of one attribute.
func (s *AttributeServer) UpdateAttribute(ctx context.Context, req *pb.UpdateAttributeRequest) (*pb.UpdateAttributeResponse, error) {
	m, err := attributes.UpdateAt(ctx, s.DB, crud.Scope{}, req.AttributeUuid, req.Attribute)
	return &pb.UpdateAttributeResponse{Attribute: m}, err
}

// BulkUpdateAttributes changes 1 to 100 attributes atomically.
func (s *AttributeServer) BulkUpdateAttributes(ctx context.Context, req *pb.BulkUpdateAttributesRequest) (*pb.BulkUpdateAttributesResponse, error) {
	out, err := attributes.UpdateMany(ctx, s.DB, crud.Scope{}, req.Items)
	return &pb.BulkUpdateAttributesResponse{Items: out}, err
}

// DeleteAttribute deletes an attribute permanently, with its contents and terms.
func (s *AttributeServer) DeleteAttribute(ctx context.Context, req *pb.DeleteAttributeRequest) (*pb.DeleteAttributeResponse, error) {
	return &pb.DeleteAttributeResponse{}, attributes.Delete(ctx, s.DB, crud.Scope{}, req.AttributeUuid)
}

// TransitionAttribute moves one attribute through its lifecycle.
func (s *AttributeServer) TransitionAttribute(ctx context.Context, req *pb.TransitionAttributeRequest) (*pb.TransitionAttributeResponse, error) {
	m, err := attributes.TransitionAt(ctx, s.DB, crud.Scope{}, req.AttributeUuid, req.Transition)
	return &pb.TransitionAttributeResponse{Attribute: m}, err
}

// BulkTransitionAttributes moves 1 to 100 attributes atomically.
func (s *AttributeServer) BulkTransitionAttributes(ctx context.Context, req *pb.BulkTransitionAttributesRequest) (*pb.BulkTransitionAttributesResponse, error) {
	out, err := attributes.TransitionMany(ctx, s.DB, crud.Scope{}, req.Transition, req.Uuids)
	return &pb.BulkTransitionAttributesResponse{Items: out}, err
}
