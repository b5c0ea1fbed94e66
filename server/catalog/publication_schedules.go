package catalog

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/otel/attribute"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/catalogd/catalogd/gen/catalog/v1"
	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/apierr"
	"github.com/catalogd/catalogd/server/crud"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/lifecycle"
	"github.com/catalogd/catalogd/server/list"
	"github.com/catalogd/catalogd/server/reqctx"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/tracing"
)

// Publication schedules: a publish or unpublish of a publication planned for scheduledAt (in the
// future when written). The scheduler (RunDueSchedules, driven by server/scheduler in every
// process) claims due pending schedules of every tenant and performs each one's transition through
// publicationMoves, the engine of the API's lifecycle RPC, in the transaction that marks the
// schedule executed (or failed, with the API error's code and detail). A schedule changes only
// while pending (else 409 INVALID_TRANSITION with meta.status); cancel moves it to cancelled.

var (
	scheduleStatuses    = []string{"pending", "executed", "failed", "cancelled"}
	scheduleTransitions = []string{"publish", "unpublish"}
)

// PublicationScheduleList is the list spec of
// GET /v1/products/{productUuid}/publications/{publicationUuid}/schedules.
var PublicationScheduleList = &list.Spec{
	Table: "publication_schedules",
	Filters: map[string]list.Field{
		"uuids":       {Column: "uuid", Type: list.UUID},
		"status":      {Column: "status", Type: list.Enum, Values: scheduleStatuses, Single: true},
		"transitions": {Column: "transition", Type: list.Enum, Values: scheduleTransitions},
		"scheduledAt": {Column: "scheduled_at", Type: list.Time},
		"createdAt":   {Column: "created_at", Type: list.Time},
		"updatedAt":   {Column: "updated_at", Type: list.Time},
	},
	Order: map[string]string{"scheduledAt": "scheduled_at", "createdAt": "created_at", "updatedAt": "updated_at"},
}

func publicationScheduleToPB(s db.PublicationSchedule) *pb.PublicationSchedule {
	return &pb.PublicationSchedule{
		Uuid:            s.Uuid.String(),
		CreatedAt:       timestamppb.New(s.CreatedAt),
		UpdatedAt:       timestamppb.New(s.UpdatedAt),
		ProductUuid:     s.ProductUuid.String(),
		PublicationUuid: s.PublicationUuid.String(),
		Transition:      pb.ProductPublicationTransition(enumValue(pb.ProductPublicationTransition_value, "PRODUCT_PUBLICATION_TRANSITION_", s.Transition)),
		ScheduledAt:     timestamppb.New(s.ScheduledAt),
		Status:          pb.PublicationScheduleStatus(enumValue(pb.PublicationScheduleStatus_value, "PUBLICATION_SCHEDULE_STATUS_", s.Status)),
		ExecutedAt:      tsp(s.ExecutedAt),
		FailureCode:     s.FailureCode,
		FailureReason:   s.FailureReason,
	}
}

// checkScheduledAt checks a scheduledAt when given (required on create: a request rule): valid,
// strictly after now.
func checkScheduledAt(v apierr.Validator, ts *timestamppb.Timestamp, now time.Time) {
	switch {
	case ts == nil:
	case ts.CheckValid() != nil:
		v.Add("scheduledAt", "must be a valid date-time")
	case !ts.AsTime().After(now):
		v.Add("scheduledAt", "must be in the future")
	}
}

// scheduledAt is a checked scheduledAt as stored (microseconds).
func scheduledAt(ts *timestamppb.Timestamp) time.Time {
	return ts.AsTime().UTC().Truncate(time.Microsecond)
}

// scheduleMachine: cancel: pending → cancelled. executed and failed are the scheduler's.
var scheduleMachine = lifecycle.Machine{Kind: "publication schedule", Moves: map[string]lifecycle.Move{
	"cancel": {From: []string{"pending"}, To: "cancelled", Event: "cancelled"},
}}

