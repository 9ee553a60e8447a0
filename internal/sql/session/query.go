package session

import (
	"context"
	"errors"
	"math"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/exec"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/session/sysvar"
)

// execQuery runs SELECT with FROM, INSERT, REPLACE, UPDATE, DELETE and
// EXPLAIN through the planner and the executors.
func (s *Session) execQuery(ctx context.Context, stmt ast.StmtNode) (server.Result, error) {
	q := s.newQueryCtx(nil).forStmt(stmt)
	p, err := planner.Build(q, stmt)
	if err != nil {
		return nil, err
	}
	return s.runPlan(ctx, q, p, nil)
}

// execCache keeps the executor tree of a prepared statement's cached plan
// for its next execution, with the Context its operators point to.
type execCache struct {
	exe  exec.Executor
	ectx *exec.Context
}

// executor returns the executors of p for this execution: the cached
// tree re-pointed at a fresh context, or a new tree (cached when c is
// not nil).
func (s *Session) executor(q *queryCtx, p planner.Plan, txn kv.Transaction, c *execCache) (exec.Executor, *exec.Context, error) {
	ectx := s.execContext(q, txn)
	if c != nil && c.exe != nil {
		*c.ectx = *ectx
		return c.exe, c.ectx, nil
	}
	e, err := exec.Build(ectx, p)
	if err != nil {
		return nil, nil, err
	}
	if c != nil {
		c.exe, c.ectx = e, ectx
	}
	return e, ectx, nil
}

// runPlan executes a plan: reads in the statement's transaction into a
// materialized result, writes with the autocommit retry of write
// conflicts.
func (s *Session) runPlan(ctx context.Context, q *queryCtx, p planner.Plan, c *execCache) (server.Result, error) {
	if ex, ok := p.(*planner.Explain); ok {
		if ex.Analyze {
			return s.explainAnalyze(ctx, q, ex)
		}
		return stringsResult(planner.ExplainColumns, ex.Rows()), nil
	}
	if p.Schema() != nil {
		return s.runRead(ctx, q, p, c)
	}
	var ectx *exec.Context
	if err := s.openImplicit(ctx); err != nil {
		return nil, err
	}
	if s.txn != nil && s.txn.IsPessimistic() {
		err := s.runPessimistic(ctx, s.txn, pointDML(p), func(view kv.Transaction, _ uint64) ([]kv.Key, func() error, error) {
			staged := exec.NewStmtTxn(view)
			e, ec, err := s.executor(q, p, staged, c)
			if err != nil {
				return nil, nil, err
			}
			ectx = ec
			ec.LockPointReads = true
			if err := runDML(ctx, e, ec, q); err != nil {
				return nil, nil, err
			}
			return append(staged.KeysToLock(), ec.LockKeys...), staged.Flush, nil
		})
		if err != nil {
			return nil, err
		}
		s.noteWrite(p, ectx.AffectedRows)
		return s.writeResult(ectx), nil
	}
	err := s.runAutocommitRetry(ctx, pointWrite(p), func(txn *txnclient.Txn) error {
		// In an explicit transaction the statement's writes are staged,
		// so that a failing statement leaves none behind.
		var w kv.Transaction = txn
		var staged *exec.StmtTxn
		if txn == s.txn {
			staged = exec.NewStmtTxn(txn)
			w = staged
		}
		e, ec, err := s.executor(q, p, w, c)
		if err != nil {
			return err
		}
		ectx = ec
		// An autocommit INSERT leaves its duplicate-key check to the
		// prewrite, which its commit runs before the statement ends.
		ec.PresumeNotExists = staged == nil
		if err := runDML(ctx, e, ec, q); err != nil || staged == nil {
			return err
		}
		return staged.Flush()
	})
	var exist *kv.AlreadyExistError
	if errors.As(err, &exist) && ectx != nil {
		if pk, ok := ectx.Presumed[string(exist.Key)]; ok {
			err = pk.DupError()
		}
	}
	if err != nil {
		return nil, err
	}
	s.noteWrite(p, ectx.AffectedRows)
	return s.writeResult(ectx), nil
}

// writeResult is the OK result of a write statement that ran in ectx.
func (s *Session) writeResult(ectx *exec.Context) server.Result {
	if ectx.LastInsertID != 0 {
		s.vars.SetLastInsertID(ectx.LastInsertID)
	}
	return &okResult{affected: ectx.AffectedRows, lastInsertID: ectx.LastInsertID}
}

