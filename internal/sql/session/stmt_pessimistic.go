package session

import (
	"context"
	"errors"

	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/kv"
)

// maxPessimisticRetries bounds how often one statement of a pessimistic
// transaction is re-run after a write conflict (TiDB's
// pessimistic-txn.max-retry-count).
const maxPessimisticRetries = 256

// pessimisticStmt is one execution of a statement in a pessimistic
// transaction, over the txn as of forUpdateTS; it returns the keys to lock
// and a function that keeps its writes once they are locked.
type pessimisticStmt func(view kv.Transaction, forUpdateTS uint64) (keys []kv.Key, keep func() error, err error)

// runPessimistic runs a DML statement or SELECT ... FOR UPDATE of an
// explicit pessimistic transaction (reference §5.4): it executes at a
// fresh for_update_ts (a "current read" of the latest committed rows,
// its writes staged; a point statement may first try the txn's current
// one, see pointOnly), locks the keys it wrote or selected, and keeps its
// writes. A write committed on one of those keys after for_update_ts
// means the statement read stale rows: its staged writes are dropped and
// it runs again at a newer for_update_ts. A deadlock rolls the whole
// transaction back (MySQL 1213); a lock wait timeout fails the statement
// only (1205, innodb_rollback_on_timeout=OFF).
//
// pointOnly (see pointDML): the statement locks the rows it reads, so its
// first run may read at the txn's current for_update_ts instead of a new
// one; a newer commit on what it read makes it run again. So does an
// error of that first run: a duplicate-key or value check may have read
// a stale row it does not lock.
func (s *Session) runPessimistic(ctx context.Context, txn *txnclient.Txn, pointOnly bool, run pessimisticStmt) error {
	for attempt := 0; ; attempt++ {
		forUpdateTS, err := txn.ForUpdateTS(ctx)
		if err != nil {
			return err
		}
		reused := attempt == 0 && pointOnly && txn.LockedKeys() > 0
		if attempt > 0 || (txn.LockedKeys() > 0 && !pointOnly) {
			// The first statement may read at start_ts: nothing it could
			// lock has been read at another ts yet.
			ts, err := txn.NewForUpdateTS(ctx)
			if err != nil {
				return err
			}
			forUpdateTS = ts
		}
		keys, keep, err := run(txn.ForUpdateView(forUpdateTS), forUpdateTS)
		if err != nil {
			if reused && ctx.Err() == nil {
				continue
			}
			return err
		}
		err = txn.LockKeys(ctx, txnclient.LockOptions{ForUpdateTS: forUpdateTS, Wait: s.vars.LockWaitTimeout()}, keys...)
		var wc *kv.WriteConflictError
		switch {
		case err == nil:
			return keep()
		case errors.As(err, &wc) && wc.Reason == kv.ConflictPessimisticRetry && attempt < maxPessimisticRetries:
			s.d.metrics.retries.Inc()
			continue
		case errors.Is(err, kv.ErrDeadlock):
			_ = s.rollback()
		}
		return err
	}
}
