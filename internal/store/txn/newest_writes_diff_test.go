package txn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// TestNewestWritesMatchSeeks runs the same random commands — 1PC and 2PC
// prewrites, commits, rollbacks, pessimistic locks returning values, point
// reads at new, old and MaxUint64 timestamps — against a Storage with the
// newest-write record (a roomy one, and one so small it evicts all the
// time) and one without, and requires every answer to be the same.
func TestNewestWritesMatchSeeks(t *testing.T) {
	for seed := range 12 {
		budget := int64(1 << 20)
		if seed%2 == 1 {
			budget = 3 * newestEntryOverhead
		}
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			runNewestWritesDiff(t, uint64(seed), budget)
		})
	}
}

func runNewestWritesDiff(t *testing.T, seed uint64, budget int64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	with, _ := newTestStorage(t, Options{NewestWritesBytes: budget})
	without, _ := newTestStorage(t, Options{NewestWritesBytes: -1})
	keys := []string{"k0", "k1", "k2", "k3", "k4"}
	pick := func(n int) [][]byte {
		var out [][]byte
		for _, i := range rng.Perm(len(keys))[:n] {
			out = append(out, []byte(keys[i]))
		}
		return out
	}
	value := func(step int) []byte {
		if rng.IntN(8) == 0 {
			return []byte(strings.Repeat("L", 300) + fmt.Sprint(step)) // a long value, in the data space
		}
		return fmt.Appendf(nil, "v%d", step)
	}
	mutations := func(ks [][]byte, step int) []*kvrpcpb.Mutation {
		var ms []*kvrpcpb.Mutation
		for _, k := range ks {
			m := &kvrpcpb.Mutation{Op: kvrpcpb.Op_Put, Key: k, Value: value(step)}
			if rng.IntN(5) == 0 {
				m.Op, m.Value = kvrpcpb.Op_Del, nil
			}
			ms = append(ms, m)
		}
		return ms
	}
	type openTxn struct {
		start uint64
		keys  [][]byte
	}
	var open []openTxn
	ts := uint64(100)
	next := func() uint64 { ts += 1 + uint64(rng.IntN(3)); return ts }

	// same runs do on both Storages, requires the same answer, returns it.
	same := func(step int, what string, do func(s *Storage) (proto.Message, error)) proto.Message {
		a, errA := do(with)
		b, errB := do(without)
		if errA != nil || errB != nil {
			t.Fatalf("step %d %s: errors %v / %v", step, what, errA, errB)
		}
		if !proto.Equal(a, b) {
			t.Fatalf("step %d %s:\nwith the record:    %v\nwithout the record: %v", step, what, a, b)
		}
		return a
	}
	for step := range 400 {
		switch op := rng.IntN(9); {
		case op == 0: // 1PC
			ks, start := pick(1+rng.IntN(3)), next()
			req := &kvrpcpb.PrewriteRequest{Mutations: mutations(ks, step), PrimaryLock: ks[0], StartVersion: start, LockTtl: 3000, TryOnePc: true}
			same(step, "1pc prewrite", func(s *Storage) (proto.Message, error) { return s.KvPrewrite(bg, req) })
		case op == 1: // 2PC prewrite, left open
			ks, start := pick(1+rng.IntN(2)), next()
			req := &kvrpcpb.PrewriteRequest{Mutations: mutations(ks, step), PrimaryLock: ks[0], StartVersion: start, LockTtl: 3000}
			resp := same(step, "2pc prewrite", func(s *Storage) (proto.Message, error) { return s.KvPrewrite(bg, req) })
			if len(resp.(*kvrpcpb.PrewriteResponse).GetErrors()) == 0 {
				open = append(open, openTxn{start, ks})
			}
		case op == 2 && len(open) > 0: // commit or roll back an open txn
			i := rng.IntN(len(open))
			o := open[i]
			open = append(open[:i], open[i+1:]...)
			if rng.IntN(3) == 0 {
				req := &kvrpcpb.BatchRollbackRequest{StartVersion: o.start, Keys: o.keys}
				same(step, "rollback", func(s *Storage) (proto.Message, error) { return s.KvBatchRollback(bg, req) })
			} else {
				req := &kvrpcpb.CommitRequest{StartVersion: o.start, Keys: o.keys, CommitVersion: next()}
				same(step, "commit", func(s *Storage) (proto.Message, error) { return s.KvCommit(bg, req) })
			}
		case op == 3: // a pessimistic lock that returns the value, then its rollback
			ks, start := pick(1), next()
			fu := start
			if rng.IntN(2) == 0 {
				fu = next()
			}
			req := &kvrpcpb.PessimisticLockRequest{
				Mutations:   []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_PessimisticLock, Key: ks[0]}},
				PrimaryLock: ks[0], StartVersion: start, ForUpdateTs: fu, LockTtl: 3000, ReturnValues: true, WaitTimeout: -1,
			}
			same(step, "pessimistic lock", func(s *Storage) (proto.Message, error) { return s.KvPessimisticLock(bg, req) })
			rb := &kvrpcpb.PessimisticRollbackRequest{StartVersion: start, ForUpdateTs: fu, Keys: ks}
			same(step, "pessimistic rollback", func(s *Storage) (proto.Message, error) { return s.KvPessimisticRollback(bg, rb) })
		case op == 4: // a batch read
			req := &kvrpcpb.BatchGetRequest{Keys: pick(1 + rng.IntN(4)), Version: ts}
			same(step, "batch get", func(s *Storage) (proto.Message, error) { return s.KvBatchGet(bg, req) })
		default: // point reads: now, in the past, the newest
			at := ts
			switch rng.IntN(3) {
			case 0:
				at = ts - uint64(rng.IntN(20))
			case 1:
				at = math.MaxUint64
			}
			req := &kvrpcpb.GetRequest{Key: pick(1)[0], Version: at}
			same(step, "get", func(s *Storage) (proto.Message, error) { return s.KvGet(bg, req) })
		}
	}
	if with.NewestWritesStats().Hits == 0 {
		t.Fatal("the record never answered: the test compared nothing")
	}
}