// publicationSchedules is the schedule family (events product.publication.schedule.*).
var publicationSchedules = &crud.Family[db.PublicationSchedule, *pb.PublicationSchedule, *pb.PublicationScheduleCreate, *pb.PublicationScheduleUpdate]{
	Kind: "publication schedule", Event: "product.publication.schedule", IDKey: "scheduleUuid", Unique: "uuid",
	ID:   func(s db.PublicationSchedule) uuid.UUID { return s.Uuid },
	ToPB: publicationScheduleToPB,
	CheckCreate: func(v apierr.Validator, c *pb.PublicationScheduleCreate) string {
		checkEnum(v, "transition", c.GetTransition())
		checkScheduledAt(v, c.GetScheduledAt(), time.Now())
		return ""
	},
	Insert: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, items []*pb.PublicationScheduleCreate) ([]db.PublicationSchedule, error) {
		return t.Q.InsertPublicationSchedules(ctx, db.InsertPublicationSchedulesParams{TenantID: t.Tenant, Uuids: ids,
			ProductUuid: scopeProduct(t.Scope), PublicationUuid: t.Scope.Parent, Now: t.Now,
			Transitions:  mapSlice(items, func(c *pb.PublicationScheduleCreate) string { return crud.EnumName(c.GetTransition()) }),
			ScheduledAts: mapSlice(items, func(c *pb.PublicationScheduleCreate) time.Time { return scheduledAt(c.GetScheduledAt()) })})
	},
	UpdateID: (*pb.PublicationScheduleUpdate).GetUuid,
	CheckUpdate: func(v apierr.Validator, u *pb.PublicationScheduleUpdate) {
		checkOptEnum(v, "transition", u.Transition)
		checkScheduledAt(v, u.GetScheduledAt(), time.Now())
	},
	UpdateOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID, u *pb.PublicationScheduleUpdate) (db.PublicationSchedule, error) {
		p := db.UpdatePublicationScheduleParams{TenantID: t.Tenant, PublicationUuid: t.Scope.Parent, Uuid: id,
			Transition: optEnumName(u.Transition), Now: t.Now}
		if u.ScheduledAt != nil {
			at := scheduledAt(u.ScheduledAt)
			p.ScheduledAt = &at
		}
		return t.Q.UpdatePublicationSchedule(ctx, p)
	},
	// The update does not touch status, and waits for a scheduler that holds the row: the status
	// returned is the one the update applied to.
	AfterUpdate: func(ctx context.Context, t *crud.Tx, r db.PublicationSchedule, u *pb.PublicationScheduleUpdate, field func(string) string) (db.PublicationSchedule, error) {
		if r.Status != "pending" {
			return r, scheduleMachine.Refuse(r.Status, "publication schedule %s is %s: only a pending schedule can be changed", r.Uuid, r.Status).
				WithField(field("uuid"), "is "+r.Status)
		}
		return r, nil
	},
	GetOne: func(ctx context.Context, q *db.Queries, tenant string, s crud.Scope, id uuid.UUID) (db.PublicationSchedule, error) {
		return q.GetPublicationSchedule(ctx, db.GetPublicationScheduleParams{TenantID: tenant, PublicationUuid: s.Parent, Uuid: id})
	},
	DeleteOne: func(ctx context.Context, t *crud.Tx, id uuid.UUID) (int64, error) {
		return t.Q.DeletePublicationSchedule(ctx, db.DeletePublicationScheduleParams{TenantID: t.Tenant, PublicationUuid: t.Scope.Parent, Uuid: id})
	},
	Lifecycle: &crud.Lifecycle[db.PublicationSchedule]{
		Machine: scheduleMachine,
		Status:  func(s db.PublicationSchedule) string { return s.Status },
		Lock: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID) ([]db.PublicationSchedule, error) {
			return t.Q.LockPublicationSchedules(ctx, db.LockPublicationSchedulesParams{TenantID: t.Tenant, PublicationUuid: t.Scope.Parent, Uuids: ids})
		},
		Set: func(ctx context.Context, t *crud.Tx, ids []uuid.UUID, status string) ([]db.PublicationSchedule, error) {
			return t.Q.SetPublicationScheduleStatus(ctx, db.SetPublicationScheduleStatusParams{TenantID: t.Tenant, PublicationUuid: t.Scope.Parent,
				Uuids: ids, Status: status, Now: t.Now})
		},
	},
}

// publicationScope resolves the productUuid and publicationUuid path parameters: the publication
// must belong to the product (404 otherwise).
func (s *Service) publicationScope(ctx context.Context, productRaw, pubRaw string) crud.Scope {
	sc := s.productScope(ctx, productRaw)
	if sc.Err != nil {
		return sc
	}
	pub, err := productPublications.Get(ctx, s.DB, sc, pubRaw)
	if err != nil {
		return crud.Scope{Err: err}
	}
	return crud.Scope{Parent: pub.Uuid, Keys: append(sc.Keys, "publicationUuid", pub.Uuid.String())}
}

// PublicationScheduleServer implements catalog.v1.PublicationScheduleService.
type PublicationScheduleServer struct {
	pb.UnimplementedPublicationScheduleServiceServer
	*Service
}

