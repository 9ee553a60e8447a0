package txn

import (
	"errors"
	"runtime"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

func lockReq(startTS, forUpdateTS uint64, waitMs int64, keys ...string) *kvrpcpb.PessimisticLockRequest {
	req := &kvrpcpb.PessimisticLockRequest{PrimaryLock: []byte(keys[0]), StartVersion: startTS,
		ForUpdateTs: forUpdateTS, LockTtl: 3000, WaitTimeout: waitMs, ReturnValues: true}
	for _, k := range keys {
		req.Mutations = append(req.Mutations, &kvrpcpb.Mutation{Op: kvrpcpb.Op_PessimisticLock, Key: []byte(k)})
	}
	return req
}

func mustLock(t *testing.T, s *Storage, req *kvrpcpb.PessimisticLockRequest) *kvrpcpb.PessimisticLockResponse {
	t.Helper()
	resp, err := s.KvPessimisticLock(bg, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Errors) > 0 {
		t.Fatalf("lock: %s", fmtKeyErrs(resp.Errors))
	}
	return resp
}

// lockAsync sends req from a goroutine and returns the channel of its
// answer.
func lockAsync(s *Storage, req *kvrpcpb.PessimisticLockRequest) <-chan *kvrpcpb.PessimisticLockResponse {
	ch := make(chan *kvrpcpb.PessimisticLockResponse, 1)
	go func() {
		resp, err := s.KvPessimisticLock(bg, req)
		if err != nil {
			resp = &kvrpcpb.PessimisticLockResponse{Errors: []*kvrpcpb.KeyError{{Abort: err.Error()}}}
		}
		ch <- resp
	}()
	return ch
}

// waitForLockWaiters returns once n lock requests are parked.
func waitForLockWaiters(t *testing.T, s *Storage, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for s.waiters.n.Load() != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d waiters, want %d", s.waiters.n.Load(), n)
		}
		runtime.Gosched()
	}
}

func pessimisticCommit(t *testing.T, s *Storage, startTS, forUpdateTS, commitTS uint64, key, value string) {
	t.Helper()
	mustPrewrite(t, s, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put(key, value)}, PrimaryLock: []byte(key),
		StartVersion: startTS, ForUpdateTs: forUpdateTS, LockTtl: 3000, IsPessimisticLock: []bool{true}})
	mustCommit(t, s, startTS, commitTS, key)
}

// A request that meets another txn's lock waits until the lock is released
// and then tries again: it gets the lock when the holder committed below its
// for_update_ts, and a PessimisticRetry write conflict when above.
func TestPessimisticLockWaitsForRelease(t *testing.T) {
	lockModes(t, Options{WaitForLockTimeout: time.Minute}, testPessimisticLockWaitsForRelease)
}

func testPessimisticLockWaitsForRelease(t *testing.T, s *Storage) {
	mustLock(t, s, lockReq(10, 10, 0, "a"))

	below := lockAsync(s, lockReq(20, 30, 60000, "a"))
	waitForLockWaiters(t, s, 1)
	select {
	case resp := <-below:
		t.Fatalf("answered while the lock is held: %v", fmtKeyErrs(resp.Errors))
	default:
	}
	pessimisticCommit(t, s, 10, 10, 25, "a", "v1")
	resp := <-below
	if len(resp.Errors) > 0 || string(resp.Values[0]) != "v1" {
		t.Fatalf("after release: errors %s values %q", fmtKeyErrs(resp.Errors), resp.Values)
	}

	above := lockAsync(s, lockReq(40, 40, 60000, "a"))
	waitForLockWaiters(t, s, 1)
	pessimisticCommit(t, s, 20, 30, 50, "a", "v2")
	resp = <-above
	err := one(t, resp.Errors).Err()
	var wc *kv.WriteConflictError
	if !errors.As(err, &wc) || wc.Reason != kv.ConflictPessimisticRetry || wc.ConflictCommitTS != 50 {
		t.Fatalf("after a newer commit: %v, want a PessimisticRetry write conflict at 50", err)
	}
	mustLock(t, s, lockReq(40, 50, 0, "a"))
}

// Two txns waiting for each other: the second wait closes the cycle and
// fails with Deadlock at once; when the victim rolls back, the first
// waiter gets its lock.
func TestPessimisticLockDeadlock(t *testing.T) {
	lockModes(t, Options{WaitForLockTimeout: time.Minute}, testPessimisticLockDeadlock)
}

func testPessimisticLockDeadlock(t *testing.T, s *Storage) {
	mustLock(t, s, lockReq(10, 10, 0, "a"))
	mustLock(t, s, lockReq(20, 20, 0, "b"))
	first := lockAsync(s, lockReq(10, 10, 60000, "b"))
	waitForLockWaiters(t, s, 1)

	resp, err := s.KvPessimisticLock(bg, lockReq(20, 20, 60000, "a"))
	if err != nil {
		t.Fatal(err)
	}
	var dl *kv.DeadlockError
	if err := one(t, resp.Errors).Err(); !errors.As(err, &dl) || dl.LockTS != 10 || string(dl.LockKey) != "a" {
		t.Fatalf("closing the cycle: %v, want a deadlock on a held by 10", err)
	}
	rb, err := s.KvPessimisticRollback(bg, &kvrpcpb.PessimisticRollbackRequest{StartVersion: 20, ForUpdateTs: 20, Keys: bkeys("b")})
	if err != nil || len(rb.Errors) > 0 {
		t.Fatalf("pessimistic rollback: %v %s", err, fmtKeyErrs(rb.Errors))
	}
	if resp := <-first; len(resp.Errors) > 0 {
		t.Fatalf("waiter after the victim's rollback: %s", fmtKeyErrs(resp.Errors))
	}
	if n := s.waiters.n.Load(); n != 0 {
		t.Fatalf("%d waiters left", n)
	}
}

// Without a release the request answers KeyIsLocked when its wait ends; a
// no-wait request answers at once. Neither writes anything.
func TestPessimisticLockWaitTimeout(t *testing.T) {
	s, e := newTestStorage(t, Options{WaitForLockTimeout: time.Minute})
	mustLock(t, s, lockReq(10, 10, 0, "a"))
	writes := e.writes.Load()
	for _, wait := range []int64{-1, 30} {
		resp, err := s.KvPessimisticLock(bg, lockReq(20, 20, wait, "b", "a"))
		if err != nil {
			t.Fatal(err)
		}
		var locked *kv.LockedError
		if err := one(t, resp.Errors).Err(); !errors.As(err, &locked) || locked.Lock.StartTS != 10 {
			t.Fatalf("wait %d ms: %v, want the lock of 10", wait, err)
		}
	}
	if n := e.writes.Load(); n != writes {
		t.Fatalf("failed lock requests wrote %d batches", n-writes)
	}
	if got := mustGet(t, s, "b", 30); got != "<not found>" {
		t.Fatalf("b = %q", got)
	}
}

func one(t *testing.T, es []*kvrpcpb.KeyError) *kvrpcpb.KeyError {
	t.Helper()
	if len(es) != 1 {
		t.Fatalf("want one error, got %s", fmtKeyErrs(es))
	}
	return es[0]
}
