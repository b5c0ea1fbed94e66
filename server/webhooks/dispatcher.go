package webhooks

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/store"
)

// Policy is the retry and suspension policy of DESIGN.md.
type Policy struct {
	// Schedule: delays between attempts after the first, immediate one.
	Schedule []time.Duration
	// A subscription is suspended when its consecutive failed attempts reach SuspendAfterFailures
	// and no attempt succeeded for SuspendAfter.
	SuspendAfterFailures int
	SuspendAfter         time.Duration
}

// DefaultSchedule is CATALOG_WEBHOOK_RETRY_SCHEDULE's default.
var DefaultSchedule = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour,
	10 * time.Hour, 14 * time.Hour, 20 * time.Hour, 24 * time.Hour}

// maxRetryAfter caps a receiver's Retry-After.
const maxRetryAfter = 24 * time.Hour

// Dispatcher delivers pending deliveries: it claims due rows with a lease, makes each attempt
// outside any transaction, then records it. Any number of dispatchers (service replicas) may share
// one database: a claimed row is invisible to the others until its lease runs out.
//
// Fairness (docs/design.md "Webhook dispatcher: fairness and shutdown"): the claim takes due rows
// round robin across tenants and their subscriptions, with caps on the attempts in flight per
// subscription and per tenant counted across replicas, and every claimed row gets a slot of its
// own at once (Workers slots per process), so a target that is slow or hangs delays only its own
// subscription.
type Dispatcher struct {
	// DB should be a pool of the dispatcher's own (store.OpenWith), so that API load cannot take
	// its connections.
	DB     *store.DB
	Box    *Box
	Sender *Sender
	Policy Policy
	Log    *slog.Logger
	// Workers is the number of attempts this process makes at once (slots). Default 64.
	Workers int
	// PerSubscription caps a subscription's attempts in flight across all dispatchers; a failing
	// subscription (consecutive failures > 0) gets one. Default Workers/4, between 1 and 16.
	PerSubscription int
	// PerTenant caps a tenant's attempts in flight across all dispatchers. Default Workers/2.
	PerTenant int
	// Poll is the longest wait between looks for due deliveries when no notification comes.
	Poll time.Duration
	// Lease is how long a claimed delivery stays invisible to other dispatchers; it must exceed
	// the longest request time-out (30 s). Default 60 s.
	Lease time.Duration
	// Grace is how long Run lets in-flight attempts finish once its context ends; attempts still
	// running then are cut and their deliveries released (due again, no attempt counted). Default 10 s.
	Grace   time.Duration
	Metrics *Metrics

	wake  chan struct{}
	mu    sync.Mutex
	dep   map[string][2]*time.Time
	depAt time.Time
}

// DispatcherConns is the size of the dispatcher's own pool: the NOTIFY listener, the claims, the
// records of attempts (short transactions) and the backlog sample of /metrics.
const DispatcherConns = 10

// maxClaim is the most rows one claim takes.
const maxClaim = 64

// claimPause is the least time between a claim that found nothing and the next: it adds at most
// that to a delivery's latency and bounds the rate of empty claims (each walks the subscriptions
// with pending deliveries) to a hundred a second per process.
const claimPause = 10 * time.Millisecond

// recordTimeout bounds the recording of an attempt (or the release of a cut one).
const recordTimeout = 10 * time.Second

func (d *Dispatcher) defaults() {
	if d.Workers < 1 {
		d.Workers = 64
	}
	if d.PerSubscription < 1 {
		d.PerSubscription = min(max(d.Workers/4, 1), 16)
	}
	if d.PerTenant < 1 {
		d.PerTenant = max(d.Workers/2, 1)
	}
	if d.Poll <= 0 {
		d.Poll = time.Second
	}
	if d.Lease <= 0 {
		d.Lease = time.Minute
	}
	if d.Grace <= 0 {
		d.Grace = 10 * time.Second
	}
}

