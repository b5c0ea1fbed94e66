package webhooks

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/etag"
	"github.com/catalogd/catalogd/server/fields"
	"github.com/catalogd/catalogd/server/history"
	"github.com/catalogd/catalogd/server/lifecycle"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
)

// Default and bounds of requestTimeoutMs (DESIGN.md).
const (
	DefaultTimeoutMs = 15000
	MinTimeoutMs     = 1000
	MaxTimeoutMs     = 30000
)

// MaxSubscriptionsPerTenant is the number of webhook subscriptions a tenant may have (DESIGN.md
// "Limits and fairness"); creating one more is 409 LIMIT_EXCEEDED with meta.limit.
const MaxSubscriptionsPerTenant = 50

// Service implements the webhook subscription and event type services.
type Service struct {
	pb.UnimplementedWebhookSubscriptionServiceServer
	DB    *store.DB
	Box   *Box
	Guard Guard
}

// EventTypeService implements catalog.v1.WebhookEventTypeService.
type EventTypeService struct {
	pb.UnimplementedWebhookEventTypeServiceServer
	DB *store.DB
}

var subscriptionLifecycle = lifecycle.Machine{Kind: "webhook subscription", Moves: map[string]lifecycle.Move{
	"activate":   {From: []string{"inactive", "suspended"}, To: "active", Event: "activated"},
	"deactivate": {From: []string{"active", "suspended"}, To: "inactive", Event: "deactivated"},
}}

// List specs of the webhook collections.
var (
	EventTypeList = &list.Spec{Table: "webhook_event_types", Global: true,
		Filters: map[string]list.Field{
			"uuids":        {Column: "uuid", Type: list.UUID},
			"names":        {Column: "name", Type: list.Text},
			"name":         {Column: "name", Type: list.Text},
			"isDeprecated": {Column: "(deprecated_at IS NOT NULL)", Type: list.Bool},
		},
		Order: map[string]string{"name": "name", "createdAt": "created_at"}}
	SubscriptionList = &list.Spec{Table: "webhook_subscriptions",
		Filters: map[string]list.Field{
			"uuids":       {Column: "uuid", Type: list.UUID},
			"statuses":    {Column: "status", Type: list.Enum, Values: []string{"active", "inactive", "suspended"}},
			"displayName": {Column: "display_name", Type: list.Text},
			"targetUrl":   {Column: "target_url", Type: list.Text},
			"createdAt":   {Column: "created_at", Type: list.Time},
			"updatedAt":   {Column: "updated_at", Type: list.Time},
		},
		Order: map[string]string{"displayName": "display_name", "status": "status", "createdAt": "created_at", "updatedAt": "updated_at"}}
	SubscriptionEventTypeList = &list.Spec{Table: "webhook_subscription_event_types",
		Filters: map[string]list.Field{"names": {Column: "name", Type: list.Text}},
		Order:   map[string]string{"name": "name", "createdAt": "created_at"}}
	DeliveryList = &list.Spec{Table: "webhook_deliveries",
		Filters: map[string]list.Field{
			"uuids":      {Column: "uuid", Type: list.UUID},
			"statuses":   {Column: "status", Type: list.Enum, Values: []string{"pending", "delivered", "failed"}},
			"eventTypes": {Column: "event_type", Type: list.Text},
			"createdAt":  {Column: "created_at", Type: list.Time},
			"updatedAt":  {Column: "updated_at", Type: list.Time},
		},
		Order: map[string]string{"createdAt": "created_at", "updatedAt": "updated_at", "scheduledAt": "scheduled_at", "status": "status"}}
	AttemptList = &list.Spec{Table: "webhook_delivery_attempts", Order: map[string]string{"createdAt": "created_at"}}
)

func eventTypeToPB(t db.WebhookEventType) *pb.WebhookEventType {
	out := &pb.WebhookEventType{Uuid: t.Uuid.String(), CreatedAt: timestamppb.New(t.CreatedAt), UpdatedAt: timestamppb.New(t.UpdatedAt),
		Name: t.Name, Description: t.Description}
	if t.DeprecatedAt != nil {
		out.DeprecatedAt = timestamppb.New(*t.DeprecatedAt)
	}
	if t.SunsetAt != nil {
		out.SunsetAt = timestamppb.New(*t.SunsetAt)
	}
	return out
}

