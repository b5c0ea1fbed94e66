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

// EventList is GET /v1/events: the tenant's outbox in commit order. Each event records the
// transaction that wrote it (tx, migration 0021); the log is ordered by (tx, uuid) and shows only
// events of transactions older than the reading snapshot's xmin, i.e. of transactions that have all
// ended: no event can later appear before a position a reader has passed, so a cursor followed at
// the tail misses nothing. An event shows once every transaction that began before its own has
// ended (usually milliseconds; at most the request deadline of a write). createdAt orders by the
// same key; the index (tenant_id, tx, uuid) serves offset and cursor pages alike.
var EventList = &list.Spec{Table: "events",
	Filters: map[string]list.Field{
		"uuids": {Column: "uuid", Type: list.UUID},
		// The values are the catalog's, so that the document lists them (ListEvents refuses others).
		"types":     {Column: "type", Type: list.Text, Values: Names()},
		"createdAt": {Column: "created_at", Type: list.Time},
	},
	Order:        map[string]string{"createdAt": "tx"},
	DefaultOrder: []string{"tx"},
	Where:        "tx < (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint)",
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