func (s *Session) execContext(q *queryCtx, txn kv.Transaction) *exec.Context {
	mode := s.vars.SQLMode()
	return &exec.Context{
		Eval: q, Txn: txn, Alloc: s.d.catalog.Allocator(), Now: q.now.In(s.vars.Location()), MemTables: q,
		MemQuota:          s.vars.MemQuotaQuery(),
		Stats:             s.collectStats,
		Strict:            mode.Strict(),
		NoAutoValueOnZero: mode&sysvar.ModeNoAutoValueOnZero != 0,
	}
}

// runRead runs a query and keeps its rows.
func (s *Session) runRead(ctx context.Context, q *queryCtx, p planner.Plan, c *execCache) (server.Result, error) {
	if err := s.openImplicit(ctx); err != nil {
		return nil, err
	}
	if _, isLock := findLock(p); isLock && s.txn != nil && s.txn.IsPessimistic() {
		// SELECT ... FOR UPDATE: read the latest rows and lock them.
		var res *queryResult
		err := s.runPessimistic(ctx, s.txn, false, func(view kv.Transaction, _ uint64) ([]kv.Key, func() error, error) {
			r, ectx, err := s.readRows(ctx, q, p, view, c, true)
			if err != nil {
				return nil, nil, err
			}
			res = r
			return ectx.LockKeys, func() error { return nil }, nil
		})
		if err != nil {
			return nil, err
		}
		return res, nil
	}
	var (
		txn        *txnclient.Txn
		autocommit bool
		err        error
	)
	if s.txn == nil && s.vars.Autocommit() && pointRead(p) {
		txn, autocommit = s.d.client.BeginAt(math.MaxUint64), true
		s.configureTxn(txn)
	} else if txn, autocommit, err = s.stmtTxn(ctx, false); err != nil {
		return nil, err
	}
	res, _, err := s.readRows(ctx, q, p, txn, c, false)
	if autocommit {
		if _, isLock := findLock(p); isLock && err == nil {
			err = txn.Commit(ctx)
		} else {
			_ = txn.Rollback()
		}
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

func findLock(p planner.Plan) (*planner.Lock, bool) {
	if l, ok := p.(*planner.Lock); ok {
		return l, true
	}
	for _, c := range p.Children() {
		if l, ok := findLock(c); ok {
			return l, true
		}
	}
	return nil, false
}

// readRows runs a query in txn and keeps its rows. lockOnly: SELECT ...
// FOR UPDATE collects the keys to lock in the returned context.
func (s *Session) readRows(ctx context.Context, q *queryCtx, p planner.Plan, txn kv.Transaction, c *execCache, lockOnly bool) (*queryResult, *exec.Context, error) {
	e, ectx, err := s.executor(q, p, txn, c)
	if err != nil {
		return nil, nil, err
	}
	ectx.LockOnly = lockOnly
	cols := p.Schema()
	res := &queryResult{cols: make([]*server.Column, len(cols))}
	for i, c := range cols {
		res.cols[i] = columnOf(c.Name, c.Ft)
		res.cols[i].Table, res.cols[i].OrgTable, res.cols[i].Schema = c.Table, c.Table, c.DB
	}
	if err := e.Open(ctx); err != nil {
		_ = e.Close()
		return nil, nil, err
	}
	defer e.Close()
	bound, total := exec.MaxRows(e), 0
	for bound < 0 || total < bound {
		chk := exec.NewChunk(e, 256)
		if err := e.Next(ctx, chk); err != nil {
			return nil, nil, err
		}
		if chk.NumRows() == 0 {
			break
		}
		total += chk.NumRows()
		res.chunks = append(res.chunks, chk)
	}
	return res, ectx, nil
}

// queryResult holds a query's rows in chunks.
type queryResult struct {
	cols   []*server.Column
	chunks []*chunk.Chunk
	rows   []server.Row
}

func (r *queryResult) Columns() []*server.Column { return r.cols }

func (r *queryResult) Next(context.Context) ([]server.Row, error) {
	if len(r.chunks) == 0 {
		return nil, nil
	}
	chk := r.chunks[0]
	r.chunks = r.chunks[1:]
	r.rows = r.rows[:0]
	for i := 0; i < chk.NumRows(); i++ {
		r.rows = append(r.rows, chk.GetRow(i))
	}
	return r.rows, nil
}

func (r *queryResult) AffectedRows() uint64 { return 0 }
func (r *queryResult) LastInsertID() uint64 { return 0 }
func (r *queryResult) Close()               { r.chunks = nil }
