package database

import (
	"github.com/prometheus/client_golang/prometheus"
)

// poolCollector reads the pool's statistics at each scrape.
type poolCollector struct {
	db                                                  *DB
	conns, max                                          *prometheus.Desc
	acquires, emptyAcquires, canceledAcquires, acquireS *prometheus.Desc
}

// Collector is the pool's metrics, read at each scrape: connections
// (dsh_pg_pool_connections{state=acquired|idle|constructing}), the
// maximum, acquisitions and those that had to wait for a connection or
// were cancelled, and the time spent acquiring.
func (d *DB) Collector() prometheus.Collector {
	return &poolCollector{
		db:               d,
		conns:            prometheus.NewDesc("dsh_pg_pool_connections", "PostgreSQL pool connections by state.", []string{"state"}, nil),
		max:              prometheus.NewDesc("dsh_pg_pool_max_connections", "The most connections the PostgreSQL pool opens.", nil, nil),
		acquires:         prometheus.NewDesc("dsh_pg_pool_acquires_total", "Connections taken from the PostgreSQL pool.", nil, nil),
		emptyAcquires:    prometheus.NewDesc("dsh_pg_pool_empty_acquires_total", "Acquisitions that found no idle connection and waited for one.", nil, nil),
		canceledAcquires: prometheus.NewDesc("dsh_pg_pool_canceled_acquires_total", "Acquisitions cancelled before they got a connection.", nil, nil),
		acquireS:         prometheus.NewDesc("dsh_pg_pool_acquire_seconds_total", "Time spent acquiring connections from the PostgreSQL pool.", nil, nil),
	}
}

func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.conns, c.max, c.acquires, c.emptyAcquires, c.canceledAcquires, c.acquireS} {
		ch <- d
	}
}

func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.db.Pool.Stat()
	ch <- prometheus.MustNewConstMetric(c.conns, prometheus.GaugeValue, float64(s.AcquiredConns()), "acquired")
	ch <- prometheus.MustNewConstMetric(c.conns, prometheus.GaugeValue, float64(s.IdleConns()), "idle")
	ch <- prometheus.MustNewConstMetric(c.conns, prometheus.GaugeValue, float64(s.ConstructingConns()), "constructing")
	ch <- prometheus.MustNewConstMetric(c.max, prometheus.GaugeValue, float64(s.MaxConns()))
	ch <- prometheus.MustNewConstMetric(c.acquires, prometheus.CounterValue, float64(s.AcquireCount()))
	ch <- prometheus.MustNewConstMetric(c.emptyAcquires, prometheus.CounterValue, float64(s.EmptyAcquireCount()))
	ch <- prometheus.MustNewConstMetric(c.canceledAcquires, prometheus.CounterValue, float64(s.CanceledAcquireCount()))
	ch <- prometheus.MustNewConstMetric(c.acquireS, prometheus.CounterValue, s.AcquireDuration().Seconds())
}
