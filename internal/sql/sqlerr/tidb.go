package sqlerr

// TiDB-specific error numbers (TiDB's pkg/errno; not in the parser's MySQL
// list), with TiDB's values and messages so that clients and tools written
// for TiDB recognise them.
const (
	// ErrForUpdateCantRetry: a transaction that ran SELECT ... FOR UPDATE
	// conflicted at commit and cannot be retried inside the server.
	ErrForUpdateCantRetry uint16 = 8002
	// ErrTxnTooLarge: the transaction exceeds
	// performance.txn-total-size-limit (kv.ErrTxnTooLarge).
	ErrTxnTooLarge uint16 = 8004
	// ErrTxnRetryable: a commit failed with a retryable storage error and
	// the transaction was rolled back (kv.ErrTxnRetryable).
	ErrTxnRetryable uint16 = 8022
	// ErrInfoSchemaChanged: the schema changed under a running transaction.
	ErrInfoSchemaChanged uint16 = 8028
	// ErrMultiStatementDisabled: several statements in one COM_QUERY on a
	// connection without CLIENT_MULTI_STATEMENTS.
	ErrMultiStatementDisabled uint16 = 8130
	// ErrRegionUnavailable: storage could not be reached within the backoff
	// budget (kv.ErrRegionUnavailable).
	ErrRegionUnavailable uint16 = 9005
	// ErrWriteConflict: an optimistic transaction met a newer write at
	// commit (kv.ErrWriteConflict). Clients retry the transaction.
	ErrWriteConflict uint16 = 9007
)

var tidbMessages = map[uint16]string{
	// MySQL's own wording, not the parser table's "This version of TiDB".
	ErrNotSupportedYet:        "This version of Strata doesn't yet support '%s'",
	ErrForUpdateCantRetry:     "[%d] can not retry select for update statement",
	ErrTxnTooLarge:            "Transaction is too large, size: %d",
	ErrTxnRetryable:           "%s",
	ErrInfoSchemaChanged:      "Information schema is changed during the execution of the statement(for example, table definition may be updated by other DDL ran in parallel). If you see this error often, try increasing `tidb_max_delta_schema_count`. [try again later]",
	ErrMultiStatementDisabled: "client has multi-statement capability disabled. Run SET GLOBAL tidb_multi_statement_mode='ON' after you understand the security risk",
	ErrRegionUnavailable:      "Region is unavailable",
	ErrWriteConflict:          "Write conflict, txnStartTS=%d, conflictStartTS=%d, conflictCommitTS=%d, key=%s, reason=%s [try again later]",
}

var tidbStates = map[uint16]string{
	ErrForUpdateCantRetry:     "HY000",
	ErrTxnTooLarge:            "HY000",
	ErrTxnRetryable:           "HY000",
	ErrInfoSchemaChanged:      "HY000",
	ErrMultiStatementDisabled: "HY000",
	ErrRegionUnavailable:      "HY000",
	ErrWriteConflict:          "HY000",
}
