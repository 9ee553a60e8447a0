package sysvar

import (
	"strconv"
	"time"
)

// hot caches the typed values of variables read on every statement or
// transaction, so that the accessors do not parse strings. It is updated
// from normalized values only.
type hot struct {
	autocommit          bool
	isolation           string
	readOnly            bool
	sqlMode             SQLMode
	asyncCommit         bool
	onePC               bool
	linearizability     bool
	txnMode             string
	timeZone            string
	location            *time.Location
	maxExecutionTime    uint64
	lockWaitTimeout     uint64
	autoIncIncrement    uint64
	autoIncOffset       uint64
	sqlSelectLimit      uint64
	maxAllowedPacket    uint64
	retryLimit          int64
	disableAutoRetry    bool
	planCache           bool
	memQuotaQuery       int64
	clusteredIndex      string
	distSQLConcurrency  int
	executorConcurrency int
	lastInsertID        uint64
}

// applyHot records a normalized value of name in h, if name is hot.
func (h *hot) apply(name, v string, system *time.Location) {
	switch name {
	case "autocommit":
		h.autocommit = v == "ON"
	case "transaction_isolation":
		h.isolation = v
	case "transaction_read_only":
		h.readOnly = v == "ON"
	case "sql_mode":
		m, _ := ParseSQLMode(v)
		h.sqlMode = m
	case "tidb_enable_async_commit":
		h.asyncCommit = v == "ON"
	case "tidb_enable_1pc":
		h.onePC = v == "ON"
	case "tidb_guarantee_linearizability":
		h.linearizability = v == "ON"
	case "tidb_enable_prepared_plan_cache":
		h.planCache = v == "ON"
	case "tidb_txn_mode":
		h.txnMode = v
	case "time_zone":
		h.timeZone = v
		h.location = Location(v, system)
	case "max_execution_time":
		h.maxExecutionTime = parseU(v)
	case "innodb_lock_wait_timeout":
		h.lockWaitTimeout = parseU(v)
	case "auto_increment_increment":
		h.autoIncIncrement = parseU(v)
	case "auto_increment_offset":
		h.autoIncOffset = parseU(v)
	case "sql_select_limit":
		h.sqlSelectLimit = parseU(v)
	case "max_allowed_packet":
		h.maxAllowedPacket = parseU(v)
	case "tidb_retry_limit":
		h.retryLimit = parseI(v)
	case "tidb_disable_txn_auto_retry":
		h.disableAutoRetry = v == "ON"
	case "tidb_mem_quota_query":
		h.memQuotaQuery = parseI(v)
	case "tidb_enable_clustered_index":
		h.clusteredIndex = v
	case "tidb_distsql_scan_concurrency":
		h.distSQLConcurrency = int(parseI(v))
	case "tidb_executor_concurrency":
		h.executorConcurrency = int(parseI(v))
	case "last_insert_id":
		h.lastInsertID = parseU(v)
	}
}

func parseU(v string) uint64 {
	n, _ := strconv.ParseUint(v, 10, 64)
	return n
}

func parseI(v string) int64 {
	n, _ := strconv.ParseInt(v, 10, 64)
	return n
}

// hotNames are the variables hot caches; a Globals snapshot fills them all.
var hotNames = []string{
	"autocommit", "transaction_isolation", "transaction_read_only", "sql_mode",
	"tidb_enable_async_commit", "tidb_enable_1pc", "tidb_guarantee_linearizability",
	"tidb_txn_mode", "time_zone", "max_execution_time", "innodb_lock_wait_timeout",
	"auto_increment_increment", "auto_increment_offset", "sql_select_limit",
	"max_allowed_packet", "tidb_retry_limit", "tidb_disable_txn_auto_retry",
	"tidb_mem_quota_query", "tidb_enable_clustered_index",
	"tidb_distsql_scan_concurrency", "tidb_executor_concurrency", "last_insert_id",
	"tidb_enable_prepared_plan_cache",
}
