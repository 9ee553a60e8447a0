package txnclient

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// prewrite prewrites kvs (primary first) by hand, as a coordinator that
// then dies would. It returns the min_commit_ts storage answered.
func (cl *cluster) prewrite(startTS, ttl uint64, async bool, kvs ...string) uint64 {
	cl.t.Helper()
	req := &kvrpcpb.PrewriteRequest{Context: cl.ctx(), PrimaryLock: []byte(kvs[0]), StartVersion: startTS,
		LockTtl: ttl, TxnSize: uint64(len(kvs) / 2), MinCommitTs: startTS + 1, UseAsyncCommit: async}
	for i := 0; i+1 < len(kvs); i += 2 {
		req.Mutations = append(req.Mutations, &kvrpcpb.Mutation{Op: kvrpcpb.Op_Put, Key: []byte(kvs[i]), Value: []byte(kvs[i+1])})
		if async && i > 0 {
			req.Secondaries = append(req.Secondaries, []byte(kvs[i]))
		}
	}
	resp, err := cl.store.KvPrewrite(context.Background(), req)
	if err != nil || resp.RegionError != nil || len(resp.Errors) > 0 {
		cl.t.Fatalf("prewrite: %v %v %v", err, resp.GetRegionError(), resp.GetErrors())
	}
	return resp.MinCommitTs
}

// commit commits keys of startTS by hand.
func (cl *cluster) commit(startTS, commitTS uint64, keys ...string) error {
	cl.t.Helper()
	req := &kvrpcpb.CommitRequest{Context: cl.ctx(), StartVersion: startTS, CommitVersion: commitTS}
	for _, k := range keys {
		req.Keys = append(req.Keys, []byte(k))
	}
	resp, err := cl.store.KvCommit(context.Background(), req)
	if err != nil {
		cl.t.Fatal(err)
	}
	return resp.GetError().Err()
}

// status asks for the primary's status without changing anything that a
// live lock would not allow.
func (cl *cluster) status(primary string, startTS uint64) *kvrpcpb.CheckTxnStatusResponse {
	cl.t.Helper()
	resp, err := cl.store.KvCheckTxnStatus(context.Background(), &kvrpcpb.CheckTxnStatusRequest{Context: cl.ctx(),
		PrimaryKey: []byte(primary), LockTs: startTS, CurrentTs: cl.oracle.now(cl.t)})
	if err != nil || resp.RegionError != nil {
		cl.t.Fatalf("check txn status: %v %v", err, resp.GetRegionError())
	}
	return resp
}

// locked reports whether key carries a lock at any ts.
func (cl *cluster) locked(key string) bool {
	cl.t.Helper()
	resp, err := cl.store.KvScanLock(context.Background(), &kvrpcpb.ScanLockRequest{Context: cl.ctx(),
		MaxVersion: ^uint64(0) - 1, StartKey: []byte(key), EndKey: kv.Key(key).Next(), Limit: 10})
	if err != nil || resp.RegionError != nil || resp.Error != nil {
		cl.t.Fatalf("scan lock: %v %v %v", err, resp.GetRegionError(), resp.GetError())
	}
	return len(resp.Locks) > 0
}

func TestResolveDeadCoordinatorRolledBack(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{})
	put(t, c, "p", "p0", "s", "s0")
	startTS := cl.oracle.now(t)
	cl.prewrite(startTS, 50, false, "p", "p1", "s", "s1")
	cl.oracle.advance(100) // past the 50 ms TTL
	r := begin(t, c)
	if got := get(t, r, "s"); got != "s0" {
		t.Fatalf("reader of the secondary saw %s", got)
	}
	if got := get(t, r, "p"); got != "p0" {
		t.Fatalf("reader of the primary saw %s", got)
	}
	st := cl.status("p", startTS)
	if st.LockTtl != 0 || st.CommitVersion != 0 {
		t.Fatalf("primary not rolled back: %v", st)
	}
	if cl.locked("s") || cl.locked("p") {
		t.Fatal("locks left behind")
	}
	// the dead coordinator wakes up: its commit must fail
	if err := cl.commit(startTS, cl.oracle.now(t), "p"); !errors.Is(err, kv.ErrTxnLockNotFound) {
		t.Fatalf("late commit: %v", err)
	}
}

