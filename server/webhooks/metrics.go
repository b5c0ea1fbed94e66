package webhooks

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/catalogd/catalogd/server/store"
)

// Outcomes of catalogd_webhook_attempts_total besides the error classes of Result.ErrorClass.
const (
	OutcomeSuccess   = "success"
	OutcomeHTTPError = "http_error" // an HTTP answer that is neither 2xx nor a redirect
	// OutcomeCanceled: cut by shutdown after the grace period; not recorded, the delivery is due again.
	OutcomeCanceled = "canceled"
)

// Metrics are the dispatcher's figures on /metrics (catalogd_webhook_*). They carry no tenant or
// subscription label: their number must not grow with the data. A nil *Metrics records nothing.
type Metrics struct {
	deliveries *prometheus.CounterVec
	attempts   *prometheus.CounterVec
	latency    prometheus.Histogram
	duration   prometheus.Histogram
	inFlight   prometheus.Gauge
	// listen and notifications show how deliveries are woken (Dispatcher.listen).
	listen        prometheus.Gauge
	notifications prometheus.Counter
}

// NewMetrics registers the dispatcher's metrics on reg, and, when backlog is not nil, the backlog
// gauges sampled from that database on scrape (see BacklogCollector).
func NewMetrics(reg prometheus.Registerer, backlog *store.DB) *Metrics {
	m := &Metrics{
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "catalogd_webhook_deliveries_total",
			Help: "Deliveries the dispatcher finished, by outcome (delivered, failed)."}, []string{"outcome"}),
		attempts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "catalogd_webhook_attempts_total",
			Help: "Delivery attempts, by outcome: success, http_error, an error class (timeout, dns, tls, refused, reset, redirect, ssrf_blocked, network, secret) or canceled (cut by shutdown, not recorded)."},
			[]string{"outcome"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "catalogd_webhook_delivery_latency_seconds",
			Help:    "Time from a delivery's creation (the commit of its event) to its successful receipt, retries included.",
			Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2, 5, 10, 30, 60, 300, 1800, 3600, 7200, 21600, 86400}}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "catalogd_webhook_attempt_duration_seconds",
			Help:    "Duration of one delivery attempt, from the request to the end of the response (or the error).",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 15, 30}}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: "catalogd_webhook_attempts_in_flight",
			Help: "Delivery attempts this process is making now."}),
		listen: prometheus.NewGauge(prometheus.GaugeOpts{Name: "catalogd_webhook_listening",
			Help: "1 while the dispatcher LISTENs for wake-ups (a write's NOTIFY starts its delivery at once); 0 while it only polls (every second): behind a transaction pooler without CATALOG_DATABASE_DIRECT_URL, while its connection is lost, or in a process that runs no dispatcher."}),
		notifications: prometheus.NewCounter(prometheus.CounterOpts{Name: "catalogd_webhook_notifications_total",
			Help: "Wake-ups (NOTIFY) the dispatcher received."}),
	}
	for _, o := range []string{"delivered", "failed"} {
		m.deliveries.WithLabelValues(o)
	}
	for _, o := range []string{OutcomeSuccess, OutcomeHTTPError, ClassTimeout, ClassDNS, ClassTLS, ClassRefused, ClassReset,
		ClassRedirect, ClassBlocked, ClassNetwork, ClassSecret, OutcomeCanceled} {
		m.attempts.WithLabelValues(o)
	}
	reg.MustRegister(m.deliveries, m.attempts, m.latency, m.duration, m.inFlight, m.listen, m.notifications)
	if backlog != nil {
		reg.MustRegister(&BacklogCollector{DB: backlog})
	}
	return m
}

// attemptOutcome is the outcome label of an attempt that got a result.
func attemptOutcome(res Result) string {
	switch {
	case res.Success:
		return OutcomeSuccess
	case res.ErrorClass != "":
		return res.ErrorClass
	}
	return OutcomeHTTPError
}

func (m *Metrics) attempt(res Result) {
	if m == nil {
		return
	}
	m.attempts.WithLabelValues(attemptOutcome(res)).Inc()
	m.duration.Observe(res.Duration.Seconds())
}

func (m *Metrics) listening(on bool) {
	if m != nil {
		m.listen.Set(map[bool]float64{false: 0, true: 1}[on])
	}
}

func (m *Metrics) notified() {
	if m != nil {
		m.notifications.Inc()
	}
}

func (m *Metrics) canceled() {
	if m != nil {
		m.attempts.WithLabelValues(OutcomeCanceled).Inc()
	}
}

// finished counts a delivery that reached delivered or failed; latency is observed for delivered ones.
func (m *Metrics) finished(status string, latency time.Duration) {
	if m == nil || (status != "delivered" && status != "failed") {
		return
	}
	m.deliveries.WithLabelValues(status).Inc()
	if status == "delivered" {
		m.latency.Observe(max(latency, 0).Seconds())
	}
}

func (m *Metrics) inFlightAdd(n int) {
	if m != nil {
		m.inFlight.Add(float64(n))
	}
}

// BacklogCollector samples the delivery backlog from the database when /metrics is scraped:
// catalogd_webhook_pending_deliveries and catalogd_webhook_oldest_due_seconds. One query, bounded
// by Timeout (default 2 s) and taken at most once per MinInterval (default 1 s; scrapes in between
// get the last sample). A failed sample leaves the figures out of that scrape rather than lying.
type BacklogCollector struct {
	DB          *store.DB
	Timeout     time.Duration
	MinInterval time.Duration

	mu      sync.Mutex
	at      time.Time
	ok      bool
	pending float64
	oldest  float64
}

var (
	pendingDesc = prometheus.NewDesc("catalogd_webhook_pending_deliveries",
		"Pending deliveries (due, scheduled for a retry, or in flight), sampled on scrape.", nil, nil)
	oldestDesc = prometheus.NewDesc("catalogd_webhook_oldest_due_seconds",
		"How long the oldest due pending delivery has been waiting to be sent (0 when none is due), sampled on scrape.", nil, nil)
)

// Describe implements prometheus.Collector.
func (c *BacklogCollector) Describe(ch chan<- *prometheus.Desc) { ch <- pendingDesc; ch <- oldestDesc }

// Collect implements prometheus.Collector.
func (c *BacklogCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	defer c.mu.Unlock()
	interval, timeout := c.MinInterval, c.Timeout
	if interval <= 0 {
		interval = time.Second
	}
	if timeout <= 0 {
		timeout = 2 * time.Second
	}
	if c.at.IsZero() || time.Since(c.at) >= interval {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		row, err := c.DB.Q.DeliveryBacklog(ctx)
		cancel()
		c.at, c.ok = time.Now(), err == nil
		if err == nil {
			c.pending, c.oldest = float64(row.Pending), row.OldestDueSeconds
		}
	}
	if !c.ok {
		return
	}
	ch <- prometheus.MustNewConstMetric(pendingDesc, prometheus.GaugeValue, c.pending)
	ch <- prometheus.MustNewConstMetric(oldestDesc, prometheus.GaugeValue, c.oldest)
}
