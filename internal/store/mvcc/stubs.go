package mvcc

import "github.com/strata-db/strata/internal/kv"

// Prewrite prewrites one mutation (reference §2.2 steps 1-5).
func Prewrite(t *Txn, r *Reader, p *PrewriteParams, m Mutation) (minCommitTS uint64, err error) {
	return 0, kv.ErrNotSupported
}

// Commit commits key of the txn startTS at commitTS (§2.3).
func Commit(t *Txn, r *Reader, key []byte, startTS, commitTS uint64) error {
	return kv.ErrNotSupported
}

// Rollback rolls key back for BatchRollback (§2.4).
func Rollback(t *Txn, r *Reader, key []byte, startTS uint64) error { return kv.ErrNotSupported }

// Cleanup rolls key back unless committed (§2.4).
func Cleanup(t *Txn, r *Reader, key []byte, startTS, currentTS uint64, protect bool) (committedTS uint64, err error) {
	return 0, kv.ErrNotSupported
}

// CheckTxnStatus checks the primary of a txn (§2.5).
func CheckTxnStatus(t *Txn, r *Reader, p *CheckTxnStatusParams) (TxnStatus, error) {
	return TxnStatus{}, kv.ErrNotSupported
}

// CheckSecondaryLock checks one secondary key of an async-commit txn (§2.6).
func CheckSecondaryLock(t *Txn, r *Reader, key []byte, startTS uint64) (SecondaryLockStatus, error) {
	return SecondaryLockStatus{}, kv.ErrNotSupported
}

// TxnHeartBeat raises the TTL of the txn's primary lock (§2.6).
func TxnHeartBeat(t *Txn, r *Reader, primary []byte, startTS, adviseTTL uint64) (ttl uint64, err error) {
	return 0, kv.ErrNotSupported
}

// ResolveLock commits (commitTS > 0) or rolls back key's lock of startTS.
func ResolveLock(t *Txn, r *Reader, key []byte, startTS, commitTS uint64) error {
	return kv.ErrNotSupported
}

// Scan reads up to limit keys visible at ts (§2.1).
func (r *Reader) Scan(start, end []byte, limit int, ts uint64, reverse bool, o *ReadOptions) ([]Pair, error) {
	return nil, kv.ErrNotSupported
}

// ScanLocks returns up to limit locks in [start, end) with ts <= maxTS.
func (r *Reader) ScanLocks(start, end []byte, maxTS uint64, limit int) ([]kv.LockInfo, error) {
	return nil, kv.ErrNotSupported
}

// ScanTxnLocks returns up to limit keys in [start, end) locked by startTS.
func (r *Reader) ScanTxnLocks(start, end []byte, startTS uint64, limit int) ([][]byte, error) {
	return nil, kv.ErrNotSupported
}
