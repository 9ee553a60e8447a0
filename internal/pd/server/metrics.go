package server

import "github.com/prometheus/client_golang/prometheus"

// metrics are PD's own counters, in a registry per server (tests run
// several servers in one process); /metrics serves them together with
// etcd's and the Go runtime's from the default registry.
type metrics struct {
	reg              *prometheus.Registry
	tsoRequests      prometheus.Counter
	tsoTimestamps    prometheus.Counter
	regionHeartbeats prometheus.Counter
	storeHeartbeats  prometheus.Counter
	idsAllocated     prometheus.Counter
	isLeader         prometheus.Gauge
}

func newMetrics() *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		tsoRequests: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "strata_pd_tso_requests_total", Help: "TSO requests (batches) served.",
		}),
		tsoTimestamps: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "strata_pd_tso_timestamps_total", Help: "Timestamps handed out.",
		}),
		regionHeartbeats: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "strata_pd_region_heartbeats_total", Help: "Region heartbeats received.",
		}),
		storeHeartbeats: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "strata_pd_store_heartbeats_total", Help: "Store heartbeats received.",
		}),
		idsAllocated: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "strata_pd_ids_allocated_total", Help: "IDs handed out by AllocID and AskBatchSplit.",
		}),
		isLeader: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "strata_pd_is_leader", Help: "1 while this member leads PD.",
		}),
	}
	m.reg.MustRegister(m.tsoRequests, m.tsoTimestamps, m.regionHeartbeats, m.storeHeartbeats, m.idsAllocated, m.isLeader)
	return m
}