func TestResolveLiveLockWaits(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{Sleeper: noSleep})
	put(t, c, "k", "v0")
	startTS := cl.oracle.now(t)
	cl.prewrite(startTS, 3000, true, "k", "v1") // async: cannot be pushed
	r := begin(t, c)
	_, err := r.Get(context.Background(), kv.Key("k"))
	if !errors.Is(err, kv.ErrKeyIsLocked) {
		t.Fatalf("read of a live async lock: %v, want it to stay locked", err)
	}
	if st := cl.status("k", startTS); st.LockTtl == 0 {
		t.Fatalf("live lock was resolved: %v", st)
	}
}

func TestResolveRollForward(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{})
	startTS := cl.oracle.now(t)
	cl.prewrite(startTS, 3000, false, "p", "p1", "s1", "x", "s2", "y")
	commitTS := cl.oracle.now(t)
	if err := cl.commit(startTS, commitTS, "p"); err != nil {
		t.Fatal(err)
	}
	// the coordinator died before committing s1, s2; the locks are alive
	// by TTL, but the primary is committed: readers roll them forward.
	r := begin(t, c)
	m, err := r.BatchGet(context.Background(), []kv.Key{kv.Key("s1"), kv.Key("s2"), kv.Key("p")})
	if err != nil || string(m["s1"]) != "x" || string(m["s2"]) != "y" || string(m["p"]) != "p1" {
		t.Fatalf("BatchGet = %q, %v", m, err)
	}
	if cl.locked("s1") || cl.locked("s2") {
		t.Fatal("secondaries still locked")
	}
	// a reader older than the commit does not see it
	old := c.BeginAt(commitTS - 1)
	if got := get(t, old, "s1"); got != "<nil>" {
		t.Fatalf("reader below commit ts saw %s", got)
	}
}

func TestResolveRollForwardInScan(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{ScanBatchSize: 2})
	startTS := cl.oracle.now(t)
	cl.prewrite(startTS, 3000, false, "a", "1", "b", "2", "c", "3")
	if err := cl.commit(startTS, cl.oracle.now(t), "a"); err != nil {
		t.Fatal(err)
	}
	r := begin(t, c)
	if got := iterString(t, r, "", "", true); got != "c=3 b=2 a=1" {
		t.Fatalf("scan: %s", got)
	}
}

func TestAsyncCommitRecovery(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{})
	put(t, c, "p", "p0", "s", "s0", "t", "t0")
	startTS := cl.oracle.now(t)
	prewrite := func(muts []*kvrpcpb.Mutation, secondaries ...string) uint64 {
		req := &kvrpcpb.PrewriteRequest{Context: cl.ctx(), PrimaryLock: []byte("p"), StartVersion: startTS,
			LockTtl: 50, TxnSize: 3, MinCommitTs: startTS + 1, UseAsyncCommit: true, Mutations: muts}
		for _, k := range secondaries {
			req.Secondaries = append(req.Secondaries, []byte(k))
		}
		resp, err := cl.store.KvPrewrite(context.Background(), req)
		if err != nil || len(resp.Errors) > 0 || resp.RegionError != nil {
			t.Fatalf("prewrite: %v %v", err, resp)
		}
		return resp.MinCommitTs
	}
	min1 := prewrite([]*kvrpcpb.Mutation{
		{Op: kvrpcpb.Op_Put, Key: []byte("p"), Value: []byte("p1")},
		{Op: kvrpcpb.Op_Put, Key: []byte("s"), Value: []byte("s1")},
	}, "s", "t")
	// a reader at a later ts reads t before t is prewritten: t's
	// min_commit_ts must land above that read
	reader := begin(t, c)
	if got := get(t, reader, "t"); got != "t0" {
		t.Fatal(got)
	}
	min2 := prewrite([]*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: []byte("t"), Value: []byte("t1")}})
	if min1 == 0 || min2 <= reader.StartTS() || min2 <= min1 {
		t.Fatalf("min_commit_ts %d, then %d after a read at %d", min1, min2, reader.StartTS())
	}
	// every prewrite succeeded, then the coordinator died; the locks expire
	cl.oracle.advance(100)
	r := begin(t, c)
	if got := get(t, r, "s"); got != "s1" {
		t.Fatalf("recovered secondary: %s", got)
	}
	st := cl.status("p", startTS)
	if st.LockTtl != 0 || st.CommitVersion != min2 {
		t.Fatalf("primary status %v, want committed at max(min_commit_ts) = %d", st, min2)
	}
	for _, k := range []string{"p", "s", "t"} {
		if cl.locked(k) {
			t.Fatalf("%s still locked", k)
		}
	}
	if got := get(t, c.BeginAt(min2-1), "t"); got != "t0" {
		t.Fatalf("read below the commit ts saw %s", got)
	}
	if got := get(t, c.BeginAt(min2), "t"); got != "t1" {
		t.Fatalf("read at the commit ts saw %s", got)
	}
	if got := get(t, reader, "t"); got != "t0" {
		t.Fatalf("repeatable read broken: %s", got)
	}
}