// ListPublicationSchedules lists the publication's schedules; status[eq] takes one value.
func (s *PublicationScheduleServer) ListPublicationSchedules(ctx context.Context, req *pb.ListPublicationSchedulesRequest) (*pb.ListPublicationSchedulesResponse, error) {
	sc := s.publicationScope(ctx, req.ProductUuid, req.PublicationUuid)
	if sc.Err != nil {
		return nil, sc.Err
	}
	out, page, err := listAs(ctx, s.Service, PublicationScheduleList, req, publicationScheduleToPB, list.Eq("publication_uuid", sc.Parent))
	return &pb.ListPublicationSchedulesResponse{Items: out, Pagination: page}, err
}

// CreatePublicationSchedule plans a transition of the publication.
func (s *PublicationScheduleServer) CreatePublicationSchedule(ctx context.Context, req *pb.CreatePublicationScheduleRequest) (*pb.CreatePublicationScheduleResponse, error) {
	m, err := publicationSchedules.CreateOne(ctx, s.DB, s.publicationScope(ctx, req.ProductUuid, req.PublicationUuid), orNew(req.PublicationSchedule))
	return &pb.CreatePublicationScheduleResponse{PublicationSchedule: m}, err
}

// BulkCreatePublicationSchedules plans 1 to 100 transitions atomically.
func (s *PublicationScheduleServer) BulkCreatePublicationSchedules(ctx context.Context, req *pb.BulkCreatePublicationSchedulesRequest) (*pb.BulkCreatePublicationSchedulesResponse, error) {
	out, err := publicationSchedules.CreateMany(ctx, s.DB, s.publicationScope(ctx, req.ProductUuid, req.PublicationUuid), req.Items)
	return &pb.BulkCreatePublicationSchedulesResponse{Items: out}, err
}

// GetPublicationSchedule returns one schedule.
func (s *PublicationScheduleServer) GetPublicationSchedule(ctx context.Context, req *pb.GetPublicationScheduleRequest) (*pb.GetPublicationScheduleResponse, error) {
	m, err := publicationSchedules.GetAt(ctx, s.DB, s.publicationScope(ctx, req.ProductUuid, req.PublicationUuid), req.ScheduleUuid)
	return &pb.GetPublicationScheduleResponse{PublicationSchedule: m}, err
}

// UpdatePublicationSchedule changes a pending schedule.
func (s *PublicationScheduleServer) UpdatePublicationSchedule(ctx context.Context, req *pb.UpdatePublicationScheduleRequest) (*pb.UpdatePublicationScheduleResponse, error) {
	m, err := publicationSchedules.UpdateAt(ctx, s.DB, s.publicationScope(ctx, req.ProductUuid, req.PublicationUuid), req.ScheduleUuid, req.PublicationSchedule)
	return &pb.UpdatePublicationScheduleResponse{PublicationSchedule: m}, err
}

// BulkUpdatePublicationSchedules changes 1 to 100 pending schedules atomically.
func (s *PublicationScheduleServer) BulkUpdatePublicationSchedules(ctx context.Context, req *pb.BulkUpdatePublicationSchedulesRequest) (*pb.BulkUpdatePublicationSchedulesResponse, error) {
	out, err := publicationSchedules.UpdateMany(ctx, s.DB, s.publicationScope(ctx, req.ProductUuid, req.PublicationUuid), req.Items)
	return &pb.BulkUpdatePublicationSchedulesResponse{Items: out}, err
}

// DeletePublicationSchedule deletes a schedule permanently, whatever its status.
func (s *PublicationScheduleServer) DeletePublicationSchedule(ctx context.Context, req *pb.DeletePublicationScheduleRequest) (*pb.DeletePublicationScheduleResponse, error) {
	return &pb.DeletePublicationScheduleResponse{}, publicationSchedules.Delete(ctx, s.DB, s.publicationScope(ctx, req.ProductUuid, req.PublicationUuid), req.ScheduleUuid)
}

// TransitionPublicationSchedule cancels one pending schedule.
func (s *PublicationScheduleServer) TransitionPublicationSchedule(ctx context.Context, req *pb.TransitionPublicationScheduleRequest) (*pb.TransitionPublicationScheduleResponse, error) {
	m, err := publicationSchedules.TransitionAt(ctx, s.DB, s.publicationScope(ctx, req.ProductUuid, req.PublicationUuid), req.ScheduleUuid, req.Transition)
	return &pb.TransitionPublicationScheduleResponse{PublicationSchedule: m}, err
}

