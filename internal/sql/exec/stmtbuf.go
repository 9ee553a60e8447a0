package exec

import (
	"context"

	"github.com/strata-db/strata/internal/kv"
)

// StmtTxn stages one statement's writes over a transaction, so that a
// statement failing halfway in an explicit transaction leaves no partial
// writes (MySQL's statement atomicity): Flush applies the writes to the
// transaction in order, dropping the StmtTxn discards them.
//
// Get and BatchGet see the staged writes. Iter and IterReverse read the
// transaction only: executors finish reading rows before they write
// (see the package doc), and the one exception, SELECT ... FOR UPDATE,
// re-writes values equal to what it read.
type StmtTxn struct {
	kv.Transaction
	staged map[string]stagedWrite
	order  []string
	noLock map[string]struct{}
}

type stagedWrite struct {
	value []byte
	del   bool
}

// NewStmtTxn returns a statement buffer over txn.
func NewStmtTxn(txn kv.Transaction) *StmtTxn {
	return &StmtTxn{Transaction: txn}
}

// Set implements kv.Transaction.
func (s *StmtTxn) Set(k kv.Key, v []byte) error {
	if err := kv.ValidateKey(k); err != nil {
		return err
	}
	s.stage(string(k), stagedWrite{value: v})
	return nil
}

// Delete implements kv.Transaction.
func (s *StmtTxn) Delete(k kv.Key) error {
	if err := kv.ValidateKey(k); err != nil {
		return err
	}
	s.stage(string(k), stagedWrite{del: true})
	return nil
}

func (s *StmtTxn) stage(k string, w stagedWrite) {
	if s.staged == nil {
		s.staged = make(map[string]stagedWrite)
	}
	if _, ok := s.staged[k]; !ok {
		s.order = append(s.order, k)
	}
	s.staged[k] = w
}

// Get implements kv.Snapshot.
func (s *StmtTxn) Get(ctx context.Context, k kv.Key) ([]byte, error) {
	if w, ok := s.staged[string(k)]; ok {
		if w.del {
			return nil, kv.ErrNotExist
		}
		return w.value, nil
	}
	return s.Transaction.Get(ctx, k)
}

// BatchGet implements kv.Snapshot.
func (s *StmtTxn) BatchGet(ctx context.Context, keys []kv.Key) (map[string][]byte, error) {
	out, err := s.Transaction.BatchGet(ctx, keys)
	if err != nil || len(s.staged) == 0 {
		return out, err
	}
	for _, k := range keys {
		if w, ok := s.staged[string(k)]; ok {
			if w.del {
				delete(out, string(k))
			} else {
				out[string(k)] = w.value
			}
		}
	}
	return out, nil
}

// NoLock marks a staged key that needs no pessimistic lock of its own
// (a non-distinct index entry, covered by its row's lock).
func (s *StmtTxn) NoLock(k kv.Key) {
	if s.noLock == nil {
		s.noLock = make(map[string]struct{})
	}
	s.noLock[string(k)] = struct{}{}
}

// KeysToLock returns the staged keys a pessimistic transaction locks, in
// the order first written: rows and unique index entries.
func (s *StmtTxn) KeysToLock() []kv.Key {
	keys := make([]kv.Key, 0, len(s.order))
	for _, k := range s.order {
		if _, skip := s.noLock[k]; !skip {
			keys = append(keys, kv.Key(k))
		}
	}
	return keys
}

// Flush applies the staged writes to the transaction.
func (s *StmtTxn) Flush() error {
	for _, k := range s.order {
		w := s.staged[k]
		var err error
		if w.del {
			err = s.Transaction.Delete(kv.Key(k))
		} else {
			err = s.Transaction.Set(kv.Key(k), w.value)
		}
		if err != nil {
			return err
		}
	}
	s.staged, s.order, s.noLock = nil, nil, nil
	return nil
}