func subscriptionToPB(s db.WebhookSubscription) *pb.WebhookSubscription {
	out := &pb.WebhookSubscription{Uuid: s.Uuid.String(), CreatedAt: timestamppb.New(s.CreatedAt), UpdatedAt: timestamppb.New(s.UpdatedAt),
		Status:      pb.WebhookSubscriptionStatus(pb.WebhookSubscriptionStatus_value["WEBHOOK_SUBSCRIPTION_STATUS_"+strings.ToUpper(s.Status)]),
		DisplayName: s.DisplayName, TargetUrl: s.TargetUrl, RequestTimeoutMs: s.RequestTimeoutMs, ConsecutiveFailures: s.ConsecutiveFailures}
	if s.SuspendedAt != nil {
		out.SuspendedAt = timestamppb.New(*s.SuspendedAt)
	}
	return out
}

func deliveryToPB(d db.WebhookDelivery) *pb.WebhookDelivery {
	out := &pb.WebhookDelivery{Uuid: d.Uuid.String(), CreatedAt: timestamppb.New(d.CreatedAt), UpdatedAt: timestamppb.New(d.UpdatedAt),
		SubscriptionUuid: d.SubscriptionUuid.String(), EventUuid: d.EventUuid.String(), EventType: d.EventType,
		Status:   pb.WebhookDeliveryStatus(pb.WebhookDeliveryStatus_value["WEBHOOK_DELIVERY_STATUS_"+strings.ToUpper(d.Status)]),
		Attempts: d.Attempts, LastStatusCode: d.LastStatusCode}
	p := &structpb.Struct{}
	if protojson.Unmarshal(d.Payload, p) == nil {
		out.Payload = p
	}
	if d.ScheduledAt != nil && d.Status == "pending" {
		out.ScheduledAt = timestamppb.New(*d.ScheduledAt)
	}
	return out
}

func attemptToPB(a db.WebhookDeliveryAttempt) *pb.WebhookDeliveryAttempt {
	return &pb.WebhookDeliveryAttempt{Uuid: a.Uuid.String(), CreatedAt: timestamppb.New(a.CreatedAt), DeliveryUuid: a.DeliveryUuid.String(),
		StatusCode: a.StatusCode, ResponseBody: a.ResponseBody, ResponseTimeMs: a.ResponseTimeMs, Error: a.Error}
}