// Run delivers until ctx ends. Then it claims nothing more, lets the attempts in flight finish
// for up to Grace, cuts the others (releasing their deliveries) and returns when every attempt
// is recorded or released.
func (d *Dispatcher) Run(ctx context.Context) {
	d.defaults()
	d.wake = make(chan struct{}, 1)
	// Attempts run under their own context: the end of ctx stops the claims, not the attempts.
	attempts, cut := context.WithCancel(context.WithoutCancel(ctx))
	defer cut()
	var listener sync.WaitGroup
	listener.Add(1)
	go func() { defer listener.Done(); d.listen(ctx) }()

	var running sync.WaitGroup
	var busy atomic.Int64
	for ctx.Err() == nil {
		free := d.Workers - int(busy.Load())
		if free > 0 {
			want := min(free, maxClaim)
			rows, lease, err := d.claim(ctx, want)
			if err != nil && ctx.Err() == nil {
				d.Log.Error("webhook claim", "error", err.Error())
			}
			for _, r := range rows {
				busy.Add(1)
				d.Metrics.inFlightAdd(1)
				running.Add(1)
				go func() {
					defer func() {
						busy.Add(-1)
						d.Metrics.inFlightAdd(-1)
						running.Done()
						d.signal() // a slot is free
					}()
					d.deliver(attempts, r, lease)
				}()
			}
			if err == nil && len(rows) == want {
				continue // there may be more due
			}
			if err != nil || len(rows) == 0 {
				// Wake-ups (a NOTIFY per committed write, a freed slot) can come faster than
				// claims find work: gather them for a moment, so that one claim serves many.
				sleep(ctx, claimPause)
			}
		}
		select {
		case <-ctx.Done():
		case <-d.wake:
		case <-time.After(d.Poll):
		}
	}

	done := make(chan struct{})
	go func() { running.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d.Grace):
		if n := busy.Load(); n > 0 {
			d.Log.Warn("webhook attempts cut by shutdown after the grace period; their deliveries are due again", "attempts", n)
		}
		cut()
		<-done
	}
	listener.Wait()
}

// listen turns NOTIFY catalogd_webhooks into wake-ups, reconnecting as needed.
func (d *Dispatcher) listen(ctx context.Context) {
	for ctx.Err() == nil {
		conn, err := d.DB.Pool.Acquire(ctx)
		if err == nil {
			if _, err = conn.Exec(ctx, "LISTEN "+events.Channel); err == nil {
				for {
					if _, err = conn.Conn().WaitForNotification(ctx); err != nil {
						break
					}
					d.signal()
				}
			}
			conn.Hijack().Close(context.Background()) //nolint:errcheck // a LISTENing connection is not returned to the pool
		}
		if ctx.Err() == nil {
			d.Log.Warn("webhook listener reconnecting", "error", errString(err))
			sleep(ctx, time.Second)
		}
	}
}

// signal wakes the claim loop (wake-ups coalesce: one pending is enough).
func (d *Dispatcher) signal() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// claim takes up to max due deliveries under one lease id, in a transaction holding the claim
// lock (LockDeliveryClaims), so that the in-flight caps are exact across dispatchers.
func (d *Dispatcher) claim(ctx context.Context, max int) ([]db.ClaimDueDeliveriesRow, uuid.UUID, error) {
	lease := uuid.New()
	var rows []db.ClaimDueDeliveriesRow
	err := d.DB.Tx(ctx, func(_ pgx.Tx, q *db.Queries) error {
		if err := q.LockDeliveryClaims(ctx); err != nil {
			return err
		}
		var err error
		rows, err = q.ClaimDueDeliveries(ctx, db.ClaimDueDeliveriesParams{PerSubscription: int32(d.PerSubscription),
			PerTenant: int32(d.PerTenant), Max: int32(max), LeaseSeconds: d.Lease.Seconds(), LeaseID: &lease})
		return err
	})
	if err != nil {
		return nil, lease, err
	}
	return rows, lease, nil
}

