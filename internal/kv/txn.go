package kv

import "context"

// Iterator walks key/value pairs in key order (or reverse order for reverse
// iterators). Valid must be checked before Key and Value.
type Iterator interface {
	Valid() bool
	Key() Key
	Value() []byte
	Next() error
	Close()
}

// Snapshot is a consistent read view at one timestamp.
type Snapshot interface {
	// Get returns the value of k, or ErrNotExist.
	Get(ctx context.Context, k Key) ([]byte, error)
	// BatchGet returns the present keys among keys, keyed by string(key).
	BatchGet(ctx context.Context, keys []Key) (map[string][]byte, error)
	// Iter iterates [start, end) forward; an empty end means unbounded.
	Iter(ctx context.Context, start, end Key) (Iterator, error)
	// IterReverse iterates [start, end) backward, from just below end.
	IterReverse(ctx context.Context, start, end Key) (Iterator, error)
}

// Transaction is a snapshot-isolated read-write transaction. Writes are
// buffered and reads see them; Commit makes them durable atomically.
type Transaction interface {
	Snapshot
	// Set buffers a put of k.
	Set(k Key, v []byte) error
	// Delete buffers a delete of k.
	Delete(k Key) error
	// Commit commits the buffered writes. A failure that may have committed
	// anyway is ErrResultUndetermined.
	Commit(ctx context.Context) error
	// Rollback discards the transaction.
	Rollback() error
	// StartTS is the snapshot timestamp.
	StartTS() uint64
}
