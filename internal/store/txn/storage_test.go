package txn

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// TestMemLockBlocksReaderDuringAsyncPrewrite parks an async-commit
// prewrite inside its engine write: its locks exist only in memory, and a
// reader at or above min_commit_ts must still meet them.
func TestMemLockBlocksReaderDuringAsyncPrewrite(t *testing.T) {
	s, e := newTestStorage(t, Options{})
	mustGet(t, s, "a", 40) // max_ts = 40
	e.blockWrites.Store(true)
	done := make(chan *kvrpcpb.PrewriteResponse)
	go func() {
		resp, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{
			Mutations:   []*kvrpcpb.Mutation{put("a", "1"), put("c", "3")},
			PrimaryLock: []byte("a"), StartVersion: 30, LockTtl: 3000,
			UseAsyncCommit: true, Secondaries: bkeys("c"),
		})
		if err != nil {
			t.Error(err)
		}
		done <- resp
	}()
	<-e.entered // the prewrite is in its engine write; memory locks published
	e.blockWrites.Store(false)

	var le *kv.LockedError
	get, _ := s.KvGet(bg, &kvrpcpb.GetRequest{Key: []byte("a"), Version: 41})
	if err := get.GetError().Err(); !errors.As(err, &le) || le.Lock.StartTS != 30 || le.Lock.MinCommitTS != 41 {
		t.Fatalf("get a@41 during prewrite: %v", err)
	}
	if v := mustGet(t, s, "a", 40); v != "<not found>" { // below min_commit_ts: not blocked
		t.Fatalf("get a@40 = %s", v)
	}
	bg2, _ := s.KvBatchGet(bg, &kvrpcpb.BatchGetRequest{Keys: bkeys("b", "c"), Version: 50})
	if len(bg2.Pairs) != 1 || !errors.Is(bg2.Pairs[0].Error.Err(), kv.ErrKeyIsLocked) {
		t.Fatalf("batch get during prewrite: %v", bg2.Pairs)
	}
	scan, _ := s.KvScan(bg, &kvrpcpb.ScanRequest{StartKey: []byte("b"), Limit: 10, Version: 50})
	if !errors.Is(scan.GetError().Err(), kv.ErrKeyIsLocked) {
		t.Fatalf("scan during prewrite: %v", scan)
	}
	sl, _ := s.KvScanLock(bg, &kvrpcpb.ScanLockRequest{MaxVersion: 30, Limit: 10})
	if !errors.Is(sl.GetError().Err(), kv.ErrKeyIsLocked) {
		t.Fatalf("scan lock during prewrite: %v", sl)
	}
	sl, _ = s.KvScanLock(bg, &kvrpcpb.ScanLockRequest{StartKey: []byte("d"), MaxVersion: 100, Limit: 10})
	if sl.GetError() != nil {
		t.Fatalf("scan lock outside the range: %v", sl.GetError())
	}
	if s.cm.Len() != 2 {
		t.Fatalf("memory locks = %d", s.cm.Len())
	}

	e.release <- struct{}{}
	resp := <-done
	if len(resp.Errors) != 0 || resp.MinCommitTs != 41 {
		t.Fatalf("prewrite: %s min_commit_ts=%d", fmtKeyErrs(resp.Errors), resp.MinCommitTs)
	}
	if s.cm.Len() != 0 {
		t.Fatalf("memory locks survive the write: %d", s.cm.Len())
	}
	// Now the engine lock blocks the same reader.
	get, _ = s.KvGet(bg, &kvrpcpb.GetRequest{Key: []byte("a"), Version: 41})
	if !errors.Is(get.GetError().Err(), kv.ErrKeyIsLocked) {
		t.Fatalf("get a@41 after prewrite: %v", get.GetError())
	}
	mustCommit(t, s, 30, 41, "a", "c")
	if v := mustGet(t, s, "c", 41); v != "3" {
		t.Fatalf("c@41 = %s", v)
	}
}

// TestConcurrentPrewritesOneWins races prewrites of different txns on one
// key: latches serialise them, so exactly one gets the lock.
func TestConcurrentPrewritesOneWins(t *testing.T) {
	s, _ := newTestStorage(t, Options{})
	const n = 8
	var wins, locked atomic.Int32
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{
				Mutations:   []*kvrpcpb.Mutation{put("k", fmt.Sprint(i)), put(fmt.Sprintf("own%d", i), "x")},
				PrimaryLock: []byte("k"), StartVersion: uint64(10 + i), LockTtl: 3000,
			})
			switch {
			case err != nil:
				t.Error(err)
			case len(resp.Errors) == 0:
				wins.Add(1)
			case errors.Is(resp.Errors[0].Err(), kv.ErrKeyIsLocked):
				locked.Add(1)
			default:
				t.Errorf("prewrite %d: %s", i, fmtKeyErrs(resp.Errors))
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || locked.Load() != n-1 {
		t.Fatalf("wins %d locked %d", wins.Load(), locked.Load())
	}
	locks, _ := s.KvScanLock(bg, &kvrpcpb.ScanLockRequest{MaxVersion: 100})
	if len(locks.Locks) != 2 { // k and the winner's own key: losers wrote nothing
		t.Fatalf("locks %v", locks.Locks)
	}
}

