package assetfiles

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics are the worker's figures on /metrics. They carry no tenant label (their number must
// not grow with the data). A nil *Metrics records nothing.
type Metrics struct {
	renditions *prometheus.CounterVec
	seconds    prometheus.Histogram
	deletions  *prometheus.CounterVec
	expiredN   prometheus.Counter
}

// NewMetrics registers on reg: catalogd_renditions_total{outcome} (made, gone, unsupported,
// too_large, corrupt, skipped, retry, gave_up, canceled), catalogd_rendition_seconds (one job
// that made renditions: read, decode, both renditions, store, commit), catalogd_blob_deletions_total{outcome} (deleted,
// error, kept) and catalogd_uploads_expired_total.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		renditions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "catalogd_renditions_total",
			Help: "Rendition jobs this process ended, by outcome: made, gone (original deleted or made elsewhere), unsupported, too_large, corrupt, skipped, retry, gave_up, canceled (shutdown)."},
			[]string{"outcome"}),
		seconds: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "catalogd_rendition_seconds",
			Help:    "Time of one rendition job that made renditions: reading and decoding the original, making and storing both renditions, committing them.",
			Buckets: []float64{.05, .1, .25, .5, 1, 2, 5, 10, 30, 60, 300}}),
		deletions: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "catalogd_blob_deletions_total",
			Help: "Objects the blob collector handled, by outcome: deleted, error (retried later), kept (still in use or invalid key; row dropped)."},
			[]string{"outcome"}),
		expiredN: prometheus.NewCounter(prometheus.CounterOpts{Name: "catalogd_uploads_expired_total",
			Help: "Pending asset files failed because their upload URL expired before complete-upload."}),
	}
	for _, o := range renditionOutcomes {
		m.renditions.WithLabelValues(o)
	}
	for _, o := range []string{deletionDeleted, deletionError, deletionKept} {
		m.deletions.WithLabelValues(o)
	}
	reg.MustRegister(m.renditions, m.seconds, m.deletions, m.expiredN)
	return m
}

func (m *Metrics) rendition(outcome string) {
	if m != nil {
		m.renditions.WithLabelValues(outcome).Inc()
	}
}

func (m *Metrics) duration(d time.Duration) {
	if m != nil {
		m.seconds.Observe(d.Seconds())
	}
}

func (m *Metrics) deletion(outcome string) {
	if m != nil {
		m.deletions.WithLabelValues(outcome).Inc()
	}
}

func (m *Metrics) expired(n int) {
	if m != nil {
		m.expiredN.Add(float64(n))
	}
}
