package webhooks

import (
	"context"
	"log/slog"
	"math/rand/v2"
	"sync"
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

// Dispatcher delivers pending deliveries: workers claim due rows with a lease, POST outside any
// transaction, then record the attempt. Any number of dispatchers (service replicas) may share one
// database: a claimed row is invisible to the others until its lease runs out.
type Dispatcher struct {
	DB      *store.DB
	Box     *Box
	Sender  *Sender
	Policy  Policy
	Log     *slog.Logger
	Workers int
	// Poll is the longest wait between looks for due deliveries when no notification comes.
	Poll time.Duration
	// Lease is how long a claimed delivery stays invisible to other dispatchers; it must exceed
	// the longest request time-out (30 s). Default 60 s.
	Lease time.Duration

	wake  chan struct{}
	mu    sync.Mutex
	dep   map[string][2]*time.Time
	depAt time.Time
}

// Run delivers until ctx ends; it returns when every worker has finished its current attempt.
func (d *Dispatcher) Run(ctx context.Context) {
	if d.Workers < 1 {
		d.Workers = 4
	}
	if d.Poll <= 0 {
		d.Poll = time.Second
	}
	if d.Lease <= 0 {
		d.Lease = time.Minute
	}
	d.wake = make(chan struct{}, d.Workers)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); d.listen(ctx) }()
	for i := 0; i < d.Workers; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); d.work(ctx) }()
	}
	wg.Wait()
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

func (d *Dispatcher) signal() {
	for i := 0; i < cap(d.wake); i++ {
		select {
		case d.wake <- struct{}{}:
		default:
			return
		}
	}
}

func (d *Dispatcher) work(ctx context.Context) {
	for ctx.Err() == nil {
		n, err := d.deliverOne(ctx)
		if err != nil && ctx.Err() == nil {
			d.Log.Error("webhook dispatch", "error", err.Error())
		}
		if n > 0 {
			continue
		}
		select {
		case <-ctx.Done():
		case <-d.wake:
		case <-time.After(d.Poll):
		}
	}
}

// deliverOne claims one due delivery and makes its attempt; it returns how many it claimed.
func (d *Dispatcher) deliverOne(ctx context.Context) (int, error) {
	lease := uuid.New()
	rows, err := d.DB.Q.ClaimDueDeliveries(ctx, db.ClaimDueDeliveriesParams{Max: 1, LeaseSeconds: d.Lease.Seconds(), LeaseID: &lease})
	if err != nil || len(rows) == 0 {
		return 0, err
	}
	r := rows[0]
	res := d.attempt(ctx, r)
	// Record even when ctx is ending: the attempt happened.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	return 1, d.record(rctx, r, lease, res)
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
func (d *Dispatcher) record(ctx context.Context, r db.ClaimDueDeliveriesRow, lease uuid.UUID, res Result) error {
	now := store.Now()
	inactive := r.SubscriptionStatus != "active"
	return d.DB.Tx(ctx, func(tx pgx.Tx, q *db.Queries) error {
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
}

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
