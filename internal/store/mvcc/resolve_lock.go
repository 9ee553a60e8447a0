package mvcc

import (
	"github.com/strata-db/strata/internal/kv"
)

// ResolveLock resolves key for the txn startTS (reference §2.6):
// commitTS == 0 rolls it back (Cleanup without TTL check, unprotected
// except on primaries; a committed key yields *CommittedError), commitTS >
// startTS commits it (a leftover Pessimistic lock is just deleted, see
// Commit), anything else is *kv.InvalidTxnTsoError.
func ResolveLock(t *Txn, r *Reader, key []byte, startTS, commitTS uint64) error {
	if commitTS == 0 {
		return Rollback(t, r, key, startTS)
	}
	if commitTS <= startTS {
		return &kv.InvalidTxnTsoError{StartTS: startTS, CommitTS: commitTS}
	}
	return Commit(t, r, key, startTS, commitTS)
}
