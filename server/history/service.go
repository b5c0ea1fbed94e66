package history

import (
	"context"
	"encoding/json"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/jsonpb"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// List is GET /v1/history: the tenant's entries, newest first (createdAt, then uuid, descending:
// the primary key, or history_resource under resourceUuids[eq]). types are the resource types the
// document lists (events.HistoryTypes; the service refuses others).
func List(types []string) *list.Spec {
	return &list.Spec{Table: "history",
		Filters: map[string]list.Field{
			"resourceTypes": {Column: "resource_type", Type: list.Text, Values: types},
			"resourceUuids": {Column: "resource_uuid", Type: list.UUID},
			"parentUuids":   {Column: "parent_uuids", Type: list.UUID, Match: "cardinality(parent_uuids) > 0 AND parent_uuids && @values"},
			"actors":        {Column: "actor_subject", Type: list.Text},
			"createdAt":     {Column: "created_at", Type: list.Time},
		},
		Order:        map[string]string{"createdAt": "created_at"},
		DefaultOrder: []string{"created_at"},
		DefaultDesc:  true,
	}
}

// ProductList is GET /v1/products/{productUuid}/history: List on the view history_rooted, whose
// root_uuid is the top of each entry's path (the first parent, else the resource), scoped to
// root_uuid = the product. The view is two halves (entries of top-level resources by
// history_resource, entries under one by history_root) that PostgreSQL merges in list order.
func ProductList(types []string) *list.Spec {
	s := List(types)
	s.Table, s.NotNull = "history_rooted", []string{"created_at"}
	return s
}

// Service serves the history (API.md "History (who changed what)").
type Service struct {
	pb.UnimplementedHistoryServiceServer
	DB *store.DB
	// Spec is the list of List, Product the one of ProductList; Types the resource types they allow.
	Spec, Product *list.Spec
	Types         []string
}

// ListHistory lists the tenant's history entries.
func (s *Service) ListHistory(ctx context.Context, req *pb.ListHistoryRequest) (*pb.ListHistoryResponse, error) {
	out, page, err := s.list(ctx, s.Spec, req, req.GetResourceTypes().GetEq())
	return &pb.ListHistoryResponse{Items: out, Pagination: page}, err
}

// ListProductHistory lists the entries of one product and everything under it: those whose path
// starts at the product (history_rooted.root_uuid). A deleted product's history stays readable, so an
// unknown product is an empty list, not a 404.
func (s *Service) ListProductHistory(ctx context.Context, req *pb.ListProductHistoryRequest) (*pb.ListProductHistoryResponse, error) {
	id, err := fields.UUID("productUuid", req.ProductUuid)
	if err != nil {
		return nil, err
	}
	out, page, err := s.list(ctx, s.Product, req, req.GetResourceTypes().GetEq(), list.Eq("root_uuid", id))
	return &pb.ListProductHistoryResponse{Items: out, Pagination: page}, err
}

func (s *Service) list(ctx context.Context, spec *list.Spec, req proto.Message, types []string, scope ...list.Cond) ([]*pb.HistoryEntry, *pb.Pagination, error) {
	v := apierr.NewValidator()
	for _, t := range types {
		if !contains(s.Types, t) {
			v.Add("resourceTypes[eq]", "%q is not a resource type of history", t)
		}
	}
	if err := v.Err(); err != nil {
		return nil, nil, err
	}
	rows, page, err := list.Run[db.History](ctx, s.DB.Pool, spec, reqctx.Tenant(ctx), req, scope...)
	if err != nil {
		return nil, nil, err
	}
	out := make([]*pb.HistoryEntry, len(rows))
	for i, r := range rows {
		if out[i], err = ToPB(r); err != nil {
			return nil, nil, err
		}
	}
	return out, page, nil
}

// ToPB is a stored entry as the API shows it.
func ToPB(r db.History) (*pb.HistoryEntry, error) {
	e := &pb.HistoryEntry{Uuid: r.Uuid.String(), CreatedAt: timestamppb.New(r.CreatedAt), ResourceType: r.ResourceType,
		ResourceUuid: r.ResourceUuid.String(), ParentUuids: make([]string, len(r.ParentUuids)), Action: r.Action,
		RequestId: r.RequestID, Actor: &pb.HistoryActor{}}
	for i, p := range r.ParentUuids {
		e.ParentUuids[i] = p.String()
	}
	var a struct {
		Subject    string  `json:"subject"`
		ClientID   *string `json:"clientId"`
		ImportUUID *string `json:"importUuid"`
	}
	if err := json.Unmarshal(r.Actor, &a); err != nil {
		return nil, err
	}
	e.Actor.Subject, e.Actor.ClientId, e.Actor.ImportUuid = a.Subject, a.ClientID, a.ImportUUID
	var changes []struct {
		Field         string
		Before, After json.RawMessage
	}
	if err := json.Unmarshal([]byte(r.Changes), &changes); err != nil {
		return nil, err
	}
	e.Changes = make([]*pb.HistoryChange, len(changes))
	for i, c := range changes {
		hc := &pb.HistoryChange{Field: c.Field}
		var err error
		if hc.Before, err = value(c.Before); err != nil {
			return nil, err
		}
		if hc.After, err = value(c.After); err != nil {
			return nil, err
		}
		e.Changes[i] = hc
	}
	return e, nil
}

// value decodes a stored JSON value with the API's decoder, which keeps a number's literal (a
// decimal stays exactly as the resource showed it); nil when absent.
func value(raw json.RawMessage) (*structpb.Value, error) {
	if raw == nil {
		return nil, nil
	}
	v := &structpb.Value{}
	return v, jsonpb.Marshaler{}.Unmarshal(raw, v)
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
