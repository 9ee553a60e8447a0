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
// pointOnly (see pointDML): the statement locks every row it reads, as
// it reads it (txnclient.LockingView): the lock returns the row, so a row
// costs one round trip instead of a read and then a lock, as in TiDB. A
// lock fails on a write committed after its for_update_ts, so what the
// statement read is current whatever ts it ran at: its first run may use
// the txn's current for_update_ts instead of a new one from PD, and a
// newer commit on what it read makes it run again. Locks a failed run
// took stay with the transaction, as InnoDB keeps the row locks of a
// failed statement.
func (s *Session) runPessimistic(ctx context.Context, txn *txnclient.Txn, pointOnly bool, run pessimisticStmt) error {
	for attempt := 0; ; attempt++ {
		forUpdateTS, err := txn.ForUpdateTS(ctx)
		if err != nil {
			return err
		}
		if attempt > 0 || (txn.LockedKeys() > 0 && !pointOnly) {
			// The first statement may read at start_ts: nothing it could
			// lock has been read at another ts yet.
			ts, err := txn.NewForUpdateTS(ctx)
			if err != nil {
				return err
			}
			forUpdateTS = ts
		}
		lo := txnclient.LockOptions{ForUpdateTS: forUpdateTS, Wait: s.vars.LockWaitTimeout()}
		var view kv.Transaction
		if pointOnly {
			view = txn.LockingView(lo)
		} else {
			view = txn.ForUpdateView(forUpdateTS)
		}
		keys, keep, err := run(view, forUpdateTS)
		if err == nil {
			if err = txn.LockKeys(ctx, lo, keys...); err == nil {
				return keep()
			}
		}
		var wc *kv.WriteConflictError
		switch {
		case errors.As(err, &wc) && wc.Reason == kv.ConflictPessimisticRetry && attempt < maxPessimisticRetries:
			s.d.metrics.retries.Inc()
			continue
		case errors.Is(err, kv.ErrDeadlock):
			_ = s.rollback()
		}
		return err
	}
}