func mapSlice[T, P any](xs []T, f func(T) P) []P {
	out := make([]P, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// ListWebhookEventTypes lists the platform's event catalog.
func (s *EventTypeService) ListWebhookEventTypes(ctx context.Context, req *pb.ListWebhookEventTypesRequest) (*pb.ListWebhookEventTypesResponse, error) {
	rows, page, err := list.Run[db.WebhookEventType](ctx, s.DB, EventTypeList, "", req)
	if err != nil {
		return nil, err
	}
	return &pb.ListWebhookEventTypesResponse{Items: mapSlice(rows, eventTypeToPB), Pagination: page}, nil
}

// subscription resolves the {uuid} path parameter to a subscription of the caller's tenant.
func (s *Service) subscription(ctx context.Context, raw string) (db.WebhookSubscription, error) {
	id, err := fields.UUID("uuid", raw)
	if err != nil {
		return db.WebhookSubscription{}, err
	}
	sub, err := s.DB.Q.GetWebhookSubscription(ctx, db.GetWebhookSubscriptionParams{TenantID: reqctx.Tenant(ctx), Uuid: id})
	if store.IsNoRows(err) {
		return sub, apierr.NotFoundf("webhook subscription", raw)
	}
	return sub, err
}

func (s *Service) ListWebhookSubscriptions(ctx context.Context, req *pb.ListWebhookSubscriptionsRequest) (*pb.ListWebhookSubscriptionsResponse, error) {
	rows, page, err := list.Run[db.WebhookSubscription](ctx, s.DB, SubscriptionList, reqctx.Tenant(ctx), req)
	if err != nil {
		return nil, err
	}
	return &pb.ListWebhookSubscriptionsResponse{Items: mapSlice(rows, subscriptionToPB), Pagination: page}, nil
}

// Checks are the service's own checks of its bodies beyond their request rules (fields.Checks):
// the SSRF guard of a targetUrl.
func (s *Service) Checks() fields.Checks {
	return fields.Checks{
		(&pb.WebhookSubscriptionCreate{}).ProtoReflect().Descriptor().FullName(): func(v apierr.Validator, m proto.Message) {
			s.checkTarget(v, m.(*pb.WebhookSubscriptionCreate).GetTargetUrl())
		},
		(&pb.WebhookSubscriptionUpdate{}).ProtoReflect().Descriptor().FullName(): func(v apierr.Validator, m proto.Message) {
			if u := m.(*pb.WebhookSubscriptionUpdate); u.TargetUrl != nil {
				s.checkTarget(v, *u.TargetUrl)
			}
		},
	}
}

func (s *Service) checkTarget(v apierr.Validator, url string) {
	if err := s.Guard.CheckURL(url); err != nil {
		v.Add("targetUrl", "%s", err.Error())
	}
}

func (s *Service) CreateWebhookSubscription(ctx context.Context, req *pb.CreateWebhookSubscriptionRequest) (*pb.CreateWebhookSubscriptionResponse, error) {
	in := req.WebhookSubscription
	if in == nil {
		in = &pb.WebhookSubscriptionCreate{}
	}
	// displayName, targetUrl (given, 1 to 2048 characters, a URI) and requestTimeoutMs (MinTimeoutMs
	// to MaxTimeoutMs) are request rules; the target must also pass the SSRF guard.
	v := apierr.NewValidator()
	s.checkTarget(v, in.TargetUrl)
	if err := v.Err(); err != nil {
		return nil, err
	}
	timeout := int32(DefaultTimeoutMs)
	if in.RequestTimeoutMs != nil {
		timeout = *in.RequestTimeoutMs
	}
	secret, sealed, err := s.newSecret()
	if err != nil {
		return nil, err
	}
	tenant := reqctx.Tenant(ctx)
	var sub db.WebhookSubscription
	err = s.DB.Tx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		// The tenant's creates take turns (a transaction lock), so the count cannot be raced past the limit.
		if err := q.LockTenantSubscriptions(ctx, tenant); err != nil {
			return err
		}
		n, err := q.CountWebhookSubscriptions(ctx, tenant)
		if err != nil {
			return err
		}
		if n >= MaxSubscriptionsPerTenant {
			return apierr.New(apierr.LimitExceeded, "a tenant has at most %d webhook subscriptions; delete one first", MaxSubscriptionsPerTenant).
				WithMeta("limit", MaxSubscriptionsPerTenant)
		}
		sub, err = q.InsertWebhookSubscription(ctx, db.InsertWebhookSubscriptionParams{TenantID: tenant,
			Uuid: uuid.Must(uuid.NewV7()), DisplayName: in.DisplayName, TargetUrl: in.TargetUrl, RequestTimeoutMs: timeout,
			SecretSealed: sealed, Now: store.Now()})
		if err != nil {
			return err
		}
		_, err = recordSubscription(ctx, q, "created", nil, &sub)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := subscriptionToPB(sub)
	out.Etag = etag.Of(out) // the subscription's tag, as its reads give it: the one-time secret is no part of it
	out.Secret = &secret
	return &pb.CreateWebhookSubscriptionResponse{WebhookSubscription: out}, nil
}

func (s *Service) newSecret() (string, []byte, error) {
	secret, err := NewSecret()
	if err != nil {
		return "", nil, err
	}
	sealed, err := s.Box.Seal(secret)
	return secret, sealed, err
}

func (s *Service) GetWebhookSubscription(ctx context.Context, req *pb.GetWebhookSubscriptionRequest) (*pb.GetWebhookSubscriptionResponse, error) {
	sub, err := s.subscription(ctx, req.Uuid)
	if err != nil {
		return nil, err
	}
	return &pb.GetWebhookSubscriptionResponse{WebhookSubscription: subscriptionToPB(sub)}, nil
}

func (s *Service) UpdateWebhookSubscription(ctx context.Context, req *pb.UpdateWebhookSubscriptionRequest) (*pb.UpdateWebhookSubscriptionResponse, error) {
	id, err := fields.UUID("uuid", req.Uuid)
	if err != nil {
		return nil, err
	}
	in := req.WebhookSubscription
	if in == nil {
		in = &pb.WebhookSubscriptionUpdate{}
	}
	v := apierr.NewValidator()
	fields.ApplyMask(v, in)
	if in.TargetUrl != nil {
		s.checkTarget(v, *in.TargetUrl)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var sub db.WebhookSubscription
	err = s.DB.Tx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		old, err := lockSubscription(ctx, q, id, req.Uuid)
		if err != nil {
			return err
		}
		sub, err = q.UpdateWebhookSubscription(ctx, db.UpdateWebhookSubscriptionParams{TenantID: reqctx.Tenant(ctx), Uuid: id,
			DisplayName: in.DisplayName, TargetUrl: in.TargetUrl, RequestTimeoutMs: in.RequestTimeoutMs, Now: store.Now()})
		if err != nil {
			return err
		}
		changed, err := recordSubscription(ctx, q, "updated", &old, &sub)
		if err == nil && !changed {
			sub = old
			return errUnchanged // a write that changes nothing changes nothing: no new updatedAt
		}
		return err
	})
	if errors.Is(err, errUnchanged) {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	return &pb.UpdateWebhookSubscriptionResponse{WebhookSubscription: subscriptionToPB(sub)}, nil
}

func (s *Service) DeleteWebhookSubscription(ctx context.Context, req *pb.DeleteWebhookSubscriptionRequest) (*pb.DeleteWebhookSubscriptionResponse, error) {
	id, err := fields.UUID("uuid", req.Uuid)
	if err != nil {
		return nil, err
	}
	err = s.DB.Tx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		old, err := lockSubscription(ctx, q, id, req.Uuid)
		if err != nil {
			return err
		}
		if _, err := q.DeleteWebhookSubscription(ctx, db.DeleteWebhookSubscriptionParams{TenantID: reqctx.Tenant(ctx), Uuid: id}); err != nil {
			return err
		}
		_, err = recordSubscription(ctx, q, "deleted", &old, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &pb.DeleteWebhookSubscriptionResponse{}, nil
}

func (s *Service) TransitionWebhookSubscription(ctx context.Context, req *pb.TransitionWebhookSubscriptionRequest) (*pb.TransitionWebhookSubscriptionResponse, error) {
	id, err := fields.UUID("uuid", req.Uuid)
	if err != nil {
		return nil, err
	}
	t := strings.ToLower(strings.TrimPrefix(req.Transition.String(), "WEBHOOK_SUBSCRIPTION_TRANSITION_")) // given: a request rule
	tenant := reqctx.Tenant(ctx)
	var out db.WebhookSubscription
	err = s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		sub, err := q.LockWebhookSubscription(ctx, db.LockWebhookSubscriptionParams{TenantID: tenant, Uuid: id})
		if store.IsNoRows(err) {
			return apierr.NotFoundf("webhook subscription", req.Uuid)
		} else if err != nil {
			return err
		}
		if err := etag.Check(ctx, "webhook subscription", req.Uuid, subscriptionToPB(sub)); err != nil {
			return err
		}
		res, err := subscriptionLifecycle.Apply(sub.Status, t)
		if err != nil {
			return err
		}
		out = sub
		if !res.Changed {
			return nil
		}
		if err := setStatus(ctx, q, &out, res.To); err != nil {
			return err
		}
		_, err = recordSubscription(ctx, q, res.Event, &sub, &out)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &pb.TransitionWebhookSubscriptionResponse{WebhookSubscription: subscriptionToPB(out)}, nil
}

// setStatus moves a subscription and, when it stops being active, fails its pending deliveries.
func setStatus(ctx context.Context, q *db.Queries, sub *db.WebhookSubscription, to string) error {
	now := store.Now()
	updated, err := q.SetWebhookSubscriptionStatus(ctx, db.SetWebhookSubscriptionStatusParams{TenantID: sub.TenantID, Uuid: sub.Uuid, Status: to, Now: now})
	if err != nil {
		return err
	}
	*sub = updated
	if to != "active" {
		_, err = q.FailPendingDeliveries(ctx, db.FailPendingDeliveriesParams{TenantID: sub.TenantID, SubscriptionUuid: sub.Uuid, Now: now})
	}
	return err
}

func (s *Service) RotateWebhookSubscriptionSecret(ctx context.Context, req *pb.RotateWebhookSubscriptionSecretRequest) (*pb.RotateWebhookSubscriptionSecretResponse, error) {
	id, err := fields.UUID("uuid", req.Uuid)
	if err != nil {
		return nil, err
	}
	secret, sealed, err := s.newSecret()
	if err != nil {
		return nil, err
	}
	var sub db.WebhookSubscription
	err = s.DB.Tx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		var err error
		sub, err = q.SetWebhookSubscriptionSecret(ctx, db.SetWebhookSubscriptionSecretParams{TenantID: reqctx.Tenant(ctx), Uuid: id, SecretSealed: sealed, Now: store.Now()})
		if store.IsNoRows(err) {
			return apierr.NotFoundf("webhook subscription", req.Uuid)
		} else if err != nil {
			return err
		}
		// The history says that the secret changed, never what it is or was.
		return history.Record(ctx, q, sub.TenantID, []history.Entry{{ResourceType: SubscriptionHistory, Resource: sub.Uuid,
			Action: "updated", Changes: `[{"field":"secret"}]`}})
	})
	if err != nil {
		return nil, err
	}
	out := subscriptionToPB(sub)
	out.Etag = etag.Of(out) // the subscription's tag, as its reads give it: the one-time secret is no part of it
	out.Secret = &secret
	return &pb.RotateWebhookSubscriptionSecretResponse{WebhookSubscription: out}, nil
}

func subscriptionEventTypeToPB(e db.WebhookSubscriptionEventType) *pb.WebhookSubscriptionEventType {
	return &pb.WebhookSubscriptionEventType{Uuid: e.Uuid.String(), CreatedAt: timestamppb.New(e.CreatedAt),
		WebhookSubscriptionUuid: e.SubscriptionUuid.String(), WebhookEventTypeUuid: e.Uuid.String(), Name: e.Name}
}

func (s *Service) ListWebhookSubscriptionEventTypes(ctx context.Context, req *pb.ListWebhookSubscriptionEventTypesRequest) (*pb.ListWebhookSubscriptionEventTypesResponse, error) {
	sub, err := s.subscription(ctx, req.Uuid)
	if err != nil {
		return nil, err
	}
	rows, page, err := list.Run[db.WebhookSubscriptionEventType](ctx, s.DB, SubscriptionEventTypeList, sub.TenantID, req, list.Eq("subscription_uuid", sub.Uuid))
	if err != nil {
		return nil, err
	}
	return &pb.ListWebhookSubscriptionEventTypesResponse{Items: mapSlice(rows, subscriptionEventTypeToPB), Pagination: page}, nil
}

func (s *Service) CreateWebhookSubscriptionEventType(ctx context.Context, req *pb.CreateWebhookSubscriptionEventTypeRequest) (*pb.CreateWebhookSubscriptionEventTypeResponse, error) {
	sub, err := s.subscription(ctx, req.Uuid)
	if err != nil {
		return nil, err
	}
	et, _ := fields.ParseUUID(req.GetSubscriptionEventType().GetWebhookEventTypeUuid()) // required and a uuid: request rules
	t, err := s.DB.Q.GetEventType(ctx, et)
	if store.IsNoRows(err) {
		return nil, apierr.NotFoundf("webhook event type", et.String()).WithField("webhookEventTypeUuid", "not found")
	} else if err != nil {
		return nil, err
	}
	var rows []db.WebhookSubscriptionEventType
	err = s.DB.Tx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		var err error
		rows, err = q.InsertSubscriptionEventType(ctx, db.InsertSubscriptionEventTypeParams{TenantID: sub.TenantID,
			SubscriptionUuid: sub.Uuid, Uuid: t.Uuid, Name: t.Name, Now: store.Now()})
		if err != nil {
			return err
		}
		return recordEventTypes(ctx, q, "linked", rows)
	})
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, apierr.New(apierr.AlreadyExists, "the subscription already receives %s", t.Name).WithField("webhookEventTypeUuid", "already subscribed")
	}
	return &pb.CreateWebhookSubscriptionEventTypeResponse{SubscriptionEventType: subscriptionEventTypeToPB(rows[0])}, nil
}

