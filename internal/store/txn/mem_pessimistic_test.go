package txn

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// The why of HandoffLocks, named.
const forSplit, forTransfer = true, false

// termEngine is a hookEngine that is a LeaderTermer: every request runs
// on region 1, whose leader's term the test moves.
type termEngine struct {
	*hookEngine
	term atomic.Uint64
}

func (e *termEngine) LeaderTerm(context.Context) (uint64, uint64, []byte, []byte, bool) {
	return 1, e.term.Load(), nil, nil, true
}

func (e *termEngine) RegionLeadership(id uint64) (uint64, []byte, []byte, bool) {
	return e.term.Load(), nil, nil, id == 1
}

// newMemLockStorage is newTestStorage with in-memory pessimistic locks.
func newMemLockStorage(t testing.TB, o Options) (*Storage, *termEngine) {
	t.Helper()
	_, he := newTestStorage(t, o)
	te := &termEngine{hookEngine: he}
	te.term.Store(5)
	o.InMemoryPessimisticLocks = true
	s := NewStorage(te, o)
	if s.mem == nil {
		t.Fatal("in-memory pessimistic locks are off over a LeaderTermer")
	}
	return s, te
}

// lockModes runs f over a Storage that writes pessimistic locks to the
// engine and over one that keeps them in memory.
func lockModes(t *testing.T, o Options, f func(t *testing.T, s *Storage)) {
	t.Run("engine", func(t *testing.T) {
		s, _ := newTestStorage(t, o)
		f(t, s)
	})
	t.Run("memory", func(t *testing.T) {
		s, _ := newMemLockStorage(t, o)
		f(t, s)
	})
}

// engineLockKeys returns the user keys of the locks in the engine.
func engineLockKeys(t testing.TB, s *Storage) []string {
	t.Helper()
	lo, hi := mvcc.LockSpaceBounds()
	keys, err := scanLockKeys(bg, s.eng, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// Pessimistic locks live in memory only: taking them, meeting them,
// converting them by prewrite and rolling them back write no engine lock,
// and the lock and rollback requests write nothing at all.
func TestMemPessimisticLocksStayOutOfTheEngine(t *testing.T) {
	s, e := newMemLockStorage(t, Options{WaitForLockTimeout: time.Minute})
	mustLock(t, s, lockReq(10, 10, 0, "a", "b"))
	if n := e.writes.Load(); n != 0 {
		t.Fatalf("taking two pessimistic locks wrote %d batches", n)
	}
	if keys := engineLockKeys(t, s); len(keys) != 0 || s.mem.len() != 2 {
		t.Fatalf("engine locks %q, %d in memory; want none and 2", keys, s.mem.len())
	}
	resp, err := s.KvPessimisticLock(bg, lockReq(20, 20, -1, "b"))
	if err != nil {
		t.Fatal(err)
	}
	var locked *kv.LockedError
	if err := one(t, resp.Errors).Err(); !errors.As(err, &locked) || locked.Lock.StartTS != 10 {
		t.Fatalf("locking b held in memory by 10: %v", err)
	}
	// A waiter's check after it registers must see the memory lock, or
	// it would spin instead of sleeping until the release.
	if s.lockReleased(bg, []byte("b"), 10) {
		t.Fatal("b's memory lock of 10 counts as released")
	}

	pessimisticCommit(t, s, 10, 10, 15, "a", "v1")
	if got := mustGet(t, s, "a", 16); got != "v1" {
		t.Fatalf("a = %q after the commit", got)
	}
	if keys := engineLockKeys(t, s); len(keys) != 0 || s.mem.len() != 1 {
		t.Fatalf("after the commit of a: engine locks %q, %d in memory; want none and 1", keys, s.mem.len())
	}
	writes := e.writes.Load()
	rb, err := s.KvPessimisticRollback(bg, &kvrpcpb.PessimisticRollbackRequest{StartVersion: 10, ForUpdateTs: 10, Keys: bkeys("b")})
	if err != nil || len(rb.Errors) > 0 {
		t.Fatalf("pessimistic rollback: %v %s", err, fmtKeyErrs(rb.Errors))
	}
	if n := e.writes.Load() - writes; n != 0 || s.mem.len() != 0 {
		t.Fatalf("rolling back a memory lock wrote %d batches, left %d locks", n, s.mem.len())
	}
	mustLock(t, s, lockReq(20, 20, 0, "b"))
}

// A lock taken under one leader term is gone for the commands of a later
// term: another txn gets the key, and the holder's prewrite fails instead
// of trusting the lost lock.
func TestMemPessimisticLockGoneWithTheTerm(t *testing.T) {
	s, e := newMemLockStorage(t, Options{WaitForLockTimeout: time.Minute})
	mustLock(t, s, lockReq(10, 10, 0, "a"))
	e.term.Add(1)
	mustLock(t, s, lockReq(20, 20, -1, "a"))
	pessimisticCommit(t, s, 20, 20, 25, "a", "v20")
	resp, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("a", "v10")},
		PrimaryLock: []byte("a"), StartVersion: 10, ForUpdateTs: 10, LockTtl: 3000, IsPessimisticLock: []bool{true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Errors) == 0 {
		t.Fatal("the prewrite of 10 trusted a pessimistic lock of an earlier term")
	}
	if got := mustGet(t, s, "a", 30); got != "v20" {
		t.Fatalf("a = %q, want v20", got)
	}
}

// ResolveLock without keys scans the engine's lock space; it resolves the
// txn's memory locks too, or a waiter would wait for them forever.
func TestMemPessimisticLocksResolvedWithoutKeys(t *testing.T) {
	s, _ := newMemLockStorage(t, Options{WaitForLockTimeout: time.Minute})
	mustLock(t, s, lockReq(10, 10, 0, "a", "b"))
	mustLock(t, s, lockReq(30, 30, 0, "c"))
	resp, err := s.KvResolveLock(bg, &kvrpcpb.ResolveLockRequest{StartVersion: 10})
	if err != nil || resp.Error != nil {
		t.Fatalf("resolve: %v %v", err, resp.GetError())
	}
	if n := s.mem.len(); n != 1 {
		t.Fatalf("%d memory locks left, want c's only", n)
	}
	mustLock(t, s, lockReq(20, 20, 0, "a", "b"))
}

// Past MaxMemPessimisticLocks new locks are written to the engine; a
// request that writes one there writes all its locks there (none goes
// to memory after an engine write: see memScope.split).
func TestMemPessimisticLocksBounded(t *testing.T) {
	s, e := newMemLockStorage(t, Options{MaxMemPessimisticLocks: 1})
	mustLock(t, s, lockReq(10, 10, 0, "a", "b"))
	if keys := engineLockKeys(t, s); len(keys) != 2 || s.mem.len() != 0 {
		t.Fatalf("engine locks %q, %d in memory; want both in the engine", keys, s.mem.len())
	}
	pessimisticCommit(t, s, 10, 10, 15, "a", "v1")
	mustCommitPessimisticKey(t, s, 10, 10, 15, "b", "v2")
	if keys := engineLockKeys(t, s); len(keys) != 0 || s.mem.len() != 0 {
		t.Fatalf("after commit: engine locks %q, %d in memory", keys, s.mem.len())
	}
	// A lock left from an earlier term does not hold the room.
	mustLock(t, s, lockReq(20, 20, 0, "c"))
	e.term.Add(1)
	mustLock(t, s, lockReq(30, 30, 0, "d"))
	if keys := engineLockKeys(t, s); len(keys) != 0 || s.mem.len() != 1 {
		t.Fatalf("after a term change: engine locks %q, %d in memory; want d in memory", keys, s.mem.len())
	}
}

// mustCommitPessimisticKey prewrites and commits key as a secondary of
// the pessimistic txn startTS.
func mustCommitPessimisticKey(t *testing.T, s *Storage, startTS, forUpdateTS, commitTS uint64, key, value string) {
	t.Helper()
	mustPrewrite(t, s, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put(key, value)}, PrimaryLock: []byte("a"),
		StartVersion: startTS, ForUpdateTs: forUpdateTS, LockTtl: 3000, IsPessimisticLock: []bool{true}})
	mustCommit(t, s, startTS, commitTS, key)
}

