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
// Entries are evicted over the byte budget, the oldest of a few sampled at
// random first; an evicted key is sought again, as without the record.
//
// The floor. Besides its entries the record may know a ts, the floor,
// that no write record of a key without an entry is above, so that a
// prewrite's newer-version check of a key written for the first time, or
// long ago, costs no seek either (Below). It is established from a TSO
// timestamp T asked for after every record the engine then held was
// written (newest_floor.go): a commit ts never exceeds the timestamps PD
// issued before it by more than one, so none is above T. From then on:
//   - afterWrite of a record above the floor for a key without an entry
//     makes one (every other record of the key is at most the floor, so
//     this one is the newest); a record at or below it changes nothing;
//   - an entry that goes (evicted, its record deleted, a failed write)
//     raises the floor to its ts, and a failed write to its records' ts;
//   - replacedData (records written unseen) loses the floor until a new
//     one is established.
type newestWrites struct {
	seed maphash.Seed
	seq  atomic.Uint64 // bumped under mu when a write or reset ends

	mu        sync.Mutex
	entries   map[string]*newestEntry
	pending   map[uint64]int32 // prefix hash -> writes touching it
	replacing int              // range rewrites in progress
	bytes     int64
	budget    int64

	// floor bounds the records of keys without an entry while floorOK.
	floor   uint64
	floorOK bool
	// raisedSince is the highest ts the floor was raised to (or would
	// have been, while unknown) since floorGen last changed; floorGen
	// changes when an establishment begins and when replacedData loses
	// the floor, so that an establishment raced by one is dropped.
	raisedSince uint64
	floorGen    uint64
	// needFloor receives a token when the floor should be established.
	needFloor chan struct{}

	hits, misses, taken, refused, bounded atomic.Uint64
}

// newestEntry is one key's newest write record; w nil: the key has none.
type newestEntry struct {
	ts uint64
	w  *mvcc.Write // never changed once stored: replaced whole
}

func newNewestWrites(budget int64) *newestWrites {
	n := &newestWrites{
		seed:      maphash.MakeSeed(),
		entries:   map[string]*newestEntry{},
		pending:   map[uint64]int32{},
		budget:    budget,
		needFloor: make(chan struct{}, 1),
	}
	n.wantFloor()
	return n
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

// Below implements mvcc.NewestWrites, from the key's entry or else the
// floor.
func (n *newestWrites) Below(prefix []byte, ts uint64) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.replacing > 0 || n.pending[n.hash(prefix)] > 0 {
		return false
	}
	if e := n.entries[string(prefix)]; e != nil {
		if e.ts < ts {
			n.hits.Add(1)
			return true
		}
		return false
	}
	if n.floorOK && n.floor < ts {
		n.bounded.Add(1)
		return true
	}
	return false
}

// raise raises the floor to ts, a record of a key about to have no entry.
// Caller holds mu.
func (n *newestWrites) raise(ts uint64) {
	n.raisedSince = max(n.raisedSince, ts)
	if n.floorOK {
		n.floor = max(n.floor, ts)
	}
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

// evictSample is how many entries evict compares to choose one.
const evictSample = 8

// evict drops entries until the record is within its budget, each time
// the one with the oldest record of a few met at random (map order), so
// that the floor, raised to what goes, stays behind the records being
// written. Caller holds mu.
func (n *newestWrites) evict() {
	for n.bytes > n.budget && len(n.entries) > 0 {
		var (
			oldest  string
			victim  *newestEntry
			sampled int
		)
		for k, e := range n.entries {
			if victim == nil || e.ts < victim.ts {
				oldest, victim = k, e
			}
			if sampled++; sampled == evictSample {
				break
			}
		}
		n.raise(victim.ts)
		n.bytes -= entrySize(len(oldest), victim)
		delete(n.entries, oldest)
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
			n.learn(prefix, op, ts, written)
			continue
		}
		switch {
		case !written:
			n.raise(ts)
			n.forget(prefix, e)
		case op.Kind == engine.OpPut && ts >= e.ts:
			w, err := mvcc.DecodeWrite(op.Value)
			if err != nil {
				n.raise(ts)
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

// learn takes what a write op of a record at ts did to a key without an
// entry: the key's newest record when it is a put above the floor (and
// the write landed); else the floor is raised to ts, which changes
// nothing unless the write failed or the floor is unknown. A delete of
// such a key's record leaves its records below the floor. Caller holds mu.
func (n *newestWrites) learn(prefix []byte, op engine.Op, ts uint64, written bool) {
	if written && op.Kind == engine.OpDelete {
		return
	}
	if !written || op.Kind != engine.OpPut || !n.floorOK || ts <= n.floor {
		n.raise(ts)
		return
	}
	w, err := mvcc.DecodeWrite(op.Value)
	if err != nil {
		n.raise(ts)
		return
	}
	w.ShortValue = bytes.Clone(w.ShortValue)
	e := &newestEntry{ts: ts, w: w}
	n.entries[string(prefix)] = e
	n.bytes += entrySize(len(prefix), e)
}

// forget drops key prefix's entry e, raising the floor to its record.
// Caller holds mu.
func (n *newestWrites) forget(prefix []byte, e *newestEntry) {
	n.raise(e.ts)
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

// replacedData ends it, written or not: every entry is forgotten, and the
// floor with them, to be established again.
func (n *newestWrites) replacedData() {
	n.mu.Lock()
	if n.replacing > 0 {
		n.replacing--
	}
	clear(n.entries)
	n.bytes = 0
	n.floorOK = false
	n.floorGen++
	n.seq.Add(1)
	n.mu.Unlock()
	n.wantFloor()
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
	// Bounded counts the checks for a newer version of keys without an
	// entry that the floor answered.
	Bounded uint64
	Bytes   int64
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
	return NewestWritesStats{Hits: n.hits.Load(), Misses: n.misses.Load(), Taken: n.taken.Load(), Refused: n.refused.Load(),
		Bounded: n.bounded.Load(), Bytes: b}
}
