package engine

import (
	"context"
	"errors"
)

// ErrNotFound is returned by Snapshot.Get for an absent key.
var ErrNotFound = errors.New("engine: not found")

// ErrClosed is returned by operations on a closed engine.
var ErrClosed = errors.New("engine: closed")

// Engine is a key-value store with consistent snapshots and atomic batches.
type Engine interface {
	// Snapshot returns a consistent read view of the engine.
	Snapshot(ctx context.Context) (Snapshot, error)
	// Write applies b atomically; when the engine syncs, it returns after
	// the batch is durable.
	Write(ctx context.Context, b *Batch) error
	// Close releases the engine. Snapshots must be closed before.
	Close() error
}

// Snapshot is a consistent, immutable read view.
type Snapshot interface {
	// Get returns a copy of key's value, or ErrNotFound.
	Get(key []byte) ([]byte, error)
	// NewIter iterates keys in [lower, upper); nil bounds are unbounded.
	NewIter(lower, upper []byte) (Iterator, error)
	// Close releases the snapshot.
	Close() error
}

// Iterator walks a Snapshot's keys in order. It is shaped like
// *pebble.Iterator: positioning methods return Valid(), and Key/Value are
// valid only until the next positioning call.
type Iterator interface {
	First() bool
	Last() bool
	SeekGE(key []byte) bool
	SeekLT(key []byte) bool
	Next() bool
	Prev() bool
	Valid() bool
	Key() []byte
	Value() []byte
	Error() error
	Close() error
}

// PrefixSeeker is implemented by the iterators of a Snapshot whose
// PrefixSeeks is true: SeekPrefixGE positions at the first key >= key
// that has key's prefix (Options.Split), skipping every sstable whose
// bloom filter rules that prefix out, and iteration stops at the prefix's
// end.
type PrefixSeeker interface {
	SeekPrefixGE(key []byte) bool
}

// PrefixNexter is implemented by the iterators of a Snapshot whose
// PrefixSeeks is true: NextPrefix moves to the first key of the next
// prefix (Options.Split), past the current key's other versions, without
// visiting them one by one.
type PrefixNexter interface {
	NextPrefix() bool
}

// PrefixSnapshot is implemented by snapshots that can tell whether their
// iterators seek by prefix (the engine was opened with a Split).
type PrefixSnapshot interface {
	PrefixSeeks() bool
}

// PartialSnapshot is implemented by snapshots that see only part of the
// engine (a region's range): iterators outside it come back empty, so a
// seek there says nothing of the engine. Covers reports whether engine key
// key lies in what the snapshot sees.
type PartialSnapshot interface {
	Covers(key []byte) bool
}

// BoundsSetter is implemented by iterators that can be re-bounded and
// reused (Pebble's can). Callers check for it with a type assertion and
// fall back to a new iterator otherwise.
type BoundsSetter interface {
	SetBounds(lower, upper []byte)
}