// BulkCreateWebhookSubscriptionEventTypes subscribes to every event type of the request or to none:
// an item naming the same event type as an earlier one is 400, an unknown event type 404, one the
// subscription already receives 409, each naming its item (`[i].webhookEventTypeUuid`).
func (s *Service) BulkCreateWebhookSubscriptionEventTypes(ctx context.Context, req *pb.BulkCreateWebhookSubscriptionEventTypesRequest) (*pb.BulkCreateWebhookSubscriptionEventTypesResponse, error) {
	sub, err := s.subscription(ctx, req.Uuid)
	if err != nil {
		return nil, err
	}
	const field = "webhookEventTypeUuid"
	ids := make([]uuid.UUID, len(req.Items))
	first := map[uuid.UUID]int{}
	dup := apierr.NewValidator()
	for i, it := range req.Items {
		ids[i], _ = fields.ParseUUID(it.GetWebhookEventTypeUuid()) // required and a uuid: request rules
		if j, seen := first[ids[i]]; seen {
			dup.Item(i).Add(field, "the same event type as [%d]", j)
		} else {
			first[ids[i]] = i
		}
	}
	if err := dup.Err(); err != nil {
		return nil, err
	}
	var out []*pb.WebhookSubscriptionEventType
	err = s.DB.Tx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		types, err := q.GetEventTypes(ctx, ids)
		if err != nil {
			return err
		}
		name := make(map[uuid.UUID]string, len(types))
		for _, t := range types {
			name[t.Uuid] = t.Name
		}
		names := make([]string, len(ids))
		var missing []apierr.FieldViolation
		for i, id := range ids {
			if names[i] = name[id]; names[i] == "" {
				missing = append(missing, apierr.FieldViolation{Field: fmt.Sprintf("[%d].%s", i, field), Message: "not found"})
			}
		}
		if len(missing) > 0 {
			return &apierr.Error{Code: apierr.NotFound, Detail: fmt.Sprintf("%d of the event types do not exist", len(missing)), Fields: missing}
		}
		rows, err := q.InsertSubscriptionEventTypes(ctx, db.InsertSubscriptionEventTypesParams{TenantID: sub.TenantID,
			SubscriptionUuid: sub.Uuid, Uuids: ids, Now: store.Now()})
		if err != nil {
			return err
		}
		made := make(map[uuid.UUID]db.WebhookSubscriptionEventType, len(rows))
		for _, r := range rows {
			made[r.Uuid] = r
		}
		var taken []apierr.FieldViolation
		for i, id := range ids {
			r, ok := made[id]
			if !ok {
				taken = append(taken, apierr.FieldViolation{Field: fmt.Sprintf("[%d].%s", i, field), Message: "already subscribed (" + names[i] + ")"})
				continue
			}
			out = append(out, subscriptionEventTypeToPB(r))
		}
		if len(taken) > 0 { // all or nothing: the transaction rolls back
			return &apierr.Error{Code: apierr.AlreadyExists, Detail: fmt.Sprintf("the subscription already receives %d of the event types", len(taken)), Fields: taken}
		}
		return recordEventTypes(ctx, q, "linked", rows)
	})
	if err != nil {
		return nil, err
	}
	return &pb.BulkCreateWebhookSubscriptionEventTypesResponse{Items: out}, nil
}

