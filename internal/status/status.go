// Package status serves the status port every strata process has (DESIGN.md,
// "Processes"): /status (JSON: role, version, addresses, uptime), /metrics
// (Prometheus) and /debug/pprof.
package status

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Info is what /status reports.
type Info struct {
	Role    string            `json:"role"`
	Version string            `json:"version"`
	Addrs   map[string]string `json:"addrs"`
}

// Server is a running status HTTP server.
type Server struct {
	srv      *http.Server
	lis      net.Listener
	mux      *http.ServeMux
	Registry *prometheus.Registry
}

// Handle adds a handler to the status port (a process's own endpoints,
// e.g. fault injection for tests).
func (s *Server) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// Start listens on addr and serves the status endpoints. Collectors for Go
// runtime and process metrics are registered; callers add their own to
// Registry.
func Start(addr string, info Info) (*Server, error) {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(collectors.MetricsScheduler)), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	started := time.Now()
	mux := http.NewServeMux()
	mux.HandleFunc("/status", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(struct {
			Info
			UptimeSeconds float64 `json:"uptime_seconds"`
		}{info, time.Since(started).Seconds()})
	})
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	s := &Server{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}, lis: lis, mux: mux, Registry: reg}
	go s.srv.Serve(lis)
	return s, nil
}

// Addr is the bound address.
func (s *Server) Addr() string { return s.lis.Addr().String() }

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }
