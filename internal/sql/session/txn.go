package session

import (
	"context"
	"strings"

	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/sql/session/sysvar"
)

// begin opens an explicit transaction, committing an open one first as
// MySQL does. mode is "PESSIMISTIC" or "OPTIMISTIC" (BEGIN PESSIMISTIC,
// TiDB's syntax), or "" for @@tidb_txn_mode.
func (s *Session) begin(ctx context.Context, mode string) error {
	if err := s.commit(ctx); err != nil {
		return err
	}
	// The start ts is asked for now and waited for at the first read,
	// as TiDB does (the request lives as long as the txn).
	txn, err := s.d.client.BeginLazy(ctx)
	if err != nil {
		return err
	}
	s.configureTxn(txn)
	if mode == "" {
		mode = s.vars.TxnMode()
	}
	if strings.EqualFold(mode, sysvar.TxnModePessimistic) {
		txn.SetPessimistic()
	}
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
	s.endTxnStats(err == nil)
	return err
}

// rollback discards the open explicit transaction, if any.
func (s *Session) rollback() error {
	if s.txn == nil {
		return nil
	}
	txn := s.txn
	s.txn = nil
	s.endTxnStats(false)
	return txn.Rollback()
}

// configureTxn applies the session's transaction variables to a new
// transaction: tidb_enable_async_commit, tidb_enable_1pc and
// tidb_guarantee_linearizability. tidb_txn_mode applies to explicit
// transactions only (begin): autocommit statements run optimistic and
// are retried in the server, as TiDB's pessimistic-auto-commit = false.
func (s *Session) configureTxn(txn *txnclient.Txn) {
	txn.EnableAsyncCommit(s.vars.AsyncCommit())
	txn.EnableOnePC(s.vars.OnePC())
	txn.GuaranteeLinearizability(s.vars.GuaranteeLinearizability())
}
