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
	"github.com/catalogd/catalogd/server/lifecycle"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// AttributeServer implements catalog.v1.AttributeService.
type AttributeServer struct {
	pb.UnimplementedAttributeServiceServer
	*Service
}

var attributeStatuses = []string{"draft", "published", "unpublished", "removed"}

var attributeLifecycle = lifecycle.Machine{Kind: "attribute", Moves: map[string]lifecycle.Move{
	"publish":   {From: []string{"draft", "unpublished"}, To: "published", Event: "published"},
	"unpublish": {From: []string{"published"}, To: "unpublished", Event: "unpublished"},
	"remove":    {From: []string{"draft", "published", "unpublished"}, To: "removed", Event: "removed"},
	"restore":   {From: []string{"removed"}, To: "draft", Event: "restored"},
}}

// AttributeList is the list spec of GET /v1/attributes.
var AttributeList = &list.Spec{
	Table: "attributes",
	Filters: map[string]list.Field{
		"uuids":        {Column: "uuid", Type: list.UUID},
		"codes":        {Column: "code", Type: list.Text},
		"code":         {Column: "code", Type: list.Text},
		"displayNames": {Column: "display_name", Type: list.Text},
		"displayName":  {Column: "display_name", Type: list.Text},
		"statuses":     {Column: "status", Type: list.Enum, Values: attributeStatuses},
		"createdAt":    {Column: "created_at", Type: list.Time},
		"updatedAt":    {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"code": "code", "displayName": "display_name", "status": "status",
		"createdAt": "created_at", "updatedAt": "updated_at"},
	SoftDelete: &list.SoftDelete{StatusColumn: "status", Removed: "removed", IsRemovedField: "isRemoved", StatusesField: "statuses"},
}

func attributeEvent(verb string, id uuid.UUID) events.Event {
	return events.New("attribute."+verb, "attributeUuid", id.String())
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

// ListAttributes lists attributes with the filters of the spec.
func (s *AttributeServer) ListAttributes(ctx context.Context, req *pb.ListAttributesRequest) (*pb.ListAttributesResponse, error) {
	tenant := reqctx.Tenant(ctx)
	rows, page, err := list.Run[db.Attribute](ctx, s.DB.Pool, AttributeList, tenant, req)
	if err != nil {
		return nil, err
	}
	out := make([]*pb.Attribute, len(rows))
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		out[i] = attributeToPB(r)
		ids[i] = r.Uuid
	}
	if err := s.hydrateAttributes(ctx, tenant, out, ids, req.Include, req.Expand); err != nil {
		return nil, err
	}
	return &pb.ListAttributesResponse{Items: out, Pagination: page}, nil
}

// hydrateAttributes fills contentUuids / contents when asked for.
func (s *AttributeServer) hydrateAttributes(ctx context.Context, tenant string, out []*pb.Attribute, ids []uuid.UUID, inc, exp *pb.AttributeInclude) error {
	if !inc.GetContents() && !exp.GetContents() {
		return nil
	}
	byParent, err := loadContents(ctx, s.DB.Q, tenant, kindAttribute, ids)
	if err != nil {
		return err
	}
	for i, a := range out {
		cs := byParent[ids[i]]
		if inc.GetContents() {
			a.ContentUuids = uuidList(cs)
		}
		if exp.GetContents() {
			a.Contents = &pb.AttributeContentList{Items: mapSlice(cs, attributeContentToPB)}
		}
	}
	return nil
}

// GetAttribute returns one attribute.
func (s *AttributeServer) GetAttribute(ctx context.Context, req *pb.GetAttributeRequest) (*pb.GetAttributeResponse, error) {
	tenant := reqctx.Tenant(ctx)
	id, err := fields.UUID("attributeUuid", req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	a, err := s.DB.Q.GetAttribute(ctx, db.GetAttributeParams{TenantID: tenant, Uuid: id})
	if store.IsNoRows(err) {
		return nil, apierr.NotFoundf("attribute", req.AttributeUuid)
	} else if err != nil {
		return nil, err
	}
	out := []*pb.Attribute{attributeToPB(a)}
	if err := s.hydrateAttributes(ctx, tenant, out, []uuid.UUID{id}, req.Include, req.Expand); err != nil {
		return nil, err
	}
	return &pb.GetAttributeResponse{Attribute: out[0]}, nil
}

// CreateAttribute creates one attribute in status draft.
func (s *AttributeServer) CreateAttribute(ctx context.Context, req *pb.CreateAttributeRequest) (*pb.CreateAttributeResponse, error) {
	out, err := s.createAttributes(ctx, []*pb.AttributeCreate{req.Attribute}, true)
	if err != nil {
		return nil, err
	}
	return &pb.CreateAttributeResponse{Attribute: out[0]}, nil
}

// BulkCreateAttributes creates 1 to 100 attributes atomically.
func (s *AttributeServer) BulkCreateAttributes(ctx context.Context, req *pb.BulkCreateAttributesRequest) (*pb.BulkCreateAttributesResponse, error) {
	if err := fields.Bulk(len(req.Items)); err != nil {
		return nil, err
	}
	out, err := s.createAttributes(ctx, req.Items, false)
	if err != nil {
		return nil, err
	}
	return &pb.BulkCreateAttributesResponse{Items: out}, nil
}

func (s *AttributeServer) createAttributes(ctx context.Context, items []*pb.AttributeCreate, single bool) ([]*pb.Attribute, error) {
	tenant := reqctx.Tenant(ctx)
	v := apierr.NewValidator()
	p := db.InsertAttributesParams{TenantID: tenant, Uuids: make([]uuid.UUID, len(items)),
		Codes: make([]string, len(items)), DisplayNames: make([]string, len(items))}
	for i, it := range items {
		iv := v.Item(item(i, single))
		if it == nil {
			it = &pb.AttributeCreate{}
		}
		fields.Text(iv, "code", it.Code, 1, 100)
		fields.OptText(iv, "displayName", it.DisplayName, 1, 100)
		p.Uuids[i] = uuid.Must(uuid.NewV7())
		p.Codes[i] = it.Code
		p.DisplayNames[i] = it.Code
		if it.DisplayName != nil {
			p.DisplayNames[i] = *it.DisplayName
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	p.Now = store.Now()
	var rows []db.Attribute
	err := s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		var err error
		if rows, err = q.InsertAttributes(ctx, p); err != nil {
			return err
		}
		if err := conflicts(p.Uuids, idSet(rows, func(a db.Attribute) uuid.UUID { return a.Uuid }), single, "code", p.Codes, "attribute code"); err != nil {
			return err
		}
		evs := make([]events.Event, len(p.Uuids))
		for i, id := range p.Uuids {
			evs[i] = attributeEvent("created", id)
		}
		return events.Record(ctx, q, tenant, p.Now, evs)
	})
	if err != nil {
		return nil, err
	}
	return inOrder(p.Uuids, rows, func(a db.Attribute) uuid.UUID { return a.Uuid }, attributeToPB), nil
}

// UpdateAttribute changes the fields given of one attribute.
func (s *AttributeServer) UpdateAttribute(ctx context.Context, req *pb.UpdateAttributeRequest) (*pb.UpdateAttributeResponse, error) {
	if _, err := fields.UUID("attributeUuid", req.AttributeUuid); err != nil {
		return nil, err
	}
	u := req.Attribute
	if u == nil {
		u = &pb.AttributeUpdate{}
	}
	u.Uuid = req.AttributeUuid
	out, err := s.updateAttributes(ctx, []*pb.AttributeUpdate{u}, true)
	if err != nil {
		return nil, err
	}
	return &pb.UpdateAttributeResponse{Attribute: out[0]}, nil
}

// BulkUpdateAttributes changes 1 to 100 attributes atomically.
func (s *AttributeServer) BulkUpdateAttributes(ctx context.Context, req *pb.BulkUpdateAttributesRequest) (*pb.BulkUpdateAttributesResponse, error) {
	if err := fields.Bulk(len(req.Items)); err != nil {
		return nil, err
	}
	out, err := s.updateAttributes(ctx, req.Items, false)
	if err != nil {
		return nil, err
	}
	return &pb.BulkUpdateAttributesResponse{Items: out}, nil
}

func (s *AttributeServer) updateAttributes(ctx context.Context, items []*pb.AttributeUpdate, single bool) ([]*pb.Attribute, error) {
	tenant := reqctx.Tenant(ctx)
	v := apierr.NewValidator()
	ids := make([]uuid.UUID, len(items))
	for i, it := range items {
		iv := v.Item(item(i, single))
		if it == nil {
			it = &pb.AttributeUpdate{}
			items[i] = it
		}
		fields.ApplyMask(iv, it)
		ids[i] = fields.CheckUUID(iv, "uuid", it.Uuid)
		fields.OptText(iv, "code", it.Code, 1, 100)
		fields.OptText(iv, "displayName", it.DisplayName, 1, 100)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	now := store.Now()
	out := make([]*pb.Attribute, len(items))
	err := s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		evs := make([]events.Event, 0, len(items))
		for i, it := range items {
			a, err := q.UpdateAttribute(ctx, db.UpdateAttributeParams{TenantID: tenant, Uuid: ids[i], Code: it.Code, DisplayName: it.DisplayName, Now: now})
			if store.IsNoRows(err) {
				return notFoundField(fieldName("uuid", i, single), "attribute", it.Uuid)
			} else if err != nil {
				return mapWriteErr(err, "code", i, single)
			}
			out[i] = attributeToPB(a)
			evs = append(evs, attributeEvent("updated", a.Uuid))
		}
		return events.Record(ctx, q, tenant, now, evs)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// DeleteAttribute deletes an attribute permanently, with its contents and terms.
func (s *AttributeServer) DeleteAttribute(ctx context.Context, req *pb.DeleteAttributeRequest) (*pb.DeleteAttributeResponse, error) {
	tenant := reqctx.Tenant(ctx)
	id, err := fields.UUID("attributeUuid", req.AttributeUuid)
	if err != nil {
		return nil, err
	}
	err = s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		n, err := q.DeleteAttribute(ctx, db.DeleteAttributeParams{TenantID: tenant, Uuid: id})
		if err != nil {
			return inUse(err, "attribute", req.AttributeUuid)
		}
		if n == 0 {
			return apierr.NotFoundf("attribute", req.AttributeUuid)
		}
		return events.Record(ctx, q, tenant, store.Now(), []events.Event{attributeEvent("deleted", id)})
	})
	if err != nil {
		return nil, err
	}
	return &pb.DeleteAttributeResponse{}, nil
}

// TransitionAttribute moves one attribute through its lifecycle.
func (s *AttributeServer) TransitionAttribute(ctx context.Context, req *pb.TransitionAttributeRequest) (*pb.TransitionAttributeResponse, error) {
	if _, err := fields.UUID("attributeUuid", req.AttributeUuid); err != nil {
		return nil, err
	}
	out, err := s.transitionAttributes(ctx, enumName(req.Transition), []string{req.AttributeUuid}, true)
	if err != nil {
		return nil, err
	}
	return &pb.TransitionAttributeResponse{Attribute: out[0]}, nil
}

// BulkTransitionAttributes moves 1 to 100 attributes atomically.
func (s *AttributeServer) BulkTransitionAttributes(ctx context.Context, req *pb.BulkTransitionAttributesRequest) (*pb.BulkTransitionAttributesResponse, error) {
	out, err := s.transitionAttributes(ctx, enumName(req.Transition), req.Uuids, false)
	if err != nil {
		return nil, err
	}
	return &pb.BulkTransitionAttributesResponse{Items: out}, nil
}

func (s *AttributeServer) transitionAttributes(ctx context.Context, transition string, raw []string, single bool) ([]*pb.Attribute, error) {
	tenant := reqctx.Tenant(ctx)
	ids, err := transitionInput(attributeLifecycle, transition, raw, single)
	if err != nil {
		return nil, err
	}
	now := store.Now()
	var out []*pb.Attribute
	err = s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		cur, err := q.LockAttributes(ctx, db.LockAttributesParams{TenantID: tenant, Uuids: ids})
		if err != nil {
			return err
		}
		plan, err := planTransition(attributeLifecycle, transition, ids, raw, single, cur,
			func(a db.Attribute) uuid.UUID { return a.Uuid }, func(a db.Attribute) string { return a.Status })
		if err != nil {
			return err
		}
		changed := cur
		if len(plan.changed) > 0 {
			if changed, err = q.SetAttributeStatus(ctx, db.SetAttributeStatusParams{TenantID: tenant, Uuids: plan.changed, Status: plan.to, Now: now}); err != nil {
				return err
			}
			changed = append(changed, cur...) // later entries lose to the updated rows in inOrder
		}
		out = inOrder(ids, changed, func(a db.Attribute) uuid.UUID { return a.Uuid }, attributeToPB)
		evs := make([]events.Event, len(plan.changed))
		for i, id := range plan.changed {
			evs[i] = attributeEvent(plan.event, id)
		}
		return events.Record(ctx, q, tenant, now, evs)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
