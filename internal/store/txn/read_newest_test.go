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
