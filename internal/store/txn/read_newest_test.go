package txn

import (
	"errors"
	"math"
	"testing"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// TestReadNewestPrewrite: a Get with need_newest_ts reports the commit ts
// of the record its value came from, and a 1PC prewrite naming an older
// one fails even when the newer record is below its start ts; with and
// without the newest-write record.
func TestReadNewestPrewrite(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bytes int64
	}{{"record", 0}, {"seek", -1}} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newTestStorage(t, Options{NewestWritesBytes: tc.bytes})
			getNewest := func() (string, uint64) {
				t.Helper()
				resp, err := s.KvGet(bg, &kvrpcpb.GetRequest{Key: []byte("a"), Version: math.MaxUint64, NeedNewestTs: true})
				if err != nil || resp.Error != nil {
					t.Fatalf("get newest: %v %s", err, fmtKeyErr(resp.GetError()))
				}
				if resp.NotFound {
					return "<not found>", resp.NewestTs
				}
				return string(resp.Value), resp.NewestTs
			}
			onePC := func(startTS uint64, m *kvrpcpb.Mutation) *kvrpcpb.PrewriteResponse {
				t.Helper()
				resp, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{m},
					PrimaryLock: m.Key, StartVersion: startTS, LockTtl: 3000, TryOnePc: true, MinCommitTs: startTS + 1})
				if err != nil {
					t.Fatal(err)
				}
				return resp
			}
			if v, ts := getNewest(); v != "<not found>" || ts != 0 {
				t.Fatalf("absent key: %s newest=%d", v, ts)
			}
			c1 := onePC(10, put("a", "1")).OnePcCommitTs
			for range 2 { // the second answer comes from the record when there is one
				if v, ts := getNewest(); v != "1" || ts != c1 {
					t.Fatalf("after commit at %d: %s newest=%d", c1, v, ts)
				}
			}
			c2 := onePC(20, put("a", "2")).OnePcCommitTs
			stale := put("a", "3")
			stale.ReadNewest, stale.NewestSeen = true, c1
			resp := onePC(30, stale)
			var wc *kv.WriteConflictError
			if len(resp.Errors) != 1 || !errors.As(resp.Errors[0].Err(), &wc) || wc.ConflictCommitTS != c2 {
				t.Fatalf("prewrite naming %d below a commit at %d (start 30): %s", c1, c2, fmtKeyErrs(resp.Errors))
			}
			if v := mustGet(t, s, "a", math.MaxUint64); v != "2" {
				t.Fatalf("the failed prewrite wrote: a = %s", v)
			}
			fresh := put("a", "3")
			fresh.ReadNewest, fresh.NewestSeen = true, c2
			if resp := onePC(30, fresh); len(resp.Errors) != 0 || resp.OnePcCommitTs == 0 {
				t.Fatalf("prewrite naming the newest record: %s", fmtKeyErrs(resp.Errors))
			}
			if v, ts := getNewest(); v != "3" || ts <= c2 {
				t.Fatalf("after the write: %s newest=%d", v, ts)
			}
			bad, _ := s.KvGet(bg, &kvrpcpb.GetRequest{Key: []byte("a"), Version: 40, NeedNewestTs: true})
			if !errors.Is(bad.GetError().Err(), kv.ErrInvalidArgument) {
				t.Fatalf("need_newest_ts below MaxUint64: %v", bad.GetError())
			}
		})
	}
}

// TestReadNewestRollbackOnTop: a rollback record sits at the start ts of
// the txn rolled back, so a commit can land below it after a read saw it.
// The read reports the newest commit record, not the rollback, and the
// prewrite fails on the commit that landed below the rollback: a 2PC
// commit of a primary the read went past, and a pessimistic 1PC commit.
func TestReadNewestRollbackOnTop(t *testing.T) {
	for _, tc := range []struct {
		name        string
		bytes       int64
		pessimistic bool
	}{{"2pc-record", 0, false}, {"2pc-seek", -1, false}, {"pessimistic-1pc", 0, true}} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newTestStorage(t, Options{NewestWritesBytes: tc.bytes})
			mustPrewrite(t, s, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("a", "v0")}, PrimaryLock: []byte("a"), StartVersion: 2, LockTtl: 3000})
			mustCommit(t, s, 2, 3, "a")
			// T3 (start 10) holds a: a 2PC primary lock, or a pessimistic lock.
			if tc.pessimistic {
				mustLock(t, s, lockReq(10, 10, 0, "a"))
			} else {
				mustPrewrite(t, s, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("a", "t3")}, PrimaryLock: []byte("a"), StartVersion: 10, LockTtl: 3000})
			}
			// Another txn (start 30) failed elsewhere and rolls a back.
			rb, err := s.KvBatchRollback(bg, &kvrpcpb.BatchRollbackRequest{StartVersion: 30, Keys: bkeys("a")})
			if err != nil || rb.Error != nil {
				t.Fatal(err, rb.GetError())
			}
			read, err := s.KvGet(bg, &kvrpcpb.GetRequest{Key: []byte("a"), Version: math.MaxUint64, NeedNewestTs: true})
			if err != nil || read.Error != nil {
				t.Fatal(err, read.GetError())
			}
			if string(read.Value) != "v0" || read.NewestTs != 3 {
				t.Fatalf("newest read past T3's lock: %q newest=%d, want v0 newest=3", read.Value, read.NewestTs)
			}
			// T3 commits below the rollback.
			if tc.pessimistic {
				resp := mustPrewrite(t, s, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("a", "t3")}, PrimaryLock: []byte("a"),
					StartVersion: 10, ForUpdateTs: 10, LockTtl: 3000, IsPessimisticLock: []bool{true}, TryOnePc: true, MinCommitTs: 11})
				if resp.OnePcCommitTs == 0 || resp.OnePcCommitTs >= 30 {
					t.Fatalf("T3's 1PC commit at %d: not below the rollback at 30", resp.OnePcCommitTs)
				}
			} else {
				mustCommit(t, s, 10, 20, "a")
			}
			m := put("a", string(read.Value)+"+1")
			m.ReadNewest, m.NewestSeen = true, read.NewestTs
			pr, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{m}, PrimaryLock: []byte("a"),
				StartVersion: 40, LockTtl: 3000, TryOnePc: true, MinCommitTs: 41})
			if err != nil {
				t.Fatal(err)
			}
			if len(pr.Errors) != 1 || !errors.Is(pr.Errors[0].Err(), kv.ErrWriteConflict) {
				t.Fatalf("prewrite over T3's commit below the rollback: %s (a = %s)", fmtKeyErrs(pr.Errors), mustGet(t, s, "a", math.MaxUint64))
			}
			if v := mustGet(t, s, "a", math.MaxUint64); v != "t3" {
				t.Fatalf("a = %s, want T3's t3", v)
			}
		})
	}
}