// TestNewestWritesNoLostUpdate has goroutines increment one counter by
// read, then 1PC prewrite at the read's ts, retrying on a write conflict,
// while the record answers both the reads and the conflict checks; every
// acknowledged increment must be in the final value.
func TestNewestWritesNoLostUpdate(t *testing.T) {
	s, _ := newTestStorage(t, Options{})
	var clock atomic.Uint64
	clock.Store(100)
	const workers, each = 4, 50
	var acked atomic.Int64
	var wg sync.WaitGroup
	errc := make(chan error, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < each; {
				start := clock.Add(1)
				g, err := s.KvGet(bg, &kvrpcpb.GetRequest{Key: []byte("ctr"), Version: start})
				if err == nil && g.Error.GetLocked() != nil {
					continue // another increment's 1PC write is landing: read again
				}
				if err != nil || g.Error != nil {
					errc <- fmt.Errorf("get: %v %v", err, g.GetError())
					return
				}
				var v int
				if !g.NotFound {
					fmt.Sscan(string(g.Value), &v)
				}
				p, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{
					Mutations:   []*kvrpcpb.Mutation{put("ctr", fmt.Sprint(v+1))},
					PrimaryLock: []byte("ctr"), StartVersion: start, LockTtl: 3000, TryOnePc: true,
				})
				if err != nil {
					errc <- err
					return
				}
				if len(p.Errors) > 0 {
					if p.Errors[0].GetConflict() == nil {
						errc <- fmt.Errorf("prewrite: %s", fmtKeyErrs(p.Errors))
						return
					}
					continue // lost the race: read again
				}
				clock.Add(1) // past the 1PC commit ts
				acked.Add(1)
				n++
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	if got, want := mustGet(t, s, "ctr", math.MaxUint64), fmt.Sprint(acked.Load()); got != want {
		t.Fatalf("counter %s after %s acknowledged increments", got, want)
	}
	if s.NewestWritesStats().Hits == 0 {
		t.Fatal("the record never answered")
	}
}
