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
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"

	"github.com/catalogd/catalogd/gen/db"
	"github.com/catalogd/catalogd/server/events"
	"github.com/catalogd/catalogd/server/store"
	"github.com/catalogd/catalogd/server/tracing"
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

	wake chan struct{}
	// successes: attempts waiting for the loop to record them (recordSuccess).
	successes chan *recordItem
	// busy counts the attempts of this process not recorded or released yet (its slots in use).
	busy atomic.Int64
	// sending counts the attempts on the wire (made, not answered yet): the loop waits for them
	// a moment to write their successes in one batch.
	sending atomic.Int64
	mu      sync.Mutex
	dep     map[string][2]*time.Time
	depAt   time.Time
}

// DispatcherConns is the size of the dispatcher's own pool: the NOTIFY listener, the claims, the
// records of attempts (short transactions) and the backlog sample of /metrics.
const DispatcherConns = 10

// maxClaim is the most rows one claim takes.
const maxClaim = 64

// claimPause is the least time between a claim that found nothing and the next, and the longest a
// wake-up waits for the batch of the attempts on the wire: it adds at most that to a delivery's
// latency and bounds the rate of empty claims (each walks the subscriptions with pending
// deliveries) to a hundred a second per process.
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
	d.successes = make(chan *recordItem, d.Workers)
	// Attempts run under their own context: the end of ctx stops the claims, not the attempts.
	attempts, cut := context.WithCancel(context.WithoutCancel(ctx))
	defer cut()
	var listener sync.WaitGroup
	listener.Add(1)
	go func() { defer listener.Done(); d.listen(ctx) }()
	done := make(chan struct{})
	go func() { defer close(done); d.loop(ctx, attempts) }()

	<-ctx.Done()
	select {
	case <-done:
	case <-time.After(d.Grace):
		if n := d.busy.Load(); n > 0 {
			d.Log.Warn("webhook attempts cut by shutdown after the grace period; their deliveries are due again", "attempts", n)
		}
		cut()
		<-done
	}
	listener.Wait()
}

// loop makes the dispatcher's claims and writes the successes the attempts queue for it
// (recorder.go), together: a batch of successes and the claim that refills the room they free are
// one transaction. Failures, and the releases of cut attempts, are written by the attempts'
// goroutines. Once ctx ends it claims nothing more and returns when every attempt of this process
// is recorded or released (attempts is their context).
func (d *Dispatcher) loop(ctx, attempts context.Context) {
	var (
		woken  = true      // something may be due: claim (a NOTIFY, a freed slot, the poll)
		resume time.Time   // claims on wake-ups wait until then (after an empty claim; waited)
		waited bool        // this wake-up waits for the batch of the attempts on the wire
		held   *recordItem // a success that came while the loop waited: the first of the next batch
	)
	for {
		stopping := ctx.Err() != nil
		if stopping && d.busy.Load() == 0 && held == nil {
			return
		}
		batch := d.gather(held)
		held = nil
		now := time.Now()
		// A wake-up while attempts are on the wire waits for their batch, up to claimPause: the
		// batch's claim serves it too. Under a steady flow a NOTIFY comes with every write, and
		// each claim of its own found the subscriptions at their caps while costing a round trip
		// and the claims' lock (behind a transaction pooler, the loop fell behind at 1 000
		// deliveries/s). Once only, so that a target that hangs delays others by claimPause at most.
		if woken && len(batch) == 0 && !stopping && !waited && !now.Before(resume) && d.sending.Load() > 0 {
			resume, waited = now.Add(claimPause), true
		}
		want := 0
		// A batch's claim refills the room its successes free; a wake-up's waits out the pause.
		if !stopping && (len(batch) > 0 || woken && !now.Before(resume)) {
			want = max(min(d.Workers-int(d.busy.Load())+len(batch), maxClaim), 0)
		}
		if len(batch) > 0 || want > 0 {
			if want > 0 {
				woken, waited = false, false
			}
			rows, lease, err := d.recordAndClaim(batch, want)
			for _, r := range rows {
				d.start(attempts, r, lease)
			}
			switch {
			case want == 0:
			case err == nil && len(rows) == want:
				woken = true // there may be more due
			case len(batch) == 0 && (err != nil || len(rows) == 0):
				// Wake-ups (a NOTIFY per committed write, a freed slot) can come faster than
				// claims find work: gather them for a moment, so that one claim serves many.
				// (A batch's claim finding nothing says nothing of the next write's rows.)
				resume = time.Now().Add(claimPause)
			}
			continue
		}
		var pause <-chan time.Time
		if woken && !stopping && time.Now().Before(resume) {
			pause = time.After(time.Until(resume))
		}
		var end <-chan struct{}
		if !stopping {
			end = ctx.Done()
		}
		select {
		case <-end:
		case <-d.wake: // a NOTIFY, a freed slot; while stopping, the last attempt's end
			woken = true
		case held = <-d.successes:
		case <-pause:
		case <-time.After(d.Poll):
			woken = true
		}
	}
}