func (s *Service) DeleteWebhookSubscriptionEventType(ctx context.Context, req *pb.DeleteWebhookSubscriptionEventTypeRequest) (*pb.DeleteWebhookSubscriptionEventTypeResponse, error) {
	sub, err := s.subscription(ctx, req.Uuid)
	if err != nil {
		return nil, err
	}
	et, err := fields.UUID("eventTypeUuid", req.EventTypeUuid)
	if err != nil {
		return nil, err
	}
	err = s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		if etag.FromContext(ctx).Given() {
			rows, err := tx.Query(ctx, "SELECT * FROM webhook_subscription_event_types WHERE tenant_id = $1 AND subscription_uuid = $2 AND uuid = $3 FOR UPDATE",
				sub.TenantID, sub.Uuid, et)
			if err != nil {
				return err
			}
			link, err := pgx.CollectExactlyOneRow(rows, pgx.RowToStructByName[db.WebhookSubscriptionEventType])
			if store.IsNoRows(err) {
				return apierr.New(apierr.NotFound, "the subscription is not subscribed to event type %s", req.EventTypeUuid)
			} else if err != nil {
				return err
			}
			if err := etag.Check(ctx, "webhook subscription event type", req.EventTypeUuid, subscriptionEventTypeToPB(link)); err != nil {
				return err
			}
		}
		gone, err := q.DeleteSubscriptionEventType(ctx, db.DeleteSubscriptionEventTypeParams{TenantID: sub.TenantID, SubscriptionUuid: sub.Uuid, Uuid: et})
		if err == nil && len(gone) == 0 {
			return apierr.New(apierr.NotFound, "the subscription is not subscribed to event type %s", req.EventTypeUuid)
		} else if err != nil {
			return err
		}
		return recordEventTypes(ctx, q, "unlinked", gone)
	})
	if err != nil {
		return nil, err
	}
	return &pb.DeleteWebhookSubscriptionEventTypeResponse{}, nil
}

