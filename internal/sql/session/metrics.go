package session

import (
	"errors"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/strata-db/strata/internal/kv"
)

// metrics are the SQL layer's Prometheus series (served on the status
// port's /metrics).
type metrics struct {
	queries   *prometheus.CounterVec   // by statement type and result
	duration  *prometheus.HistogramVec // by statement type
	conns     prometheus.Gauge
	commits   prometheus.Counter
	conflicts prometheus.Counter
	retries   prometheus.Counter

	// byType holds each statement type's series, resolved once: the
	// point-select path then touches no label hashing or vector lock.
	byType map[string]*typeSeries

	started     time.Time
	questions   atomic.Int64 // statements, for SHOW STATUS
	connections atomic.Int64 // connections ever opened
}

// typeSeries are the series of one statement type.
type typeSeries struct {
	ok, failed prometheus.Counter
	duration   prometheus.Observer
}

// stmtTypes are the values stmtType returns.
var stmtTypes = []string{"Select", "Insert", "Replace", "Update", "Delete", "Begin", "Commit", "Rollback",
	"Set", "Show", "Use", "Explain", "DDL", "Other"}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		started: time.Now(),
		queries: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "strata_sql_queries_total", Help: "Statements executed, by type and result (ok, error).",
		}, []string{"type", "result"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "strata_sql_query_duration_seconds", Help: "Statement execution time, by type.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 2, 20), // 100 µs .. ~52 s
		}, []string{"type"}),
		conns: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "strata_sql_connections", Help: "Open client connections.",
		}),
		commits: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "strata_sql_txn_commits_total", Help: "Transactions committed.",
		}),
		conflicts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "strata_sql_txn_conflicts_total", Help: "Commits that lost a write conflict.",
		}),
		retries: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "strata_sql_stmt_retries_total", Help: "Autocommit statements re-run after a write conflict.",
		}),
	}
	if reg != nil {
		reg.MustRegister(m.queries, m.duration, m.conns, m.commits, m.conflicts, m.retries)
	}
	m.byType = make(map[string]*typeSeries, len(stmtTypes))
	for _, typ := range stmtTypes {
		m.byType[typ] = &typeSeries{
			ok:       m.queries.WithLabelValues(typ, "ok"),
			failed:   m.queries.WithLabelValues(typ, "error"),
			duration: m.duration.WithLabelValues(typ),
		}
	}
	return m
}

// observe records one statement.
func (m *metrics) observe(typ string, start time.Time, err error) {
	m.questions.Add(1)
	ts := m.byType[typ]
	if ts == nil {
		ts = m.byType["Other"]
	}
	if err != nil {
		ts.failed.Inc()
	} else {
		ts.ok.Inc()
	}
	ts.duration.Observe(time.Since(start).Seconds())
}

// committed records the outcome of a commit.
func (m *metrics) committed(err error) {
	switch {
	case err == nil:
		m.commits.Inc()
	case errors.Is(err, kv.ErrWriteConflict):
		m.conflicts.Inc()
	}
}

// stmtType is the metrics label of a statement: a small fixed set.
func stmtType(stmt ast.StmtNode) string {
	switch stmt := stmt.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		return "Select"
	case *ast.InsertStmt:
		if stmt.IsReplace {
			return "Replace"
		}
		return "Insert"
	case *ast.UpdateStmt:
		return "Update"
	case *ast.DeleteStmt:
		return "Delete"
	case *ast.BeginStmt:
		return "Begin"
	case *ast.CommitStmt:
		return "Commit"
	case *ast.RollbackStmt:
		return "Rollback"
	case *ast.SetStmt:
		return "Set"
	case *ast.ShowStmt:
		return "Show"
	case *ast.UseStmt:
		return "Use"
	case *ast.ExplainStmt:
		return "Explain"
	}
	if isDDL(stmt) {
		return "DDL"
	}
	return "Other"
}

// statusVars are the rows of SHOW [GLOBAL] STATUS, sorted by name.
func (d *Domain) statusVars() [][]string {
	d.mu.Lock()
	conns := len(d.sessions)
	d.mu.Unlock()
	m := d.metrics
	return [][]string{
		{"Connections", strconv.FormatInt(m.connections.Load(), 10)},
		{"Questions", strconv.FormatInt(m.questions.Load(), 10)},
		{"Threads_connected", strconv.Itoa(conns)},
		{"Uptime", strconv.FormatInt(int64(time.Since(m.started).Seconds()), 10)},
	}
}
