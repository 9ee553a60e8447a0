package catalog

import (
	"context"
	"math"
	"strconv"
	"sync"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// DefaultAutoIDStep is how many IDs an Allocator reserves in KV at a time
// (TiDB's default batch is 30000 for auto-increment; a smaller step wastes
// fewer IDs when SQL servers restart).
const DefaultAutoIDStep = 4000

// Allocator hands out auto-increment values and implicit row handles
// (_tidb_rowid), which share one counter per table. Each table's counter
// is a meta key holding the last reserved ID; an Allocator reserves ranges
// of step IDs from it in small transactions of its own and serves from the
// cached range, so IDs are unique across SQL servers (but not gap-free or
// ordered across them, as in TiDB).
//
// Lock order: mu (the table map) before a tableIDs.mu; mu is never held
// across KV I/O, a tableIDs.mu is (one reservation per table at a time).
type Allocator struct {
	begin BeginFunc
	step  int64

	mu     sync.Mutex
	tables map[int64]*tableIDs
}

// tableIDs is the cached range (next..end, inclusive) of one table.
type tableIDs struct {
	mu        sync.Mutex
	next, end int64 // empty when next > end
}

// NewAllocator returns an Allocator reserving step IDs at a time.
func NewAllocator(begin BeginFunc, step int64) *Allocator {
	if step <= 0 {
		step = DefaultAutoIDStep
	}
	return &Allocator{begin: begin, step: step, tables: make(map[int64]*tableIDs)}
}

func (a *Allocator) table(tableID int64) *tableIDs {
	a.mu.Lock()
	defer a.mu.Unlock()
	t := a.tables[tableID]
	if t == nil {
		t = &tableIDs{next: 1, end: 0}
		a.tables[tableID] = t
	}
	return t
}

// Alloc returns n consecutive unused IDs first..last of table tableID.
func (a *Allocator) Alloc(ctx context.Context, tableID int64, n int) (first, last int64, err error) {
	if n <= 0 {
		return 0, 0, kv.InvalidArgumentf("catalog: alloc of %d ids", n)
	}
	t := a.table(tableID)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.end-t.next+1 < int64(n) {
		size := max(a.step, int64(n))
		lo, hi, err := a.reserve(ctx, tableID, size, 0)
		if err != nil {
			return 0, 0, err
		}
		t.next, t.end = lo, hi
	}
	first = t.next
	last = first + int64(n) - 1
	t.next = last + 1
	return first, last, nil
}

// Rebase makes every later Alloc of the table return IDs above v (an
// INSERT stored an explicit auto-increment value v). Values at or below
// what the table already handed out are ignored.
func (a *Allocator) Rebase(ctx context.Context, tableID, v int64) error {
	t := a.table(tableID)
	t.mu.Lock()
	defer t.mu.Unlock()
	if v < t.next {
		return nil
	}
	if v < t.end {
		t.next = v + 1
		return nil
	}
	lo, hi, err := a.reserve(ctx, tableID, a.step, v)
	if err != nil {
		return err
	}
	t.next, t.end = lo, hi
	return nil
}

// Forget drops the cached range of a table (dropped or truncated).
func (a *Allocator) Forget(tableID int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.tables, tableID)
}

// reserve advances the table's counter to at least floor and then by
// size, returning the reserved range.
func (a *Allocator) reserve(ctx context.Context, tableID, size, floor int64) (lo, hi int64, err error) {
	k := autoIDKey(tableID)
	for attempt := 0; ; attempt++ {
		var txn kv.Transaction
		if txn, err = a.begin(ctx); err != nil {
			return 0, 0, err
		}
		cur, err := getInt(ctx, txn, k)
		if err != nil {
			_ = txn.Rollback()
			return 0, 0, err
		}
		cur = max(cur, floor)
		if cur > math.MaxInt64-size {
			_ = txn.Rollback()
			return 0, 0, sqlerr.New(mysql.ErrAutoincReadFailed)
		}
		if err = txn.Set(k, []byte(strconv.FormatInt(cur+size, 10))); err != nil {
			_ = txn.Rollback()
			return 0, 0, err
		}
		err = txn.Commit(ctx)
		if err == nil {
			return cur + 1, cur + size, nil
		}
		if !isRetryable(err) || attempt >= 50 {
			return 0, 0, err
		}
	}
}