// deliver makes one claimed delivery's attempt and records it; an attempt cut by shutdown (ctx
// cancelled) is not recorded: the delivery is released, due again with the same webhook-id.
func (d *Dispatcher) deliver(ctx context.Context, r db.ClaimDueDeliveriesRow, lease uuid.UUID) {
	res := d.attempt(ctx, r)
	received := time.Now()
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if res.ErrorClass == ClassCanceled && ctx.Err() != nil {
		d.Metrics.canceled()
		if _, err := d.DB.Q.ReleaseDeliveryLease(rctx, db.ReleaseDeliveryLeaseParams{TenantID: r.TenantID, Uuid: r.Uuid, LeaseID: &lease}); err != nil {
			// The lease runs out by itself: the delivery is sent again then.
			d.Log.Warn("webhook delivery release", "delivery", r.Uuid.String(), "error", err.Error())
		}
		return
	}
	if r.SubscriptionStatus == "active" {
		d.Metrics.attempt(res)
	}
	status, err := d.record(rctx, r, lease, res)
	if err != nil {
		d.Log.Error("webhook dispatch", "delivery", r.Uuid.String(), "error", err.Error())
		return
	}
	d.Metrics.finished(status, received.Sub(r.CreatedAt))
}

func (d *Dispatcher) attempt(ctx context.Context, r db.ClaimDueDeliveriesRow) Result {
	if r.SubscriptionStatus != "active" {
		return Result{ErrorClass: "subscription_" + r.SubscriptionStatus}
	}
	secret, err := d.Box.Open(r.SecretSealed)
	if err != nil {
		d.Log.Error("webhook secret cannot be opened (CATALOG_SECRET_KEY changed?)", "subscription", r.SubscriptionUuid.String())
		return Result{ErrorClass: "secret"}
	}
	req := Request{MsgID: r.Uuid.String(), EventType: r.EventType, Payload: r.Payload, Secret: secret, URL: r.TargetUrl,
		Timeout: time.Duration(r.RequestTimeoutMs) * time.Millisecond}
	if dep, ok := d.deprecations(ctx)[r.EventType]; ok {
		req.Deprecation, req.Sunset = dep[0], dep[1]
	}
	return d.Sender.Send(ctx, req)
}

// record stores an attempt and its consequences in one transaction: the delivery's next state, the
// subscription's failure counters and, past the policy's threshold or on 410 Gone, its suspension.
// It returns the status the delivery was left in ("" when it was not changed).
func (d *Dispatcher) record(ctx context.Context, r db.ClaimDueDeliveriesRow, lease uuid.UUID, res Result) (string, error) {
	if res.Success && r.SubscriptionStatus == "active" {
		if status, err := d.recordSuccess(ctx, r, lease, res); !errors.Is(err, errNotHealthy) {
			return status, err
		}
	}
	now := store.Now()
	inactive := r.SubscriptionStatus != "active"
	var final string
	err := d.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
		final = ""
		// The subscription first, like every other write on a subscription and its deliveries.
		if _, err := q.LockWebhookSubscription(ctx, db.LockWebhookSubscriptionParams{TenantID: r.TenantID, Uuid: r.SubscriptionUuid}); err != nil {
			if store.IsNoRows(err) {
				return nil // deleted meanwhile, with its deliveries
			}
			return err
		}
		if !inactive {
			var code *int32
			if res.StatusCode != 0 {
				c := int32(res.StatusCode)
				code = &c
			}
			var class *string
			if res.ErrorClass != "" {
				class = &res.ErrorClass
			}
			if err := q.InsertDeliveryAttempt(ctx, db.InsertDeliveryAttemptParams{TenantID: r.TenantID, Uuid: uuid.Must(uuid.NewV7()),
				DeliveryUuid: r.Uuid, StatusCode: code, ResponseBody: res.Body, ResponseTimeMs: int32(res.Duration.Milliseconds()),
				Error: class, Now: now}); err != nil {
				return err
			}
		}
		status, next := d.outcome(r, res, now)
		var last *int32
		if res.StatusCode != 0 {
			c := int32(res.StatusCode)
			last = &c
		}
		p := db.FinishDeliveryAttemptParams{TenantID: r.TenantID, Uuid: r.Uuid, LeaseID: &lease, Status: status,
			LastStatusCode: last, ScheduledAt: next, Now: now}
		if inactive {
			p.Status, p.ScheduledAt = "failed", nil
		}
		n, err := q.FinishDeliveryAttempt(ctx, p)
		if err != nil {
			return err
		}
		if n == 0 {
			// The lease ran out and another dispatcher took the delivery over: it records its own attempt.
			d.Log.Warn("webhook delivery lease lost", "delivery", r.Uuid.String())
			return errLeaseLost
		}
		final = p.Status
		if inactive {
			return nil
		}
		if res.Success {
			return q.RecordSubscriptionSuccess(ctx, db.RecordSubscriptionSuccessParams{TenantID: r.TenantID, Uuid: r.SubscriptionUuid})
		}
		sub, err := q.RecordSubscriptionFailure(ctx, db.RecordSubscriptionFailureParams{TenantID: r.TenantID, Uuid: r.SubscriptionUuid, Now: now})
		if err != nil {
			return err
		}
		gone := res.StatusCode == 410
		persistent := int(sub.ConsecutiveFailures) >= d.Policy.SuspendAfterFailures && sub.FailingSince != nil &&
			!now.Before(sub.FailingSince.Add(d.Policy.SuspendAfter))
		if sub.Status == "active" && (gone || persistent) {
			d.Log.Warn("webhook subscription suspended", "subscription", sub.Uuid.String(), "gone", gone, "failures", sub.ConsecutiveFailures)
			return setStatus(ctx, q, &sub, "suspended")
		}
		return nil
	})
	return final, err
}

