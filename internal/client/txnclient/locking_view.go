package txnclient

import (
	"context"

	"github.com/strata-db/strata/internal/kv"
)

// LockingView returns the txn as a pessimistic statement that locks every
// key it reads sees it: ForUpdateView(o.ForUpdateTS), except that Get and
// BatchGet of a key neither buffered nor locked yet lock it first, and
// the lock returns the key's value (TiKV's return_values, TiDB's point
// get with lock). One round trip per key then does the read and the lock;
// the newest committed value the lock returns is the current read at
// for_update_ts, since a write committed after it fails the lock with a
// PessimisticRetry write conflict. Lock errors are LockKeys' and come
// from the read. Iterators do not lock.
func (t *Txn) LockingView(o LockOptions) kv.Transaction {
	return &lockingView{forUpdateView: forUpdateView{Txn: t, snap: newSnapshot(t.c, o.ForUpdateTS)}, o: o}
}

// lockingView is a forUpdateView whose point reads lock.
type lockingView struct {
	forUpdateView
	o LockOptions
}

func (v *lockingView) Get(ctx context.Context, k kv.Key) ([]byte, error) {
	vals, err := v.BatchGet(ctx, []kv.Key{k})
	if err != nil {
		return nil, err
	}
	val, ok := vals[string(k)]
	if !ok {
		return nil, kv.ErrNotExist
	}
	return val, nil
}

func (v *lockingView) BatchGet(ctx context.Context, keys []kv.Key) (map[string][]byte, error) {
	if v.pess == nil {
		return nil, kv.InvalidArgumentf("a locking read in an optimistic transaction")
	}
	var lock, rest []kv.Key
	for _, k := range keys {
		_, buffered := v.buf.get(k)
		_, held := v.pess.locked[string(k)]
		if buffered || held {
			rest = append(rest, k)
		} else {
			lock = append(lock, k)
		}
	}
	// Buffered keys from the buffer; keys this txn locked already are
	// read (nobody else has written them since).
	out, err := v.batchGetFrom(ctx, v.snap, rest)
	if err != nil || len(lock) == 0 {
		return out, err
	}
	if err := v.lockKeys(ctx, v.o, lock, out); err != nil {
		return nil, err
	}
	return out, nil
}