// A key whose lock is in the engine (the table was full when it was
// taken) keeps it there: a newer put of it (a re-lock, a heartbeat) must
// not go to memory, where the engine's older lock would hide it.
func TestMemPessimisticLockNotBehindEngineLock(t *testing.T) {
	s, _ := newMemLockStorage(t, Options{MaxMemPessimisticLocks: 1})
	mustLock(t, s, lockReq(10, 10, 0, "a", "b")) // a in memory, b in the engine
	rb, err := s.KvPessimisticRollback(bg, &kvrpcpb.PessimisticRollbackRequest{StartVersion: 10, ForUpdateTs: 10, Keys: bkeys("a")})
	if err != nil || len(rb.Errors) > 0 {
		t.Fatalf("pessimistic rollback: %v %s", err, fmtKeyErrs(rb.Errors))
	}
	mustLock(t, s, lockReq(10, 20, 0, "b"))
	var l *mvcc.Lock
	if err := s.read(bg, func(r *mvcc.Reader) { l, err = r.LoadLock([]byte("b")) }); err != nil {
		t.Fatal(err)
	}
	if err != nil || l == nil || l.ForUpdateTS != 20 || s.mem.len() != 0 {
		t.Fatalf("b's engine lock %+v (%v), %d in memory; want the engine lock at for_update_ts 20", l, err, s.mem.len())
	}
}

// A command routed before a leader change neither sees nor drops the
// locks of the new leadership.
func TestMemPessimisticLockStaleRouteLeavesIt(t *testing.T) {
	s, e := newMemLockStorage(t, Options{WaitForLockTimeout: time.Minute})
	mustLock(t, s, lockReq(10, 10, 0, "a"))
	old := &memScope{m: s.mem, regionID: 1, term: e.term.Load() - 1}
	if _, ok := old.lookup([]byte("a")); ok {
		t.Fatal("a command of an earlier term sees the lock")
	}
	if s.lockReleased(bg, []byte("a"), 10) || s.mem.len() != 1 {
		t.Fatalf("the lock of 10 is gone after a stale lookup (%d in memory)", s.mem.len())
	}
}

// HandoffLocks gives the region's locks of the leader's term as engine
// lock puts, the same bytes a lock write would have put.
func TestMemPessimisticLocksHandoff(t *testing.T) {
	s, e := newMemLockStorage(t, Options{})
	mustLock(t, s, lockReq(10, 10, 0, "a", "b"))
	if b := s.HandoffLocks(1, e.term.Load()-1, forTransfer); b.Len() != 0 {
		t.Fatalf("an earlier term's hand-off has %d ops", b.Len())
	}
	b := s.HandoffLocks(1, e.term.Load(), forTransfer)
	got := map[string]bool{}
	for _, op := range b.Ops() {
		k, ok := mvcc.DecodeLockKey(op.Key)
		l, err := mvcc.DecodeLock(op.Value)
		if !ok || op.Kind != engine.OpPut || err != nil || !l.IsPessimistic() || l.StartTS != 10 {
			t.Fatalf("hand-off op %c %q: lock %+v %v", op.Kind, op.Key, l, err)
		}
		got[string(k)] = true
	}
	if len(got) != 2 || !got["a"] || !got["b"] || !b.NoSync {
		t.Fatalf("hand-off of keys %v (NoSync %v), want a and b", got, b.NoSync)
	}
}

// Once a lock was handed over (a leader transfer that then did not
// happen), its key's lock is in the engine too: a re-lock goes there, or
// the engine's copy would hide it.
func TestMemPessimisticLockAfterHandoff(t *testing.T) {
	s, e := newMemLockStorage(t, Options{})
	mustLock(t, s, lockReq(10, 10, 0, "a"))
	b := s.HandoffLocks(1, e.term.Load(), forTransfer)
	s.BeforeApply(b)
	if err := s.eng.Write(bg, b); err != nil {
		t.Fatal(err)
	}
	s.Applied(b)
	mustLock(t, s, lockReq(10, 20, 0, "a"))
	var l *mvcc.Lock
	var err error
	if err := s.read(bg, func(r *mvcc.Reader) { l, err = r.LoadLock([]byte("a")) }); err != nil {
		t.Fatal(err)
	}
	if err != nil || l == nil || l.ForUpdateTS != 20 || s.mem.len() != 0 {
		t.Fatalf("a's engine lock %+v (%v), %d in memory; want the engine lock at for_update_ts 20 only", l, err, s.mem.len())
	}
	pessimisticCommit(t, s, 10, 20, 25, "a", "v")
	if keys := engineLockKeys(t, s); len(keys) != 0 {
		t.Fatalf("locks left after the commit: %q", keys)
	}
}

