package session

import (
	"context"
	"errors"

	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/kv"
)

// stmtTxn returns the transaction a statement runs in: the open explicit
// transaction, or (autocommit) a new one that finishStmt commits. With
// autocommit off, the first statement opens an explicit transaction, as
// in MySQL. newest: a new autocommit txn reads at the newest version
// while its start ts is on its way (txnclient.BeginNewest).
func (s *Session) stmtTxn(ctx context.Context, newest bool) (txn *txnclient.Txn, autocommit bool, err error) {
	if s.txn != nil {
		return s.txn, false, nil
	}
	if !s.vars.Autocommit() {
		if err := s.begin(ctx, ""); err != nil {
			return nil, false, err
		}
		return s.txn, false, nil
	}
	// The start ts is asked for now and waited for where the statement
	// first needs it (a read, a lock, the commit), as TiDB's statement
	// TSO future: an INSERT builds its rows meanwhile.
	if newest {
		txn, err = s.d.client.BeginNewest(ctx)
	} else {
		txn, err = s.d.client.BeginLazy(ctx)
	}
	if err != nil {
		return nil, false, err
	}
	s.configureTxn(txn)
	// An autocommit statement's start ts already follows every commit
	// acknowledged before it began, and its commit ts is above its start
	// ts: linearizability needs no extra timestamp (TiDB skips it too).
	txn.GuaranteeLinearizability(false)
	return txn, true, nil
}

// openImplicit opens the transaction a statement starts when autocommit
// is off (MySQL's implicit BEGIN) before the statement chooses how to run:
// in a pessimistic txn even the first statement must lock what it writes.
func (s *Session) openImplicit(ctx context.Context) error {
	if s.txn == nil && !s.vars.Autocommit() {
		return s.begin(ctx, "")
	}
	return nil
}

// finishStmt ends an autocommit statement's transaction: commit on
// success, roll back on error. Explicit transactions are left open.
func (s *Session) finishStmt(ctx context.Context, txn *txnclient.Txn, autocommit bool, err error) error {
	if !autocommit {
		return err
	}
	if err != nil {
		_ = txn.Rollback()
		return err
	}
	err = txn.Commit(ctx)
	s.d.metrics.committed(err)
	return err
}

// maxStmtRetries bounds the in-server retries of an autocommit statement
// that lost a write conflict (tidb_retry_limit's default is 10).
const maxStmtRetries = 10

// runAutocommitRetry runs fn in a statement transaction. An autocommit
// statement whose commit meets a write conflict is re-run from scratch,
// at a new start timestamp, up to maxStmtRetries times: the statement is
// re-executed (re-reading what it reads), never its old writes replayed —
// the lesson of TiDB's Jepsen findings. In an explicit transaction the
// conflict is returned to the client (MySQL error 9007, retryable).
//
// newest (the statement is a pointWrite): its first run in autocommit
// reads its row at the newest version while the start ts is on its way
// (txnclient.BeginNewest); a retry runs as any other statement.
func (s *Session) runAutocommitRetry(ctx context.Context, newest bool, fn func(txn *txnclient.Txn) error) error {
	for attempt := 0; ; attempt++ {
		txn, autocommit, err := s.stmtTxn(ctx, newest && attempt == 0)
		if err != nil {
			return err
		}
		err = s.finishStmt(ctx, txn, autocommit, fn(txn))
		if err == nil || !autocommit || !errors.Is(err, kv.ErrWriteConflict) || attempt >= maxStmtRetries {
			return err
		}
		s.d.metrics.retries.Inc()
	}
}