func (s *Service) ListWebhookDeliveries(ctx context.Context, req *pb.ListWebhookDeliveriesRequest) (*pb.ListWebhookDeliveriesResponse, error) {
	sub, err := s.subscription(ctx, req.Uuid)
	if err != nil {
		return nil, err
	}
	rows, page, err := list.Run[db.WebhookDelivery](ctx, s.DB, DeliveryList, sub.TenantID, req, list.Eq("subscription_uuid", sub.Uuid))
	if err != nil {
		return nil, err
	}
	return &pb.ListWebhookDeliveriesResponse{Items: mapSlice(rows, deliveryToPB), Pagination: page}, nil
}

func (s *Service) delivery(ctx context.Context, subRaw, raw string) (db.WebhookDelivery, error) {
	sub, err := s.subscription(ctx, subRaw)
	if err != nil {
		return db.WebhookDelivery{}, err
	}
	id, err := fields.UUID("deliveryUuid", raw)
	if err != nil {
		return db.WebhookDelivery{}, err
	}
	d, err := s.DB.Q.GetWebhookDelivery(ctx, db.GetWebhookDeliveryParams{TenantID: sub.TenantID, SubscriptionUuid: sub.Uuid, Uuid: id})
	if store.IsNoRows(err) {
		return d, apierr.NotFoundf("webhook delivery", raw)
	}
	return d, err
}