// A hand-off leaves out a lock that a write in flight replaces: that
// write may be ahead of the hand-off in the raft log, and the stale copy
// applied after it would put the pessimistic lock back over the prewrite
// lock, whose commit then writes nothing (TestStoreDownReplaced lost an
// acknowledged transfer that way). The write counts as pending (the
// transfer waits for it) until it answered.
func TestMemPessimisticLocksHandoffSkipsLeaving(t *testing.T) {
	s, e := newMemLockStorage(t, Options{})
	mustLock(t, s, lockReq(10, 10, 0, "a", "b"))
	e.blockWrites.Store(true)
	done := make(chan *kvrpcpb.PrewriteResponse, 1)
	go func() {
		resp, _ := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("a", "v")},
			PrimaryLock: []byte("a"), StartVersion: 10, ForUpdateTs: 10, LockTtl: 3000, IsPessimisticLock: []bool{true}})
		done <- resp
	}()
	<-e.entered // the prewrite's write is proposed, not yet applied
	b := s.HandoffLocks(1, e.term.Load(), forTransfer)
	if !s.HandoffPending(1, e.term.Load()) {
		t.Fatal("the hand-off left a's lock out, but no write is pending")
	}
	e.blockWrites.Store(false)
	e.release <- struct{}{}
	if resp := <-done; resp == nil || len(resp.Errors) > 0 {
		t.Fatalf("prewrite: %v", resp)
	}
	if s.HandoffPending(1, e.term.Load()) {
		t.Fatal("a write is still pending after the prewrite answered")
	}
	var keys []string
	for _, op := range b.Ops() {
		k, _ := mvcc.DecodeLockKey(op.Key)
		keys = append(keys, string(k))
	}
	if len(keys) != 1 || keys[0] != "b" {
		t.Fatalf("hand-off during a's prewrite has the locks of %q, want b's only", keys)
	}
	// The hand-off applies after the prewrite: a's lock stays the
	// prewrite's, and the commit writes the value.
	s.BeforeApply(b)
	if err := s.eng.Write(bg, b); err != nil {
		t.Fatal(err)
	}
	s.Applied(b)
	mustCommit(t, s, 10, 20, "a")
	if got := mustGet(t, s, "a", 30); got != "v" {
		t.Fatalf("a reads %q after the commit, want v", got)
	}
}

// After a hand-off, a change of a handed-off lock is written to the
// engine even before the hand-off applied there: the 1PC commit proposed
// after the hand-off deletes the handed-over copy, instead of leaving a
// pessimistic lock over the committed key (which no resolver could then
// roll back). And no new lock of that term stays in memory only, where
// the new leader would not see it.
func TestMemPessimisticLocksAfterHandoffGoThroughTheEngine(t *testing.T) {
	s, e := newMemLockStorage(t, Options{})
	mustLock(t, s, lockReq(10, 10, 0, "a"))
	b := s.HandoffLocks(1, e.term.Load(), forTransfer)
	e.blockWrites.Store(true)
	done := make(chan *kvrpcpb.PrewriteResponse, 1)
	go func() {
		resp, _ := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("a", "v")},
			PrimaryLock: []byte("a"), StartVersion: 10, ForUpdateTs: 10, LockTtl: 3000,
			IsPessimisticLock: []bool{true}, TryOnePc: true})
		done <- resp
	}()
	<-e.entered // the 1PC write is proposed, after the hand-off
	s.BeforeApply(b)
	if err := e.hookEngine.Engine.Write(bg, b); err != nil { // the hand-off applies first
		t.Fatal(err)
	}
	s.Applied(b)
	e.blockWrites.Store(false)
	e.release <- struct{}{}
	if resp := <-done; resp == nil || len(resp.Errors) > 0 || resp.OnePcCommitTs == 0 {
		t.Fatalf("1PC prewrite: %v", resp)
	}
	if keys := engineLockKeys(t, s); len(keys) != 0 {
		t.Fatalf("engine locks %q after the 1PC commit, want none", keys)
	}
	if got := mustGet(t, s, "a", 100); got != "v" {
		t.Fatalf("a reads %q, want v", got)
	}
	mustLock(t, s, lockReq(20, 20, 0, "c"))
	if keys := engineLockKeys(t, s); len(keys) != 1 || keys[0] != "c" || s.mem.len() != 0 {
		t.Fatalf("a lock taken after the hand-off: engine locks %q, %d in memory; want c in the engine", keys, s.mem.len())
	}
}