// recordSuccess records a successful attempt on a subscription without failures to reset, in one
// statement under a share lock of the subscription (RecordDeliverySuccess): the records of its
// concurrent successes do not wait for one another (under the exclusive lock they ran one at a
// time, and a busy subscription's deliveries queued behind their commits). A subscription with
// failure counters to reset is errNotHealthy: the exclusive path of record does it.
func (d *Dispatcher) recordSuccess(ctx context.Context, r db.ClaimDueDeliveriesRow, lease uuid.UUID, res Result) (string, error) {
	row, err := d.DB.Q.RecordDeliverySuccess(ctx, db.RecordDeliverySuccessParams{TenantID: r.TenantID, SubscriptionUuid: r.SubscriptionUuid,
		Uuid: r.Uuid, LeaseID: &lease, StatusCode: int32(res.StatusCode), AttemptUuid: uuid.Must(uuid.NewV7()),
		ResponseBody: res.Body, ResponseTimeMs: int32(res.Duration.Milliseconds()), Now: store.Now()})
	switch {
	case err != nil:
		return "", err
	case row.Healthy == 0:
		return "", errNotHealthy
	case row.Finished == 0:
		d.Log.Warn("webhook delivery lease lost", "delivery", r.Uuid.String())
		return "", errLeaseLost
	}
	return "delivered", nil
}

var errNotHealthy = errors.New("the subscription has failures to reset")

var errLeaseLost = leaseLost{}

type leaseLost struct{}

func (leaseLost) Error() string { return "lease lost" }

// outcome is the delivery's state after an attempt: delivered, pending with its next time, or failed.
func (d *Dispatcher) outcome(r db.ClaimDueDeliveriesRow, res Result, now time.Time) (string, *time.Time) {
	if res.Success {
		return "delivered", nil
	}
	if res.StatusCode == 410 {
		return "failed", nil
	}
	made := int(r.Attempts-r.CycleStart) + 1 // attempts in this cycle, this one included
	if made > len(d.Policy.Schedule) {
		return "failed", nil
	}
	delay := jitter(d.Policy.Schedule[made-1])
	if res.RetryAfter > 0 && (res.StatusCode == 429 || res.StatusCode == 503) {
		delay = min(res.RetryAfter, maxRetryAfter)
	}
	next := now.Add(delay)
	return "pending", &next
}

// jitter spreads a delay by ±10 %.
func jitter(d time.Duration) time.Duration {
	return time.Duration(float64(d) * (0.9 + 0.2*rand.Float64()))
}

// deprecations caches the deprecated event types (Deprecation/Sunset headers) for a minute.
func (d *Dispatcher) deprecations(ctx context.Context) map[string][2]*time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dep != nil && time.Since(d.depAt) < time.Minute {
		return d.dep
	}
	rows, err := d.DB.Q.ListEventTypeDeprecations(ctx)
	if err != nil {
		return d.dep
	}
	m := make(map[string][2]*time.Time, len(rows))
	for _, r := range rows {
		m[r.Name] = [2]*time.Time{r.DeprecatedAt, r.SunsetAt}
	}
	d.dep, d.depAt = m, time.Now()
	return m
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