func (s *Service) GetWebhookDelivery(ctx context.Context, req *pb.GetWebhookDeliveryRequest) (*pb.GetWebhookDeliveryResponse, error) {
	d, err := s.delivery(ctx, req.Uuid, req.DeliveryUuid)
	if err != nil {
		return nil, err
	}
	return &pb.GetWebhookDeliveryResponse{WebhookDelivery: deliveryToPB(d)}, nil
}

func (s *Service) ListWebhookDeliveryAttempts(ctx context.Context, req *pb.ListWebhookDeliveryAttemptsRequest) (*pb.ListWebhookDeliveryAttemptsResponse, error) {
	d, err := s.delivery(ctx, req.Uuid, req.DeliveryUuid)
	if err != nil {
		return nil, err
	}
	rows, page, err := list.Run[db.WebhookDeliveryAttempt](ctx, s.DB, AttemptList, d.TenantID, req, list.Eq("delivery_uuid", d.Uuid))
	if err != nil {
		return nil, err
	}
	return &pb.ListWebhookDeliveryAttemptsResponse{Items: mapSlice(rows, attemptToPB), Pagination: page}, nil
}

func (s *Service) RedeliverWebhookDelivery(ctx context.Context, req *pb.RedeliverWebhookDeliveryRequest) (*pb.RedeliverWebhookDeliveryResponse, error) {
	d, err := s.delivery(ctx, req.Uuid, req.DeliveryUuid)
	if err != nil {
		return nil, err
	}
	var out db.WebhookDelivery
	err = s.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		sub, err := q.LockWebhookSubscription(ctx, db.LockWebhookSubscriptionParams{TenantID: d.TenantID, Uuid: d.SubscriptionUuid})
		if err != nil {
			return err
		}
		if sub.Status != "active" {
			return subscriptionLifecycle.Refuse(sub.Status, "the subscription is %s: activate it before redelivering", sub.Status)
		}
		out, err = q.RedeliverWebhookDelivery(ctx, db.RedeliverWebhookDeliveryParams{TenantID: d.TenantID, SubscriptionUuid: d.SubscriptionUuid, Uuid: d.Uuid, Now: store.Now()})
		if err != nil {
			return err
		}
		return q.NotifyDeliveries(ctx)
	})
	if err != nil {
		return nil, err
	}
	return &pb.RedeliverWebhookDeliveryResponse{WebhookDelivery: deliveryToPB(out)}, nil
}

