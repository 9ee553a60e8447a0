// Package memkv is an in-memory, optimistic implementation of
// kv.Transaction for unit tests of one layer (the SQL layer's metadata
// stores): a transaction reads the state at its start and fails with
// kv.ErrWriteConflict at commit if a key it writes was committed after it
// started. It is never a stand-in for the storage layer in end-to-end
// tests.
package memkv

import (
	"context"
	"sort"
	"sync"

	"github.com/strata-db/strata/internal/kv"
)

// Store is an in-memory optimistic transactional store: a transaction
// reads the state at its start and fails with kv.ErrWriteConflict at
// commit if a key it writes was committed after it started.
type Store struct {
	mu      sync.Mutex
	seq     uint64
	data    map[string][]byte
	lastSeq map[string]uint64
	// Conflict, when set, forces a write conflict at the commit of a
	// transaction writing key when it returns true.
	Conflict func(key string) bool
}

// New returns an empty Store.
func New() *Store {
	return &Store{data: map[string][]byte{}, lastSeq: map[string]uint64{}}
}

// Begin starts a transaction.
func (m *Store) Begin(context.Context) (kv.Transaction, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	snap := make(map[string][]byte, len(m.data))
	for k, v := range m.data {
		snap[k] = v
	}
	return &memTxn{m: m, start: m.seq, snap: snap, writes: map[string][]byte{}}, nil
}

type memTxn struct {
	m      *Store
	start  uint64
	snap   map[string][]byte
	writes map[string][]byte // nil value: delete
}

func (t *memTxn) Get(_ context.Context, k kv.Key) ([]byte, error) {
	if v, ok := t.writes[string(k)]; ok {
		if v == nil {
			return nil, kv.ErrNotExist
		}
		return v, nil
	}
	if v, ok := t.snap[string(k)]; ok {
		return v, nil
	}
	return nil, kv.ErrNotExist
}

func (t *memTxn) BatchGet(ctx context.Context, keys []kv.Key) (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, k := range keys {
		if v, err := t.Get(ctx, k); err == nil {
			out[string(k)] = v
		}
	}
	return out, nil
}

func (t *memTxn) merged(start, end kv.Key) []string {
	var keys []string
	seen := map[string]bool{}
	add := func(k string) {
		if seen[k] || k < string(start) || (len(end) > 0 && k >= string(end)) {
			return
		}
		seen[k] = true
		if _, err := t.Get(context.Background(), kv.Key(k)); err == nil {
			keys = append(keys, k)
		}
	}
	for k := range t.snap {
		add(k)
	}
	for k := range t.writes {
		add(k)
	}
	sort.Strings(keys)
	return keys
}

func (t *memTxn) Iter(_ context.Context, start, end kv.Key) (kv.Iterator, error) {
	return &memIter{t: t, keys: t.merged(start, end)}, nil
}

func (t *memTxn) IterReverse(_ context.Context, start, end kv.Key) (kv.Iterator, error) {
	keys := t.merged(start, end)
	for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
		keys[i], keys[j] = keys[j], keys[i]
	}
	return &memIter{t: t, keys: keys}, nil
}

func (t *memTxn) Set(k kv.Key, v []byte) error {
	t.writes[string(k)] = append([]byte(nil), v...)
	return nil
}

func (t *memTxn) Delete(k kv.Key) error { t.writes[string(k)] = nil; return nil }

func (t *memTxn) Commit(context.Context) error {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range t.writes {
		if m.lastSeq[k] > t.start || (m.Conflict != nil && m.Conflict(k)) {
			return &kv.WriteConflictError{Key: kv.Key(k)}
		}
	}
	m.seq++
	for k, v := range t.writes {
		if v == nil {
			delete(m.data, k)
		} else {
			m.data[k] = v
		}
		m.lastSeq[k] = m.seq
	}
	return nil
}

func (t *memTxn) Rollback() error { return nil }
func (t *memTxn) StartTS() uint64 { return t.start }

type memIter struct {
	t    *memTxn
	keys []string
	i    int
}

func (it *memIter) Valid() bool { return it.i < len(it.keys) }
func (it *memIter) Key() kv.Key { return kv.Key(it.keys[it.i]) }
func (it *memIter) Value() []byte {
	v, _ := it.t.Get(context.Background(), kv.Key(it.keys[it.i]))
	return v
}
func (it *memIter) Next() error { it.i++; return nil }
func (it *memIter) Close()      {}

// Dump returns every committed key and value, sorted by key.
func (m *Store) Dump() [][2]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := make([]string, 0, len(m.data))
	for k := range m.data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][2]string, len(keys))
	for i, k := range keys {
		out[i] = [2]string{k, string(m.data[k])}
	}
	return out
}
