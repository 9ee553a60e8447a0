package txn

import (
	"bytes"
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// DefaultNewestWritesBytes is the memory the newest-write record of a
// store may take (Options.NewestWritesBytes 0).
const DefaultNewestWritesBytes = 64 << 20

// newestEntryOverhead is what an entry costs besides its key and value
// bytes (map slot, entry struct, Write), for the byte budget.
const newestEntryOverhead = 112

// newestWrites is the store's mvcc.NewestWrites: for recently read user
// keys, the newest write record kvdb holds, so that a point read of a hot
// row and a prewrite's newer-version check (a seek through every level
// that holds a version of the row: a third of a leader's CPU under
// sysbench's updates) cost a map lookup instead.
//
// Exactness. An entry is created only from a seek (Offer), and every
// engine write that touches a write record tells it before and after
// (beforeWrite, afterWrite): every raft apply on every replica through the
// apply observer, which also covers a new leader applying an earlier
// term's entries and the leader's own writes; over an engine without an
// observer (Options.AppliesObserved false), the Storage's writes around
// Engine.Write. So:
//   - a key some write is touching (begun, not ended) is "pending", counted
//     by a hash of its prefix: Newest answers nothing for it, Offer takes
//     nothing for it (a collision only makes another key pending too);
//   - afterWrite brings a known entry up to date (a record above its ts
//     replaces it; a delete of its record forgets it), and bumps seq;
//   - Offer takes a seek's answer only if seq has not moved since the
//     token, taken before the Reader's snapshot, and the key is not
//     pending. A write to the key either ended before the token (so the
//     snapshot holds it), or began after the Offer (and finds the entry to
//     update), or was pending or ended in between (the Offer is refused).
//
// afterWrite calls for one key come in the order its writes reached the
// engine (a Put and a Delete of one record do not commute): the Storage's
// writes of a key are serialised by its latches, a region's applies by its
// one apply worker, and regions on a store do not overlap. Every
// afterWrite follows the beforeWrite of the same batch.
//
// A raft snapshot or a peer's destroy rewrites a whole range without
// batches: from replacingData to replacedData nothing is known, and
// replacedData forgets every entry.
//
// Entries are evicted at random over the byte budget; an evicted key is
// sought again, as without the record.
type newestWrites struct {
	seed maphash.Seed
	seq  atomic.Uint64 // bumped under mu when a write or reset ends

	mu        sync.Mutex
	entries   map[string]*newestEntry
	pending   map[uint64]int32 // prefix hash -> writes touching it
	replacing int              // range rewrites in progress
	bytes     int64
	budget    int64

	hits, misses, taken, refused atomic.Uint64
}

// newestEntry is one key's newest write record; w nil: the key has none.
type newestEntry struct {
	ts uint64
	w  *mvcc.Write // never changed once stored: replaced whole
}

func newNewestWrites(budget int64) *newestWrites {
	return &newestWrites{
		seed:    maphash.MakeSeed(),
		entries: map[string]*newestEntry{},
		pending: map[uint64]int32{},
		budget:  budget,
	}
}

// token is taken before a Reader's snapshot (mvcc.Reader.SetNewestWrites).
func (n *newestWrites) token() uint64 { return n.seq.Load() }

func (n *newestWrites) hash(prefix []byte) uint64 { return maphash.Bytes(n.seed, prefix) }

// Newest implements mvcc.NewestWrites.
func (n *newestWrites) Newest(prefix []byte) (uint64, *mvcc.Write, bool) {
	n.mu.Lock()
	e := n.entries[string(prefix)]
	if e == nil || n.replacing > 0 || n.pending[n.hash(prefix)] > 0 {
		n.mu.Unlock()
		n.misses.Add(1)
		return 0, nil, false
	}
	ts, w := e.ts, e.w
	n.mu.Unlock()
	n.hits.Add(1)
	if w == nil {
		return ts, nil, true
	}
	// Callers may keep or change the copy; its ShortValue is never
	// written, nor appended to in place (its capacity is its length).
	c := *w
	c.ShortValue = c.ShortValue[:len(c.ShortValue):len(c.ShortValue)]
	return ts, &c, true
}

// Offer implements mvcc.NewestWrites.
func (n *newestWrites) Offer(token uint64, prefix []byte, ts uint64, w *mvcc.Write) {
	h := n.hash(prefix)
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.seq.Load() != token || n.replacing > 0 || n.pending[h] > 0 {
		n.refused.Add(1)
		return
	}
	n.taken.Add(1)
	e := &newestEntry{ts: ts}
	if w != nil {
		c := *w
		c.ShortValue = bytes.Clone(w.ShortValue)
		e.w = &c
	}
	if old := n.entries[string(prefix)]; old != nil {
		n.bytes -= entrySize(len(prefix), old)
	}
	n.entries[string(prefix)] = e
	n.bytes += entrySize(len(prefix), e)
	n.evict()
}

// entrySize is what the entry e of a key whose prefix is keyLen bytes
// counts against the budget.
func entrySize(keyLen int, e *newestEntry) int64 {
	s := int64(keyLen + newestEntryOverhead)
	if e.w != nil {
		s += int64(len(e.w.ShortValue))
	}
	return s
}

// evict drops entries at random until the record is within its budget.
// Caller holds mu.
func (n *newestWrites) evict() {
	if n.bytes <= n.budget {
		return
	}
	for k, e := range n.entries {
		if n.bytes <= n.budget {
			return
		}
		n.bytes -= entrySize(len(k), e)
		delete(n.entries, k)
	}
}

// beforeWrite marks the keys whose write records b puts or deletes as
// pending, before b may reach the engine.
func (n *newestWrites) beforeWrite(b *engine.Batch) {
	locked := false
	for _, op := range b.Ops() {
		prefix, _, ok := mvcc.WriteRecordOp(op)
		if !ok {
			continue
		}
		if !locked {
			n.mu.Lock()
			locked = true
		}
		n.pending[n.hash(prefix)]++
	}
	if locked {
		n.mu.Unlock()
	}
}

// afterWrite ends what beforeWrite began for the same batch, once b is in
// the engine (written) or its write failed and it may or may not be there
// (written false: the keys' entries are forgotten).
func (n *newestWrites) afterWrite(b *engine.Batch, written bool) {
	locked := false
	for _, op := range b.Ops() {
		prefix, ts, ok := mvcc.WriteRecordOp(op)
		if !ok {
			continue
		}
		if !locked {
			n.mu.Lock()
			locked = true
		}
		h := n.hash(prefix)
		if c := n.pending[h]; c <= 1 {
			delete(n.pending, h)
		} else {
			n.pending[h] = c - 1
		}
		e := n.entries[string(prefix)]
		if e == nil {
			continue
		}
		switch {
		case !written:
			n.forget(prefix, e)
		case op.Kind == engine.OpPut && ts >= e.ts:
			w, err := mvcc.DecodeWrite(op.Value)
			if err != nil {
				n.forget(prefix, e)
				continue
			}
			w.ShortValue = bytes.Clone(w.ShortValue)
			ne := &newestEntry{ts: ts, w: w}
			n.bytes += entrySize(len(prefix), ne) - entrySize(len(prefix), e)
			n.entries[string(prefix)] = ne
		case op.Kind == engine.OpDelete && ts == e.ts:
			n.forget(prefix, e) // its newest record went (GC): what is newest now is unknown
		}
	}
	if locked {
		n.seq.Add(1)
		n.evict()
		n.mu.Unlock()
	}
}

// forget drops key prefix's entry e. Caller holds mu.
func (n *newestWrites) forget(prefix []byte, e *newestEntry) {
	n.bytes -= entrySize(len(prefix), e)
	delete(n.entries, string(prefix))
}

// replacingData begins a rewrite of a key range that bypasses the batches
// (a raft snapshot's install, a peer's destroy).
func (n *newestWrites) replacingData() {
	n.mu.Lock()
	n.replacing++
	n.mu.Unlock()
}

// replacedData ends it, written or not: every entry is forgotten.
func (n *newestWrites) replacedData() {
	n.mu.Lock()
	if n.replacing > 0 {
		n.replacing--
	}
	clear(n.entries)
	n.bytes = 0
	n.seq.Add(1)
	n.mu.Unlock()
}

// newestToken is the token a Reader's newest-write lookups take, read
// before its snapshot.
func (s *Storage) newestToken() uint64 {
	if s.newest == nil {
		return 0
	}
	return s.newest.token()
}

// setNewest gives r the newest-write record with the token tok.
func (s *Storage) setNewest(r *mvcc.Reader, tok uint64) {
	if s.newest != nil {
		r.SetNewestWrites(s.newest, tok)
	}
}

func (s *Storage) newestBefore(b *engine.Batch) {
	if s.newest != nil {
		s.newest.beforeWrite(b)
	}
}

func (s *Storage) newestAfter(b *engine.Batch, written bool) {
	if s.newest != nil {
		s.newest.afterWrite(b, written)
	}
}

// NewestWritesStats counts the newest-write record's work: lookups it
// answered (Hits) or sent to the engine (Misses), seeks' answers it took
// (Taken) or refused as possibly stale (Refused), and the bytes it holds.
type NewestWritesStats struct {
	Hits, Misses, Taken, Refused uint64
	Bytes                        int64
}

// NewestWritesStats returns the record's counts (zero when it is off).
func (s *Storage) NewestWritesStats() NewestWritesStats {
	n := s.newest
	if n == nil {
		return NewestWritesStats{}
	}
	n.mu.Lock()
	b := n.bytes
	n.mu.Unlock()
	return NewestWritesStats{Hits: n.hits.Load(), Misses: n.misses.Load(), Taken: n.taken.Load(), Refused: n.refused.Load(), Bytes: b}
}