// BulkTransitionPublicationSchedules cancels 1 to 100 schedules of the publication atomically.
func (s *PublicationScheduleServer) BulkTransitionPublicationSchedules(ctx context.Context, req *pb.BulkTransitionPublicationSchedulesRequest) (*pb.BulkTransitionPublicationSchedulesResponse, error) {
	out, err := publicationSchedules.TransitionMany(ctx, s.DB, s.publicationScope(ctx, req.ProductUuid, req.PublicationUuid), req.Transition, req.Uuids)
	return &pb.BulkTransitionPublicationSchedulesResponse{Items: out}, err
}

// SchedulerSubject is the principal subject of the scheduler's writes.
const SchedulerSubject = "system:scheduler"

// ScheduleRun counts what one RunDueSchedules call did.
type ScheduleRun struct {
	// Claimed due schedules; Executed and Failed of them were recorded (the rest stay pending).
	Claimed, Executed, Failed int
}

// RunDueSchedules runs up to limit pending schedules of every tenant due at now, oldest first, each
// in its own transaction: claim it (FOR UPDATE SKIP LOCKED: a concurrent scheduler skips it, and a
// schedule another one has just run is no longer pending when the lock is granted, so each runs
// exactly once), perform its publication's transition through publicationMoves (the engine of the
// lifecycle RPC, with the schedule's tenant and product, in a savepoint), mark it executed, and
// record the events of both. An API error of the transition (not ready, invalid transition, product
// gone) rolls the move back to its savepoint and marks the schedule failed with the error's code
// and detail. Any other error (the database) rolls the whole transaction back: the schedule stays
// pending for the next run (it is skipped for the rest of this one), and the first such error is
// returned.
func RunDueSchedules(ctx context.Context, d *store.DB, now time.Time, limit int) (ScheduleRun, error) {
	var res ScheduleRun
	var firstErr error
	skip := []uuid.UUID{}
	for res.Claimed < limit {
		var claimed *db.PublicationSchedule
		executed := false
		err := d.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
			s, err := q.ClaimDuePublicationSchedule(ctx, db.ClaimDuePublicationScheduleParams{Now: now, Skip: skip})
			if store.IsNoRows(err) {
				return nil
			} else if err != nil {
				return err
			}
			claimed = &s
			sctx, span := tracing.Background(ctx, "publication_schedule.run", "", attribute.String("catalogd.tenant", s.TenantID),
				attribute.String("catalogd.schedule", s.Uuid.String()))
			executed, err = runSchedule(sctx, d, tx, q, s)
			tracing.End(span, err)
			return err
		})
		if claimed == nil {
			if err != nil && firstErr == nil {
				firstErr = err
			}
			break
		}
		res.Claimed++
		switch {
		case err != nil:
			skip = append(skip, claimed.Uuid)
			if firstErr == nil {
				firstErr = err
			}
		case executed:
			res.Executed++
		default:
			res.Failed++
		}
	}
	return res, firstErr
}

// runSchedule runs one claimed schedule in tx; executed is false when it failed.
func runSchedule(ctx context.Context, d *store.DB, tx pgx.Tx, q *db.Queries, s db.PublicationSchedule) (executed bool, err error) {
	// The move and the schedule's executedAt carry one time.
	now := store.Now()
	mctx := store.WithNow(store.WithTx(reqctx.WithPrincipal(ctx, &reqctx.Principal{Tenant: s.TenantID, Subject: SchedulerSubject, System: true}), tx), now)
	product := crud.Scope{Parent: s.ProductUuid, Keys: []string{"productUuid", s.ProductUuid.String()}}
	_, moveErr := publicationMoves.Transition(mctx, d, product, s.Transition, []string{s.PublicationUuid.String()}, true)
	p := db.FinishPublicationScheduleParams{TenantID: s.TenantID, Uuid: s.Uuid, Status: "executed", Now: now}
	if moveErr != nil {
		// Only a refusal of the move fails the schedule; anything else (the database, an internal
		// error) leaves it pending for the next tick.
		var ae *apierr.Error
		if !errors.As(moveErr, &ae) || ae.Code == apierr.Internal || ae.Code == apierr.Unavailable {
			return false, moveErr
		}
		code := string(ae.Code)
		p.Status, p.FailureCode, p.FailureReason = "failed", &code, &ae.Detail
	}
	done, err := q.FinishPublicationSchedule(ctx, p)
	if err != nil {
		return false, err
	}
	ev := publicationSchedules.Changed(p.Status, crud.Scope{Keys: []string{"productUuid", s.ProductUuid.String(),
		"publicationUuid", s.PublicationUuid.String()}}, s.Uuid, &s, &done)
	return p.Status == "executed", events.Record(mctx, q, s.TenantID, p.Now, []events.Event{ev})
}