func TestAsyncCommitRecoveryRollsBackMissingSecondary(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{})
	put(t, c, "p", "p0", "s", "s0")
	startTS := cl.oracle.now(t)
	req := &kvrpcpb.PrewriteRequest{Context: cl.ctx(), PrimaryLock: []byte("p"), StartVersion: startTS,
		LockTtl: 50, TxnSize: 1, MinCommitTs: startTS + 1, UseAsyncCommit: true,
		Secondaries: [][]byte{[]byte("s")},
		Mutations:   []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: []byte("p"), Value: []byte("p1")}}}
	if resp, err := cl.store.KvPrewrite(context.Background(), req); err != nil || len(resp.Errors) > 0 {
		t.Fatalf("prewrite: %v %v", err, resp)
	}
	// s was never prewritten: the txn cannot have committed
	cl.oracle.advance(100)
	if got := get(t, begin(t, c), "p"); got != "p0" {
		t.Fatalf("read of the primary: %s", got)
	}
	if st := cl.status("p", startTS); st.LockTtl != 0 || st.CommitVersion != 0 {
		t.Fatalf("status %v, want rolled back", st)
	}
	// the late secondary prewrite must not succeed now
	req.Mutations = []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: []byte("s"), Value: []byte("s1")}}
	req.Secondaries = nil
	resp, err := cl.store.KvPrewrite(context.Background(), req)
	if err != nil || len(resp.Errors) == 0 {
		t.Fatalf("late prewrite of s succeeded: %v %v", err, resp)
	}
}

// TestResolveMissingPrimary: a secondary whose primary was never
// prewritten (the coordinator died in between). While the lock is alive
// the reader waits; once it expired the primary gets a protected rollback.
func TestResolveMissingPrimary(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{})
	startTS := cl.oracle.now(t)
	req := &kvrpcpb.PrewriteRequest{Context: cl.ctx(), PrimaryLock: []byte("p"), StartVersion: startTS, LockTtl: 50,
		TxnSize: 1, MinCommitTs: startTS + 1,
		Mutations: []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: []byte("s"), Value: []byte("s1")}}}
	if resp, err := cl.store.KvPrewrite(context.Background(), req); err != nil || len(resp.Errors) > 0 {
		t.Fatalf("prewrite: %v %v", err, resp)
	}
	fast := cl.client(Options{Sleeper: noSleep})
	if _, err := begin(t, fast).Get(context.Background(), kv.Key("s")); !errors.Is(err, kv.ErrKeyIsLocked) {
		t.Fatalf("read before expiry: %v, want still locked", err)
	}
	cl.oracle.advance(100)
	if got := get(t, begin(t, c), "s"); got != "<nil>" {
		t.Fatalf("read after expiry: %s", got)
	}
	// the primary now carries a rollback: a late prewrite of it fails
	req.Mutations = []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: []byte("p"), Value: []byte("p1")}}
	resp, err := cl.store.KvPrewrite(context.Background(), req)
	if err != nil || len(resp.Errors) == 0 || !errors.Is(resp.Errors[0].Err(), kv.ErrWriteConflict) {
		t.Fatalf("late primary prewrite: %v %v", err, resp)
	}
}

