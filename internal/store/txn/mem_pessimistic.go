package txn

import (
	"context"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// LeaderTermer is implemented by an engine whose writes are proposals to
// a region's raft group (the raftstore): it tells the region a routed
// request runs on, the region's user-key range [start, end) (empty end:
// unbounded) and the term its leader had when the request was routed;
// and it refuses a write of that request once the term changed. Over
// such an engine a Storage can keep pessimistic locks in memory.
type LeaderTermer interface {
	LeaderTerm(ctx context.Context) (regionID, term uint64, start, end []byte, ok bool)
	// RegionLeadership is the same for a region by id, now: ok false
	// when this store does not lead it.
	RegionLeadership(regionID uint64) (term uint64, start, end []byte, ok bool)
}

// DefaultMaxMemPessimisticLocks bounds the in-memory pessimistic locks of
// a store; past it new ones are written through the engine as before.
const DefaultMaxMemPessimisticLocks = 1 << 16

// memPessimisticLocks keeps pessimistic locks in the region leader's
// memory instead of writing them through raft: TiKV's in-memory
// pessimistic locks ([pessimistic-txn] in-memory, default true).
//
// A pessimistic lock only reserves a key for a transaction that will
// prewrite it; losing one aborts that transaction at prewrite (the lock
// is not found, or a newer write is), never breaks isolation. So a lock
// need not survive its leader:
//   - each lock is tagged with the region and the leader's term at the
//     time it was taken, and is seen only by commands routed to that
//     region in that same term; a command of a later term (this peer led
//     again after another leader may have granted the key to someone
//     else) finds no lock and drops it;
//   - a command that finds a lock here writes (its prewrite, rollback,
//     heartbeat) through raft in the term it was routed in: the
//     raftstore refuses a proposal whose term has passed, so no write
//     can rely on a lock of an earlier term;
//   - a region split in the meantime changes nothing for the keys that
//     stay in the region; the others' locks are dropped here, after the
//     leader wrote them through raft before proposing the split (the
//     raftstore calls HandoffLocks then too);
//   - a txn whose lock was dropped finds it missing at prewrite, which
//     then fails if the key was written since the txn's start (TiKV's
//     amend check), as after a lock lost in a crash.
//
// Locks change only under the latches of their keys (write commands), so
// a command sees this table exactly for its own keys. Lookups never
// change it; locks of lost leaderships are dropped when the table is full
// (purgeLocked).
//
// A leader about to transfer leadership writes its region's locks through
// raft first (HandoffLocks), as TiKV does, so a planned transfer loses
// none, except those a write in flight replaces (marked leaving when the
// write is split off, before it is proposed: the hand-off must not put
// them back over that write); after it, the region's lock changes of
// that term go through raft too (see HandoffLocks). A lock lost otherwise
// (the leader died or was deposed) is not detected by a batch that only
// changes memory locks (no raft write, no term check): a transaction that
// only locks (SELECT ... FOR UPDATE, then COMMIT) can then lose its
// mutual exclusion; one that writes cannot lose an update.
type memPessimisticLocks struct {
	tl  LeaderTermer
	max int

	mu        sync.Mutex
	locks     map[string]memPessimisticLock
	lastPurge time.Time
	// handedOff: the region's locks of a term were handed off for a
	// leader transfer or a split (see frozenLocked).
	handedOff map[uint64]handOff
}

// handOff is when a region's locks of a term were last handed off, the
// keys that hand-off left out because a write in flight replaces their
// lock, and what the hand-offs of the term were for: the freeze a split's
// hand-off starts ends with the split (HandoffEnded, once every split of
// the term ended), a transfer's lasts for the rest of the term (or
// handOffFreeze after the last hand-off), whatever ends meanwhile.
type handOff struct {
	term     uint64
	at       time.Time
	left     []string
	splits   int  // split hand-offs whose split has not ended
	transfer bool // a transfer's hand-off was among them
}

// handOffFreeze is how long after a hand-off the region's leader of that
// term keeps its pessimistic locks out of memory (TiKV reactivates
// in-memory locks 10 s after a transfer that did not happen).
const handOffFreeze = 10 * time.Second

// memPessimisticLock is one in-memory lock: its encoded value and tag.
type memPessimisticLock struct {
	value          []byte
	regionID, term uint64
	// leaving: a write that replaces or deletes the lock is on its way
	// (TiKV's deleted mark). The lock still counts until that write
	// succeeds, but a hand-off leaves it out: written after that write
	// in the raft log, its stale copy would put the pessimistic lock
	// back over the prewrite lock (or the commit) that replaced it.
	leaving bool
}

// memLockChange is one change a write command makes to the table once
// its engine write succeeded: value nil removes the key's lock.
type memLockChange struct {
	key   string
	value []byte
}

func newMemPessimisticLocks(tl LeaderTermer, max int) *memPessimisticLocks {
	if max <= 0 {
		max = DefaultMaxMemPessimisticLocks
	}
	return &memPessimisticLocks{tl: tl, max: max, locks: map[string]memPessimisticLock{}, handedOff: map[uint64]handOff{}}
}

// frozenLocked reports whether the scope's locks were handed off lately:
// then no lock change stays in memory only, as the new leader would not
// see it (TiKV's TransferringLeader state). The caller holds m.mu.
func (m *memPessimisticLocks) frozenLocked(sc *memScope) bool {
	h, ok := m.handedOff[sc.regionID]
	if !ok {
		return false
	}
	switch {
	case h.term > sc.term:
		return false // a command of an earlier term: its locks are not seen now
	case h.term < sc.term || (h.splits == 0 && time.Since(h.at) > handOffFreeze):
		// A split's freeze lasts until HandoffEnded; a transfer that did
		// not happen leaves the term's locks in memory again.
		delete(m.handedOff, sc.regionID)
		return false
	}
	return true
}

// memScope is what one write command may see and change of the table:
// the locks of the region and term it was routed in.
type memScope struct {
	m              *memPessimisticLocks
	regionID, term uint64
	start, end     []byte
}

// covers reports whether a lock of key tagged (regionID, term) is the
// scope's: same region and term, key still inside the region.
func (sc *memScope) covers(key string, l memPessimisticLock) bool {
	return l.regionID == sc.regionID && l.term == sc.term &&
		key >= string(sc.start) && (len(sc.end) == 0 || key < string(sc.end))
}

// scope returns the command's scope, or nil when the request is not
// routed to a region (then locks go to the engine).
func (m *memPessimisticLocks) scope(ctx context.Context) *memScope {
	if m == nil {
		return nil
	}
	region, term, start, end, ok := m.tl.LeaderTerm(ctx)
	if !ok {
		return nil
	}
	return &memScope{m: m, regionID: region, term: term, start: start, end: end}
}

// lookup returns key's in-memory lock as seen by the scope: a lock of
// another region or term, or of a key the region no longer holds, is
// reported absent (and left for purgeLocked).
func (sc *memScope) lookup(key []byte) ([]byte, bool) {
	m := sc.m
	m.mu.Lock()
	defer m.mu.Unlock()
	l, ok := m.locks[string(key)]
	if !ok || !sc.covers(string(key), l) {
		// Another region's lock or another term's: not this command's
		// to see (a command routed before a leader change must not drop
		// the locks of the new leadership either).
		return nil, false
	}
	return l.value, true
}

// load is the mvcc.Reader overlay of the scope.
func (sc *memScope) load(key []byte) (*mvcc.Lock, error) {
	v, ok := sc.lookup(key)
	if !ok {
		return nil, nil
	}
	return mvcc.DecodeLock(v)
}

// split takes the lock operations of b that concern the table out of it:
// a pessimistic lock put goes to memory (while there is room, and when
// the engine holds no lock of the key: that one would hide it), a delete
// of a lock that lives only in memory is dropped. It returns the batch to
// write to the engine (b itself when nothing was taken) and the changes
// to make once that write succeeded. engineMayHave tells whether the
// engine may hold a lock of key (the lock index).
//
// A batch left with nothing for the engine has its changes made here at
// once, under the same hold of m.mu as the decision, so no hand-off
// (HandoffLocks) reads the table in between and misses a lock put in
// memory after it. A batch that goes to the engine anyway takes its
// pessimistic lock puts along (none goes to memory after the write).
func (sc *memScope) split(b *engine.Batch, engineMayHave func(key []byte) bool) (*engine.Batch, []memLockChange) {
	m := sc.m
	m.mu.Lock()
	defer m.mu.Unlock()
	frozen := m.frozenLocked(sc)
	out, changes := sc.splitLocked(b, engineMayHave, frozen)
	if out.Empty() && len(changes) > 0 {
		sc.applyLocked(changes)
		return out, nil
	}
	for _, c := range changes {
		if c.value != nil { // a put to memory beside an engine write
			return sc.splitLocked(b, engineMayHave, true)
		}
	}
	return out, changes
}

// splitLocked is split's pass over b; with toEngine no pessimistic lock
// put goes to memory. The caller holds m.mu.
func (sc *memScope) splitLocked(b *engine.Batch, engineMayHave func(key []byte) bool, toEngine bool) (*engine.Batch, []memLockChange) {
	m := sc.m
	var changes []memLockChange
	var out *engine.Batch
	ops := b.Ops()
	var pending map[string]bool // keys changed earlier in b: in memory after the change
	room := -1                  // computed at the first pessimistic put
	for i, op := range ops {
		key, isLock := mvcc.DecodeLockKey(op.Key)
		keep := true
		if isLock {
			inMem, seen := pending[string(key)]
			if !seen {
				_, inMem = m.locks[string(key)]
			}
			toMem := false
			if op.Kind == engine.OpPut && mvcc.IsPessimisticRecord(op.Value) && !toEngine {
				if room < 0 {
					room = m.max - len(m.locks)
					if room <= 0 {
						room = m.max - m.purgeLocked()
					}
				}
				// A key whose lock may be in the engine (taken when the
				// table was full, or handed over before a leader transfer
				// that did not happen) keeps it there.
				toMem = !engineMayHave(key) && (inMem || room > 0)
			}
			if (toMem || inMem) && pending == nil {
				pending = map[string]bool{} // only batches that change the table
			}
			switch {
			case toMem:
				if !inMem {
					room--
				}
				changes = append(changes, memLockChange{key: string(key), value: op.Value})
				pending[string(key)] = true
				keep = false
			case inMem:
				changes = append(changes, memLockChange{key: string(key)})
				pending[string(key)] = false
				if l, ok := m.locks[string(key)]; ok {
					// Marked before the write is proposed: see leaving.
					l.leaving = true
					m.locks[string(key)] = l
				}
				keep = op.Kind == engine.OpPut || engineMayHave(key)
			}
		}
		if !keep && out == nil {
			out = &engine.Batch{NoSync: b.NoSync}
			for _, prev := range ops[:i] {
				out.Add(prev)
			}
		} else if keep && out != nil {
			out.Add(op)
		}
	}
	if out == nil {
		return b, changes
	}
	return out, changes
}

// purgeLocked drops the locks of leaderships this store no longer holds:
// another term of their region, a region it does not lead, a key that
// left the region. It runs when the table is full, at most once a
// second, and returns how many locks are left. The caller holds m.mu.
func (m *memPessimisticLocks) purgeLocked() int {
	if now := time.Now(); now.Sub(m.lastPurge) >= time.Second {
		m.lastPurge = now
		leads := map[uint64]*memScope{} // nil: not led here
		for k, l := range m.locks {
			sc, seen := leads[l.regionID]
			if !seen {
				if term, start, end, ok := m.tl.RegionLeadership(l.regionID); ok {
					sc = &memScope{m: m, regionID: l.regionID, term: term, start: start, end: end}
				}
				leads[l.regionID] = sc
			}
			if sc == nil || !sc.covers(k, l) {
				delete(m.locks, k)
			}
		}
	}
	return len(m.locks)
}

// apply makes the changes of a command whose engine write succeeded.
func (sc *memScope) apply(changes []memLockChange) {
	if sc == nil || len(changes) == 0 {
		return
	}
	sc.m.mu.Lock()
	defer sc.m.mu.Unlock()
	sc.applyLocked(changes)
}

// applyLocked is apply; the caller holds m.mu.
func (sc *memScope) applyLocked(changes []memLockChange) {
	m := sc.m
	for _, c := range changes {
		if c.value == nil {
			delete(m.locks, c.key)
			continue
		}
		m.locks[c.key] = memPessimisticLock{value: c.value, regionID: sc.regionID, term: sc.term}
	}
}

// txnKeys returns the keys whose in-memory lock, seen by the scope,
// belongs to the txn started at startTS, in no particular order.
func (sc *memScope) txnKeys(startTS uint64) [][]byte {
	m := sc.m
	m.mu.Lock()
	defer m.mu.Unlock()
	var out [][]byte
	for k, l := range m.locks {
		if !sc.covers(k, l) {
			continue
		}
		if lk, err := mvcc.DecodeLock(l.value); err == nil && lk.StartTS == startTS {
			out = append(out, []byte(k))
		}
	}
	return out
}

// HandoffLocks implements the raftstore's LockHandoff: the locks of
// regionID taken in term, as engine puts, handed off ahead of a split
// (split) or of a leader transfer. They stay in the table (the term ends
// with the transfer, the keys that leave with the split are dropped after
// it, and a command of this term that changes one writes it through raft,
// as the handed-over copy is in the lock index once applied).
//
// A lock that a write in flight replaces or deletes (a prewrite, a
// rollback) is left out: that write may already be in the raft log ahead
// of the hand-off, which would then put the pessimistic lock back over
// its result. The raftstore proposes the hand-off in the same step that
// calls this, so a write marked later is proposed after it and applies
// over the handed-over copy. A lock left out is lost to the new leader,
// which is safe: the prewrite's amend check then decides.
//
// From then on, for the rest of the term (or handOffFreeze; after a
// split's hand-off, until HandoffEnded says every split of the term
// ended, unless a transfer's hand-off came too), the region's lock
// changes go through raft, as the new leader would miss them in memory
// (they are refused while the transfer is pending, or land after the
// hand-off): no new lock stays in memory only (frozenLocked), and the
// handed-off keys join the lock index at once, so that a change of one
// is written to the engine too, over the handed-over copy, even before
// that copy applies here.
func (s *Storage) HandoffLocks(regionID, term uint64, split bool) *engine.Batch {
	m := s.mem
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var b engine.Batch
	var keys, left []string
	for k, l := range m.locks {
		if l.regionID != regionID || l.term != term {
			continue
		}
		if l.leaving {
			left = append(left, k)
			continue
		}
		b.Put(mvcc.LockKey([]byte(k)), l.value)
		keys = append(keys, k)
	}
	h := m.handedOff[regionID]
	if h.term != term {
		h = handOff{term: term}
	}
	h.at, h.left = time.Now(), left
	if split {
		h.splits++
	} else {
		h.transfer = true
	}
	m.handedOff[regionID] = h
	s.locks.add(keys)
	b.NoSync = true
	return &b
}

// HandoffEnded implements the raftstore's LockHandoff: a split that a
// hand-off of regionID in term preceded has applied or failed. Once
// every such split ended, the region's lock changes may stay in memory
// again (the keys handed off keep theirs in the engine; those that moved
// belong to the new region, whose table starts unfrozen), unless a
// leader transfer's hand-off came in the same term: that freeze lasts,
// since a lock taken in memory now would be lost to the transferee (a
// split's proposal that the transfer dropped ends the split while the
// transfer goes on).
func (s *Storage) HandoffEnded(regionID, term uint64) {
	m := s.mem
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	h, ok := m.handedOff[regionID]
	if !ok || h.term != term {
		return
	}
	if h.splits > 0 {
		h.splits--
	}
	if h.splits > 0 || h.transfer {
		m.handedOff[regionID] = h
		return
	}
	delete(m.handedOff, regionID)
}

// HandoffPending implements the raftstore's LockHandoff: whether a write
// that replaces a lock the last hand-off of regionID in term left out is
// still on its way. The raftstore holds the transfer back meanwhile (raft
// would drop that write during the transfer, and its lock is not handed
// over: the transaction would fail its prewrite on the new leader).
func (s *Storage) HandoffPending(regionID, term uint64) bool {
	m := s.mem
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	h, ok := m.handedOff[regionID]
	if !ok || h.term != term {
		return false
	}
	_, start, end, leads := m.tl.RegionLeadership(regionID)
	if !leads {
		return false
	}
	sc := &memScope{regionID: regionID, term: term, start: start, end: end}
	pending := h.left[:0]
	for _, k := range h.left {
		// The write that succeeded removed or replaced the lock; a
		// failed one left it marked (a key a split moved away has its
		// write refused by the epoch: not waited for).
		if l, ok := m.locks[k]; ok && l.leaving && sc.covers(k, l) {
			pending = append(pending, k)
		}
	}
	h.left = pending
	m.handedOff[regionID] = h
	return len(pending) > 0
}

// len returns the number of locks held (tests, metrics).
func (m *memPessimisticLocks) len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.locks)
}