// start makes a claimed delivery's attempt in a goroutine (a slot) of its own.
func (d *Dispatcher) start(ctx context.Context, r db.ClaimedDelivery, lease uuid.UUID) {
	d.busy.Add(1)
	d.sending.Add(1) // at once: the loop's next gather waits for this attempt
	d.Metrics.inFlightAdd(1)
	go func() {
		batched := d.deliver(ctx, r, lease)
		d.Metrics.inFlightAdd(-1)
		// A slot is free: wake the loop to claim, unless the success went in a batch, whose
		// transaction claimed for it already. The last one always does (shutdown waits for it).
		if d.busy.Add(-1) == 0 || !batched {
			d.signal()
		}
	}()
}

// listen turns NOTIFY catalogd_webhooks into wake-ups, reconnecting as needed. Its connection is a
// session of its own (store.DB.Session: behind a transaction pooler, one to
// CATALOG_DATABASE_DIRECT_URL). Without one (a transaction pooler and no direct URL) nothing
// wakes the loop but its poll (Poll), which /metrics shows (catalogd_webhook_listening 0).
func (d *Dispatcher) listen(ctx context.Context) {
	for ctx.Err() == nil {
		conn, err := d.DB.Session(ctx)
		if errors.Is(err, store.ErrNoSession) {
			d.Log.Warn("webhook dispatcher polls for deliveries every "+d.Poll.String()+" instead of listening for wake-ups: "+
				"set CATALOG_DATABASE_DIRECT_URL", "error", err.Error())
			return
		}
		if err == nil {
			if _, err = conn.Exec(ctx, "LISTEN "+events.Channel); err == nil {
				d.Metrics.listening(true)
				// Deliveries due while nobody listened are claimed now.
				d.signal()
				for {
					if _, err = conn.WaitForNotification(ctx); err != nil {
						break
					}
					d.Metrics.notified()
					d.signal()
				}
				d.Metrics.listening(false)
			}
			conn.Close(context.Background()) //nolint:errcheck // a LISTENing connection is never reused
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

// claim takes up to max due deliveries under lease, in q's transaction (one statement, so that it
// can go in a store.Round): the statement takes the claim lock first, so that the in-flight caps
// are exact across dispatchers.
func (d *Dispatcher) claim(ctx context.Context, q *db.Queries, max int, lease uuid.UUID) ([]db.ClaimedDelivery, error) {
	return q.ClaimDueDeliveries(ctx, db.ClaimDueDeliveriesParams{PerSubscription: int32(d.PerSubscription),
		PerTenant: int32(d.PerTenant), Max: int32(max), LeaseSeconds: d.Lease.Seconds(), LeaseID: lease})
}

// deliver makes one claimed delivery's attempt and records it; an attempt cut by shutdown (ctx
// cancelled) is not recorded: the delivery is released, due again with the same webhook-id. It
// reports whether the attempt was written in a batch of the loop (recordSuccess).
func (d *Dispatcher) deliver(ctx context.Context, r db.ClaimedDelivery, lease uuid.UUID) (batched bool) {
	// The attempt continues the trace of the write that recorded the event (the outbox keeps its
	// traceparent), and the receiver gets that trace's traceparent (Sender).
	var parent string
	if r.Traceparent != nil {
		parent = *r.Traceparent
	}
	ctx, span := tracing.Background(ctx, "webhook.deliver", parent, attribute.String("webhook.event_type", r.EventType),
		attribute.String("webhook.delivery", r.Uuid.String()), attribute.String("webhook.subscription", r.SubscriptionUuid.String()))
	defer span.End()
	res := d.attempt(ctx, r)
	if res.StatusCode != 0 {
		span.SetAttributes(attribute.Int("http.response.status_code", res.StatusCode))
	}
	if !res.Success {
		span.SetStatus(codes.Error, res.ErrorClass)
	}
	d.sending.Add(-1)
	received := time.Now()
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if res.ErrorClass == ClassCanceled && ctx.Err() != nil {
		d.Metrics.canceled()
		if _, err := d.DB.Q.ReleaseDeliveryLease(rctx, db.ReleaseDeliveryLeaseParams{TenantID: r.TenantID, Uuid: r.Uuid, LeaseID: &lease}); err != nil {
			// The lease runs out by itself: the delivery is sent again then.
			d.Log.Warn("webhook delivery release", "delivery", r.Uuid.String(), "error", err.Error())
		}
		return false
	}
	if r.SubscriptionStatus == "active" {
		d.Metrics.attempt(res)
	}
	var status string
	var err error
	if res.Success && r.SubscriptionStatus == "active" {
		// The common case: written by the loop with the other successes of the moment.
		status, err = "delivered", d.recordSuccess(r, lease, res)
		batched = err == nil || errors.Is(err, errLeaseLost)
	}
	if !batched && (err == nil || errors.Is(err, errNotHealthy)) {
		status, err = d.record(rctx, r, lease, res)
	}
	if err != nil {
		if !errors.Is(err, errLeaseLost) { // logged where it was found
			d.Log.Error("webhook dispatch", "delivery", r.Uuid.String(), "error", err.Error())
		}
		return batched
	}
	d.Metrics.finished(status, received.Sub(r.CreatedAt))
	return batched
}

func (d *Dispatcher) attempt(ctx context.Context, r db.ClaimedDelivery) Result {
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
	res := d.Sender.Send(ctx, req)
	if res.ErrorClass == ClassBlocked {
		d.Log.Warn("webhook target refused by the SSRF guard", "subscription", r.SubscriptionUuid.String(),
			"delivery", r.Uuid.String(), "error", res.Detail)
	}
	return res
}

// record stores an attempt and its consequences in one transaction under the subscription's
// exclusive lock: the delivery's next state, the subscription's failure counters (reset by a
// success) and, past the policy's threshold or on 410 Gone, its suspension. It is the path of
// failures, of successes that reset a failing subscription, and of attempts of inactive
// subscriptions; it returns the status the delivery was left in ("" when it was not changed).
func (d *Dispatcher) record(ctx context.Context, r db.ClaimedDelivery, lease uuid.UUID, res Result) (string, error) {
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

// recordSuccess queues a successful attempt on an active subscription for the loop, which writes
// it in one statement with the other successes of the moment (recorder.go), and waits for it:
// errNotHealthy when the subscription has failure counters to reset (nothing written: the
// exclusive path of record does it), errLeaseLost, or the batch's error.
func (d *Dispatcher) recordSuccess(r db.ClaimedDelivery, lease uuid.UUID, res Result) error {
	it := &recordItem{r: r, lease: lease, res: res, err: make(chan error, 1)}
	d.successes <- it
	return <-it.err
}

var errNotHealthy = errors.New("the subscription has failures to reset")

var errLeaseLost = leaseLost{}

type leaseLost struct{}

func (leaseLost) Error() string { return "lease lost" }

// outcome is the delivery's state after an attempt: delivered, pending with its next time, or failed.
func (d *Dispatcher) outcome(r db.ClaimedDelivery, res Result, now time.Time) (string, *time.Time) {
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
