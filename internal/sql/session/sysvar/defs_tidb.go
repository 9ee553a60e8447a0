package sysvar

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// Values of tidb_txn_mode.
const (
	TxnModeOptimistic  = "optimistic"
	TxnModePessimistic = "pessimistic"
)

// Values of tidb_enable_clustered_index.
const (
	ClusteredOff     = "OFF"
	ClusteredOn      = "ON"
	ClusteredIntOnly = "INT_ONLY"
)

// tidbVars are TiDB's variables that Strata implements or accepts, with
// TiDB's names and meanings.
func tidbVars() []SysVar {
	return []SysVar{
		// Pessimistic is the default, as in TiDB since 3.0.8: explicit
		// transactions lock what they write and wait instead of failing at
		// COMMIT. Autocommit statements run optimistic either way.
		validated(strVar(ScopeBoth, "tidb_txn_mode", TxnModePessimistic), validateTxnMode),
		boolVar(ScopeBoth, "tidb_enable_async_commit", true),
		boolVar(ScopeBoth, "tidb_enable_1pc", true),
		boolVar(ScopeBoth, "tidb_guarantee_linearizability", true),
		// INT_ONLY: integer primary keys are clustered (the handle), others
		// are not, which is what issue 3 builds.
		enumVar(ScopeBoth, "tidb_enable_clustered_index", ClusteredIntOnly, ClusteredOff, ClusteredOn, ClusteredIntOnly),
		noop(boolVar(ScopeGlobal, "tidb_enable_tso_follower_proxy", false)),
		// How many TSO requests this server's PD client may have on the
		// wire at once: DEFAULT 1, PARALLEL 2, PARALLEL-FAST 4 (TiDB's
		// meaning). PARALLEL by default, unlike TiDB's DEFAULT: on a
		// 2-core playground it served 7-9% more sysbench oltp_insert and
		// oltp_update_non_index than DEFAULT, better in every round
		// (bench/cluster/ab.sh), and PARALLEL-FAST less than PARALLEL.
		enumVar(ScopeGlobal, "tidb_tso_client_rpc_mode", "PARALLEL", "DEFAULT", "PARALLEL", "PARALLEL-FAST"),
		intVar(ScopeBoth, "tidb_hashagg_partial_concurrency", "-1", -1, 256),
		intVar(ScopeBoth, "tidb_hashagg_final_concurrency", "-1", -1, 256),
		intVar(ScopeBoth, "tidb_distsql_scan_concurrency", "15", 1, 256),
		intVar(ScopeBoth, "tidb_executor_concurrency", "5", 1, 256),
		intVar(ScopeBoth, "tidb_index_lookup_concurrency", "-1", -1, 256),
		intVar(ScopeBoth, "tidb_mem_quota_query", "1073741824", -1, math.MaxInt64),
		intVar(ScopeBoth, "tidb_retry_limit", "10", -1, math.MaxInt64),
		boolVar(ScopeBoth, "tidb_disable_txn_auto_retry", true),
		validated(strVar(ScopeSession, "tidb_snapshot", ""), validateSnapshot),
		{Name: "tidb_current_ts", Scope: ScopeSession, Type: TypeUint, Default: "0", MaxUint: math.MaxUint64, ReadOnly: true, Dynamic: true},
		boolVar(ScopeGlobal, "tidb_enable_prepared_plan_cache", true),
		intVar(ScopeGlobal, "tidb_prepared_plan_cache_size", "100", 1, 100000),
		boolVar(ScopeBoth, "tidb_skip_isolation_level_check", false),
		intVar(ScopeBoth, "tidb_init_chunk_size", "32", 1, 32),
		intVar(ScopeBoth, "tidb_max_chunk_size", "1024", 32, math.MaxInt32),
		noop(intVar(ScopeBoth, "tidb_dml_batch_size", "0", 0, math.MaxInt32)),
		noop(boolVar(ScopeBoth, "tidb_batch_insert", false)),
		boolVar(ScopeGlobal, "tidb_general_log", false),
		// The GOGC tuner (internal/gctuner) of this process; TiDB's name.
		boolVar(ScopeGlobal, "tidb_enable_gogc_tuner", true),
		boolVar(ScopeGlobal, "tidb_gc_enable", true),
		validated(strVar(ScopeGlobal, "tidb_gc_life_time", "10m0s"), validateDuration("tidb_gc_life_time", 10*time.Minute)),
		noop(enumVar(ScopeBoth, "tidb_replica_read", "leader", "leader", "follower", "leader-and-follower", "closest-replicas", "closest-adaptive")),
	}
}

func validateTxnMode(v string) (string, []error, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", TxnModeOptimistic:
		return TxnModeOptimistic, nil, nil
	case TxnModePessimistic:
		return TxnModePessimistic, nil, nil
	}
	return "", nil, errWrongValue("tidb_txn_mode", v)
}

// validateSnapshot accepts "", a TSO, or a datetime
// 'YYYY-MM-DD HH:MM:SS[.ffffff]'.
func validateSnapshot(v string) (string, []error, error) {
	t := strings.TrimSpace(v)
	if t == "" {
		return "", nil, nil
	}
	if _, err := strconv.ParseUint(t, 10, 64); err == nil {
		return t, nil, nil
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999", "2006-01-02 15:04:05", "2006-01-02"} {
		if _, err := time.Parse(layout, t); err == nil {
			return t, nil, nil
		}
	}
	return "", nil, errWrongValue("tidb_snapshot", v)
}

// validateDuration accepts a Go duration of at least lo ("10m0s", "24h"),
// stored as time.Duration.String; shorter values clamp with a warning.
func validateDuration(name string, lo time.Duration) func(string) (string, []error, error) {
	return func(v string) (string, []error, error) {
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil {
			return "", nil, errWrongValue(name, v)
		}
		if d < lo {
			return lo.String(), []error{&Error{Kind: WarnTruncated, Name: name, Value: v}}, nil
		}
		return d.String(), nil, nil
	}
}