// TestResolveWholeRegion: a big txn's locks are resolved by scanning the
// region, so keys the reader never touched are resolved too.
func TestResolveWholeRegion(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{})
	startTS := cl.oracle.now(t)
	req := &kvrpcpb.PrewriteRequest{Context: cl.ctx(), PrimaryLock: []byte("p"), StartVersion: startTS, LockTtl: 3000,
		TxnSize: 1000, MinCommitTs: startTS + 1}
	for _, k := range []string{"p", "s1", "s2"} {
		req.Mutations = append(req.Mutations, &kvrpcpb.Mutation{Op: kvrpcpb.Op_Put, Key: []byte(k), Value: []byte("v")})
	}
	if resp, err := cl.store.KvPrewrite(context.Background(), req); err != nil || len(resp.Errors) > 0 {
		t.Fatalf("prewrite: %v %v", err, resp)
	}
	if err := cl.commit(startTS, cl.oracle.now(t), "p"); err != nil {
		t.Fatal(err)
	}
	if got := get(t, begin(t, c), "s1"); got != "v" {
		t.Fatalf("s1 = %s", got)
	}
	if cl.locked("s2") {
		t.Fatal("s2 still locked: the region was not resolved whole")
	}
}

// TestAsyncCommitFallbackResolved: the primary is an async-commit lock
// but a secondary fell back to 2PC; recovery must then decide through
// CheckTxnStatus with force_sync_commit (an expired txn rolls back).
func TestAsyncCommitFallbackResolved(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{})
	put(t, c, "p", "p0", "s", "s0")
	startTS := cl.oracle.now(t)
	for _, m := range []struct {
		key   string
		async bool
	}{{"p", true}, {"s", false}} {
		req := &kvrpcpb.PrewriteRequest{Context: cl.ctx(), PrimaryLock: []byte("p"), StartVersion: startTS, LockTtl: 50,
			TxnSize: 1, MinCommitTs: startTS + 1, UseAsyncCommit: m.async,
			Mutations: []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: []byte(m.key), Value: []byte(m.key + "1")}}}
		if m.async {
			req.Secondaries = [][]byte{[]byte("s")}
		}
		if resp, err := cl.store.KvPrewrite(context.Background(), req); err != nil || len(resp.Errors) > 0 {
			t.Fatalf("prewrite %s: %v %v", m.key, err, resp)
		}
	}
	cl.oracle.advance(100)
	r := begin(t, c)
	if p, s := get(t, r, "p"), get(t, r, "s"); p != "p0" || s != "s0" {
		t.Fatalf("p=%s s=%s, want the old values", p, s)
	}
	if st := cl.status("p", startTS); st.LockTtl != 0 || st.CommitVersion != 0 {
		t.Fatalf("status %v, want rolled back", st)
	}
	if cl.locked("p") || cl.locked("s") {
		t.Fatal("locks left behind")
	}
}

// A lock whose primary was never prewritten (its coordinator died between
// the batches) is TxnNotFound until its TTL passes; the resolver must see
// time move while it backs off, find the lock expired and roll the txn
// back, instead of backing off with a stale clock until its budget ends.
func TestResolveLockWithoutPrimaryExpires(t *testing.T) {
	cl := newCluster(t)
	advancing := func(ctx context.Context, d time.Duration) error {
		cl.oracle.advance(uint64(d.Milliseconds()) + 1)
		return ctx.Err()
	}
	c := cl.client(Options{Sleeper: advancing})
	put(t, c, "s", "s0")
	startTS := cl.oracle.now(t)
	req := &kvrpcpb.PrewriteRequest{Context: cl.ctx(), PrimaryLock: []byte("p"), StartVersion: startTS, LockTtl: 100,
		Mutations: []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: []byte("s"), Value: []byte("s1")}}}
	if resp, err := cl.store.KvPrewrite(context.Background(), req); err != nil || len(resp.Errors) > 0 {
		t.Fatalf("prewrite of the secondary: %v %v", err, resp.GetErrors())
	}
	if got := get(t, begin(t, c), "s"); got != "s0" {
		t.Fatalf("s = %q, want the committed s0", got)
	}
	if cl.locked("s") {
		t.Fatal("the orphan lock is still there")
	}
}