// A command routed in an earlier term does not end a later term's
// freeze after a hand-off: the locks of the term handed off still go to
// the engine.
func TestMemPessimisticLocksStaleTermKeepsFreeze(t *testing.T) {
	s, e := newMemLockStorage(t, Options{})
	s.HandoffLocks(1, e.term.Load(), forTransfer)
	e.term.Add(^uint64(0)) // minus one: a request routed before the term began
	mustLock(t, s, lockReq(10, 10, 0, "x"))
	e.term.Add(1)
	mustLock(t, s, lockReq(20, 20, 0, "y"))
	if keys := engineLockKeys(t, s); len(keys) != 1 || keys[0] != "y" {
		t.Fatalf("engine locks %q after the hand-off, want y's", keys)
	}
}

// frozen takes a pessimistic lock of key at ts and reports whether it
// went to the engine (the region's lock changes are frozen after a
// hand-off) rather than to memory; it fails the test if the lock is in
// both or neither.
func frozen(t *testing.T, s *Storage, ts uint64, key string) bool {
	t.Helper()
	mustLock(t, s, lockReq(ts, ts, 0, key))
	inEngine := slices.Contains(engineLockKeys(t, s), key)
	s.mem.mu.Lock()
	_, inMemory := s.mem.locks[key]
	s.mem.mu.Unlock()
	if inEngine == inMemory {
		t.Fatalf("lock of %s: in the engine %v, in memory %v", key, inEngine, inMemory)
	}
	return inEngine
}

// Once the split a hand-off preceded has applied, the region's new locks
// stay in memory again; the end of another term's hand-off changes
// nothing.
func TestMemPessimisticLocksHandoffEnded(t *testing.T) {
	s, e := newMemLockStorage(t, Options{})
	term := e.term.Load()
	s.HandoffLocks(1, term, forSplit)
	s.HandoffEnded(1, term-1)
	if !frozen(t, s, 10, "x") {
		t.Fatal("another term's end unfroze the region: x's lock is in memory, want it in the engine")
	}
	s.HandoffEnded(1, term)
	if frozen(t, s, 20, "y") {
		t.Fatal("after the split: y's lock is in the engine, want it in memory")
	}
}

// A split that ends while a leader transfer of the same term is under
// way does not end the transfer's freeze: a lock taken then would live in
// memory only and be lost to the new leader (seen as "pessimistic lock
// not found" at prewrite in TestLeaderTransfersUnderLoad, when the split
// check's proposal was dropped by the transfer). Either order of the two
// hand-offs.
func TestMemPessimisticLocksSplitEndKeepsTransferFreeze(t *testing.T) {
	for _, splitFirst := range []bool{true, false} {
		s, e := newMemLockStorage(t, Options{})
		term := e.term.Load()
		first, second := forTransfer, forSplit
		if splitFirst {
			first, second = second, first
		}
		s.HandoffLocks(1, term, first)
		s.HandoffLocks(1, term, second)
		s.HandoffEnded(1, term)
		if !frozen(t, s, 10, "x") {
			t.Fatalf("split first %v: x's lock is in memory after the split ended, want it in the engine", splitFirst)
		}
	}
}

// Two splits of one term: the freeze lasts until both ended.
func TestMemPessimisticLocksFreezeUntilEverySplitEnded(t *testing.T) {
	s, e := newMemLockStorage(t, Options{})
	term := e.term.Load()
	s.HandoffLocks(1, term, forSplit)
	s.HandoffLocks(1, term, forSplit)
	s.HandoffEnded(1, term)
	if !frozen(t, s, 10, "x") {
		t.Fatal("one split of two ended: x's lock is in memory, want it in the engine")
	}
	s.HandoffEnded(1, term)
	if frozen(t, s, 20, "y") {
		t.Fatal("both splits ended: y's lock is in the engine, want it in memory")
	}
}
