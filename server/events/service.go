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
// events of transactions below the log's frontier (visibleBelow): no event can later appear before
// a position a reader has passed, so a cursor followed at the tail misses nothing. An event shows
// once every transaction of this database that began before its own has ended (usually
// milliseconds; at most the request deadline of a write). createdAt orders by the same key; the
// index (tenant_id, tx, uuid) serves offset and cursor pages alike.
var EventList = &list.Spec{Table: "events",
	Filters: map[string]list.Field{
		"uuids": {Column: "uuid", Type: list.UUID},
		// The values are the catalog's, so that the document lists them (ListEvents refuses others).
		"types":     {Column: "type", Type: list.Text, Values: Names()},
		"createdAt": {Column: "created_at", Type: list.Time},
	},
	Order:        map[string]string{"createdAt": "tx"},
	DefaultOrder: []string{"tx"},
	Where:        "tx < " + visibleBelow,
}

// visibleBelow is the log's frontier: the oldest transaction the reading snapshot sees in progress
// that may write to this database, else the snapshot's xmax. Every transaction below it has ended
// (and the snapshot sees what it committed) or runs in another database of the cluster, where it
// cannot write this database's events. The snapshot's own xmin is the same bound counted over the
// whole cluster, so one long transaction in another database (another catalogd, a report, a test
// package sharing the server) held every tenant's new events out of the log. A transaction is known
// to be another database's by its backend in pg_stat_activity; one whose backend has ended or is not
// shown to this role (no pg_read_all_stats) counts as this database's, which only delays.
const visibleBelow = `(SELECT COALESCE(
	(SELECT min(x::text::bigint) FROM pg_snapshot_xip(pg_current_snapshot()) x
	 WHERE NOT EXISTS (SELECT FROM pg_stat_activity a WHERE a.backend_xid = xid(x)
	   AND a.datid IS DISTINCT FROM (SELECT oid FROM pg_database WHERE datname = current_database()))),
	pg_snapshot_xmax(pg_current_snapshot())::text::bigint))`

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
	rows, page, err := list.Run[db.Event](ctx, s.DB, EventList, reqctx.Tenant(ctx), req)
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