// History of webhook subscriptions (API.md "History"): they emit no events, so their writes
// record their entries themselves, with the same Diff as every other resource.
const (
	SubscriptionHistory          = "webhook_subscription"
	SubscriptionEventTypeHistory = "webhook_subscription.event_type"
)

// HistoryTypes are the resource types of the entries webhook writes record.
var HistoryTypes = []string{SubscriptionHistory, SubscriptionEventTypeHistory}

// errUnchanged rolls back an update that changed nothing.
var errUnchanged = errors.New("webhooks: unchanged")

// lockSubscription reads and locks subscription id and checks the request's condition (If-Match).
func lockSubscription(ctx context.Context, q *db.Queries, id uuid.UUID, raw string) (db.WebhookSubscription, error) {
	sub, err := q.LockWebhookSubscription(ctx, db.LockWebhookSubscriptionParams{TenantID: reqctx.Tenant(ctx), Uuid: id})
	if store.IsNoRows(err) {
		return sub, apierr.NotFoundf("webhook subscription", raw)
	} else if err != nil {
		return sub, err
	}
	return sub, etag.Check(ctx, "webhook subscription", raw, subscriptionToPB(sub))
}

// recordSubscription records the change of a subscription from before to after (nil: created,
// deleted) unless it changed nothing; changed reports whether it did.
func recordSubscription(ctx context.Context, q *db.Queries, action string, before, after *db.WebhookSubscription) (changed bool, err error) {
	var b, a proto.Message
	sub := after
	if before != nil {
		b, sub = subscriptionToPB(*before), before
	}
	if after != nil {
		a = subscriptionToPB(*after)
	}
	changes, err := history.Diff(b, a)
	if err != nil || string(changes) == "[]" {
		return false, err
	}
	return true, history.Record(ctx, q, sub.TenantID, []history.Entry{{ResourceType: SubscriptionHistory, Resource: sub.Uuid, Action: action, Changes: string(changes)}})
}

// recordEventTypes records the subscription event types linked or unlinked.
func recordEventTypes(ctx context.Context, q *db.Queries, action string, rows []db.WebhookSubscriptionEventType) error {
	entries := make([]history.Entry, len(rows))
	for i, r := range rows {
		var b, a proto.Message = nil, subscriptionEventTypeToPB(r)
		if action == "unlinked" {
			b, a = a, nil
		}
		changes, err := history.Diff(b, a)
		if err != nil {
			return err
		}
		entries[i] = history.Entry{ResourceType: SubscriptionEventTypeHistory, Resource: r.Uuid, Parents: []uuid.UUID{r.SubscriptionUuid}, Action: action, Changes: string(changes)}
	}
	if len(entries) == 0 {
		return nil
	}
	return history.Record(ctx, q, rows[0].TenantID, entries)
}
