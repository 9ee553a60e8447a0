package exec

import (
	"context"
	"errors"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/planner"
)

// lock (SELECT ... FOR UPDATE) re-writes each returned row with its
// current value, so the row's key is in the write set and a concurrent
// writer of the row conflicts with this transaction at commit. With
// Context.LockOnly (pessimistic transactions) it collects the rows' keys
// in Context.LockKeys instead, for the session to lock.
type lock struct {
	base
	p *planner.Lock
}

func (e *lock) Open(ctx context.Context) error { return e.openChild(ctx) }

func (e *lock) Next(ctx context.Context, chk *chunk.Chunk) error {
	chk.Reset()
	if err := e.child.Next(ctx, chk); err != nil {
		return err
	}
	for i := 0; i < chk.NumRows(); i++ {
		key := e.p.Table.RecordKey(chk.GetRow(i).GetInt64(e.p.Handle))
		if e.ectx.LockOnly {
			e.ectx.LockKeys = append(e.ectx.LockKeys, key)
			continue
		}
		v, err := e.ectx.Txn.Get(ctx, key)
		if errors.Is(err, kv.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if err := e.ectx.Txn.Set(key, v); err != nil {
			return err
		}
	}
	return nil
}
