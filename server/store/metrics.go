package store

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// PoolCollector exposes the figures of the service's database pools (pgxpool.Stat) on /metrics,
// one series per pool, labelled pool="api", "dispatcher", "ops", …; never by tenant. Add a pool
// when it is opened; the collector reads its figures at every scrape.
type PoolCollector struct {
	mu    sync.Mutex
	names []string
	pools []*DB
}

// NewPoolCollector returns a collector with no pools yet.
func NewPoolCollector() *PoolCollector { return &PoolCollector{} }

// Add exposes d's pool under name (a pool added again under the same name replaces the earlier
// one).
func (c *PoolCollector) Add(name string, d *DB) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, n := range c.names {
		if n == name {
			c.pools[i] = d
			return
		}
	}
	c.names = append(c.names, name)
	c.pools = append(c.pools, d)
}

func poolDesc(name, help string) *prometheus.Desc {
	return prometheus.NewDesc("catalogd_db_pool_"+name, help, []string{"pool"}, nil)
}

var (
	descInUse       = poolDesc("in_use_connections", "Connections of the pool currently acquired by a request or worker.")
	descIdle        = poolDesc("idle_connections", "Idle connections of the pool.")
	descTotal       = poolDesc("connections", "Connections of the pool (in use, idle and being opened).")
	descMax         = poolDesc("max_connections", "The pool's size.")
	descAcquires    = poolDesc("acquires_total", "Successful acquires of a connection from the pool.")
	descWaits       = poolDesc("acquire_waits_total", "Acquires that had to wait: no idle connection and a new one could not be opened at once.")
	descWaitSeconds = poolDesc("acquire_wait_seconds_total", "Time spent in acquires that had to wait.")
	descAcquireSecs = poolDesc("acquire_seconds_total", "Time spent in all successful acquires.")
	descCanceled    = poolDesc("canceled_acquires_total", "Acquires that ended because their request was cancelled or ran out of time.")
	descNewConns    = poolDesc("new_connections_total", "Connections the pool opened (a rise after an outage shows the reconnects).")
)

// Describe implements prometheus.Collector.
func (c *PoolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descInUse, descIdle, descTotal, descMax, descAcquires, descWaits,
		descWaitSeconds, descAcquireSecs, descCanceled, descNewConns} {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *PoolCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.Lock()
	names, pools := append([]string(nil), c.names...), append([]*DB(nil), c.pools...)
	c.mu.Unlock()
	for i, d := range pools {
		s := d.Pool.Stat()
		n := names[i]
		gauge := func(desc *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(desc, prometheus.GaugeValue, v, n)
		}
		counter := func(desc *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(desc, prometheus.CounterValue, v, n)
		}
		gauge(descInUse, float64(s.AcquiredConns()))
		gauge(descIdle, float64(s.IdleConns()))
		gauge(descTotal, float64(s.TotalConns()))
		gauge(descMax, float64(s.MaxConns()))
		counter(descAcquires, float64(s.AcquireCount()))
		counter(descWaits, float64(s.EmptyAcquireCount()))
		counter(descWaitSeconds, s.EmptyAcquireWaitTime().Seconds())
		counter(descAcquireSecs, s.AcquireDuration().Seconds())
		counter(descCanceled, float64(s.CanceledAcquireCount()))
		counter(descNewConns, float64(s.NewConnsCount()))
	}
}
