package events

import (
	"context"
	"encoding/json"

	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// EventList is GET /v1/events: the tenant's outbox, in the order of the events' uuids (version 7:
// the order they were recorded in), which the primary key (tenant_id, uuid) serves, offset and
// cursor pages alike; createdAt orders by the same key.
var EventList = &list.Spec{Table: "events",
	Filters: map[string]list.Field{
		"uuids":     {Column: "uuid", Type: list.UUID},
		"types":     {Column: "type", Type: list.Text},
		"createdAt": {Column: "created_at", Type: list.Time},
	},
	Order:        map[string]string{"createdAt": "uuid"},
	DefaultOrder: []string{"uuid"},
}

// Service serves the event log (API.md "Finding products and keeping in sync").
type Service struct {
	pb.UnimplementedEventServiceServer
	DB *store.DB
}

// ListEvents lists the tenant's recorded events, oldest first; what retention pruned is gone.
func (s *Service) ListEvents(ctx context.Context, req *pb.ListEventsRequest) (*pb.ListEventsResponse, error) {
	v := apierr.NewValidator()
	for _, name := range req.GetTypes().GetEq() {
		if !Known(name) {
			v.Add("types[eq]", "%q is not an event type (GET /v1/webhook-event-types lists them)", name)
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	rows, page, err := list.Run[db.Event](ctx, s.DB.Pool, EventList, reqctx.Tenant(ctx), req)
	if err != nil {
		return nil, err
	}
	out := make([]*pb.Event, len(rows))
	for i, r := range rows {
		e := &pb.Event{Uuid: r.Uuid.String(), CreatedAt: timestamppb.New(r.CreatedAt), Type: r.Type}
		if err := json.Unmarshal(r.Payload, &e.Payload); err != nil {
			return nil, err
		}
		out[i] = e
	}
	return &pb.ListEventsResponse{Items: out, Pagination: page}, nil
}