// TestOnePCAfterConcurrentReads checks invariant 7 under concurrency: a
// 1PC commit ts is above every read ts served before the prewrite began.
// Timestamps come from one shared counter, as from a TSO.
func TestOnePCAfterConcurrentReads(t *testing.T) {
	s, _ := newTestStorage(t, Options{})
	var tso, served atomic.Uint64
	raise := func(a *atomic.Uint64, ts uint64) {
		for cur := a.Load(); ts > cur && !a.CompareAndSwap(cur, ts); cur = a.Load() {
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				ts := tso.Add(1)
				resp, err := s.KvGet(bg, &kvrpcpb.GetRequest{Key: []byte("k"), Version: ts})
				if err != nil {
					t.Error(err)
					return
				}
				if resp.Error == nil { // a blocked read was not served
					raise(&served, ts)
				} else if !errors.Is(resp.Error.Err(), kv.ErrKeyIsLocked) {
					t.Error(resp.Error.Err())
					return
				}
			}
		}()
	}
	defer func() { close(stop); wg.Wait() }()
	for i := range 200 {
		start := tso.Add(1)
		for served.Load() <= start { // readers above start_ts have been served
			runtime.Gosched()
		}
		before := served.Load()
		resp := mustPrewrite(t, s, &kvrpcpb.PrewriteRequest{
			Mutations:   []*kvrpcpb.Mutation{put("k", fmt.Sprint(i))},
			PrimaryLock: []byte("k"), StartVersion: start, LockTtl: 3000, TryOnePc: true,
		})
		if resp.OnePcCommitTs <= before {
			t.Fatalf("1PC commit ts %d <= read ts %d served before it", resp.OnePcCommitTs, before)
		}
		raise(&tso, resp.OnePcCommitTs)
	}
}

func BenchmarkKvGet(b *testing.B) {
	s, _ := newTestStorage(b, Options{})
	for i := range 100 {
		mustPrewrite(b, s, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put(fmt.Sprintf("k%03d", i), "value")},
			PrimaryLock: []byte(fmt.Sprintf("k%03d", i)), StartVersion: 10, LockTtl: 3000, TryOnePc: true})
	}
	var n atomic.Uint64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			resp, err := s.KvGet(bg, &kvrpcpb.GetRequest{Key: []byte(fmt.Sprintf("k%03d", i%100)), Version: 1000 + i})
			if err != nil || resp.Error != nil || resp.NotFound {
				b.Fatalf("get: %v %v", err, resp)
			}
		}
	})
}

func BenchmarkKvPrewrite1PC(b *testing.B) {
	s, _ := newTestStorage(b, Options{})
	var n atomic.Uint64
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			i := n.Add(1)
			k := []byte(fmt.Sprintf("k%08d", i))
			resp, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{
				Mutations:   []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: k, Value: []byte("value")}},
				PrimaryLock: k, StartVersion: 10 + i, LockTtl: 3000, TryOnePc: true,
			})
			if err != nil || len(resp.Errors) > 0 || resp.OnePcCommitTs == 0 {
				b.Fatalf("prewrite: %v %v", err, resp)
			}
		}
	})
}

// TestCancelWhileLatched: a command waiting for latches held by another
// returns its context's error as the Go error and writes nothing.
func TestCancelWhileLatched(t *testing.T) {
	s, e := newTestStorage(t, Options{})
	e.blockWrites.Store(true)
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("k", "1")},
			PrimaryLock: []byte("k"), StartVersion: 10, LockTtl: 3000})
		if err != nil || len(resp.Errors) > 0 {
			t.Errorf("prewrite: %v %v", err, resp)
		}
	}()
	<-e.entered // holds k's latch inside its engine write
	e.blockWrites.Store(false)
	ctx, cancel := context.WithCancel(bg)
	errc := make(chan error)
	go func() {
		resp, err := s.KvPrewrite(ctx, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("k", "2")},
			PrimaryLock: []byte("k"), StartVersion: 20, LockTtl: 3000})
		if resp != nil && len(resp.Errors) > 0 {
			t.Errorf("key errors %s", fmtKeyErrs(resp.Errors))
		}
		errc <- err
	}()
	slot := s.latches.Slots(bkeys("k"))[0]
	waitForWaiters(t, s.latches, slot, 1)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	e.release <- struct{}{}
	<-done
	if n := e.writes.Load(); n != 1 {
		t.Fatalf("engine writes = %d, want 1", n)
	}
}
