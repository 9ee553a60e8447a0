package session

import (
	"context"

	"github.com/strata-db/strata/internal/client/txnclient"
)

// begin opens an explicit transaction, committing an open one first as
// MySQL does.
func (s *Session) begin(ctx context.Context) error {
	if err := s.commit(ctx); err != nil {
		return err
	}
	txn, err := s.d.client.Begin(ctx)
	if err != nil {
		return err
	}
	s.configureTxn(txn)
	s.txn = txn
	return nil
}

// commit commits the open explicit transaction, if any.
func (s *Session) commit(ctx context.Context) error {
	if s.txn == nil {
		return nil
	}
	txn := s.txn
	s.txn = nil
	err := txn.Commit(ctx)
	s.d.metrics.committed(err)
	return err
}

// rollback discards the open explicit transaction, if any.
func (s *Session) rollback() error {
	if s.txn == nil {
		return nil
	}
	txn := s.txn
	s.txn = nil
	return txn.Rollback()
}

// configureTxn applies the session's transaction variables to a new
// transaction: tidb_enable_async_commit, tidb_enable_1pc and
// tidb_guarantee_linearizability. (tidb_txn_mode: only optimistic
// transactions exist so far; "pessimistic" is accepted with a warning.)
func (s *Session) configureTxn(txn *txnclient.Txn) {
	txn.EnableAsyncCommit(s.vars.AsyncCommit())
	txn.EnableOnePC(s.vars.OnePC())
	txn.GuaranteeLinearizability(s.vars.GuaranteeLinearizability())
}
