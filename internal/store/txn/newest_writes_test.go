package txn

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// commitBatch is a batch putting key's write record of a Put of value
// committed at cts (start ts cts-1).
func commitBatch(key, value string, cts uint64) *engine.Batch {
	w := mvcc.Write{Type: mvcc.WriteTypePut, StartTS: cts - 1, ShortValue: []byte(value), HasValue: true}
	var b engine.Batch
	b.Put(mvcc.WriteKey([]byte(key), cts), w.Encode(nil))
	return &b
}

func prefixOf(key string) []byte { return mvcc.WritePrefix(nil, []byte(key)) }

// newest returns what n knows of key: "unknown", "none", or value@ts.
func newest(n *newestWrites, key string) string {
	ts, w, ok := n.Newest(prefixOf(key))
	switch {
	case !ok:
		return "unknown"
	case w == nil:
		return "none"
	}
	return fmt.Sprintf("%s@%d", w.ShortValue, ts)
}

func offer(n *newestWrites, tok uint64, key, value string, cts uint64) {
	if value == "" {
		n.Offer(tok, prefixOf(key), 0, nil)
		return
	}
	n.Offer(tok, prefixOf(key), cts, &mvcc.Write{Type: mvcc.WriteTypePut, StartTS: cts - 1, ShortValue: []byte(value), HasValue: true})
}

func TestNewestWritesFollowWrites(t *testing.T) {
	n := newNewestWrites(1 << 20)
	if got := newest(n, "a"); got != "unknown" {
		t.Fatalf("empty record: %s", got)
	}
	offer(n, n.token(), "a", "", 0)
	if got := newest(n, "a"); got != "none" {
		t.Fatalf("after an offer of no record: %s", got)
	}
	for _, step := range []struct {
		b        *engine.Batch
		touchesA bool
		want     string
	}{
		{commitBatch("a", "x", 5), true, "x@5"},
		{commitBatch("a", "y", 7), true, "y@7"},
		{commitBatch("a", "old", 6), true, "y@7"}, // a record below the newest (a late rollback, say)
		{commitBatch("b", "z", 9), false, "y@7"},  // another key
	} {
		n.beforeWrite(step.b)
		if got := newest(n, "a"); step.touchesA && got != "unknown" {
			t.Fatalf("a pending write still answers %s", got)
		}
		n.afterWrite(step.b, true)
		if got := newest(n, "a"); got != step.want {
			t.Fatalf("after a write: %s, want %s", got, step.want)
		}
	}
	if got := newest(n, "b"); got != "unknown" {
		t.Fatalf("a write alone must not make a key known: %s", got)
	}

	// A delete of the newest record (GC) forgets the key; of an older one, not.
	gc := func(key string, cts uint64) {
		var b engine.Batch
		b.Delete(mvcc.WriteKey([]byte(key), cts))
		n.beforeWrite(&b)
		n.afterWrite(&b, true)
	}
	gc("a", 5)
	if got := newest(n, "a"); got != "y@7" {
		t.Fatalf("after deleting an older record: %s", got)
	}
	gc("a", 7)
	if got := newest(n, "a"); got != "unknown" {
		t.Fatalf("after deleting the newest record: %s", got)
	}

	// A failed write may have landed or not: its keys are forgotten.
	offer(n, n.token(), "c", "v", 3)
	fb := commitBatch("c", "w", 4)
	n.beforeWrite(fb)
	n.afterWrite(fb, false)
	if got := newest(n, "c"); got != "unknown" {
		t.Fatalf("after a failed write: %s", got)
	}
}

func TestNewestWritesRefuseRacingOffers(t *testing.T) {
	n := newNewestWrites(1 << 20)

	// A write that ended after the token: the seek may predate it.
	tok := n.token()
	b := commitBatch("a", "x", 5)
	n.beforeWrite(b)
	n.afterWrite(b, true)
	offer(n, tok, "a", "", 0)
	if got := newest(n, "a"); got != "unknown" {
		t.Fatalf("an offer older than a write took: %s", got)
	}

	// A write still pending when the offer comes: refused, even with a
	// current token; and an offer for another key goes on.
	b2 := commitBatch("a", "y", 7)
	n.beforeWrite(b2)
	offer(n, n.token(), "a", "x", 5)
	offer(n, n.token(), "b", "", 0)
	n.afterWrite(b2, true)
	if got := newest(n, "a"); got != "unknown" {
		t.Fatalf("an offer during a write took: %s", got)
	}
	if got := newest(n, "b"); got != "none" {
		t.Fatalf("an offer for an untouched key: %s", got)
	}

	// Two writes of one key overlapping: pending until both end.
	offer(n, n.token(), "a", "y", 7)
	b3, b4 := commitBatch("a", "p", 8), commitBatch("a", "q", 9)
	n.beforeWrite(b3)
	n.beforeWrite(b4)
	n.afterWrite(b3, true)
	if got := newest(n, "a"); got != "unknown" {
		t.Fatalf("one of two writes pending: %s", got)
	}
	n.afterWrite(b4, true)
	if got := newest(n, "a"); got != "q@9" {
		t.Fatalf("after both writes: %s", got)
	}

	// A range rewrite: nothing known during it, everything forgotten after.
	n.replacingData()
	if got := newest(n, "a"); got != "unknown" {
		t.Fatalf("during a range rewrite: %s", got)
	}
	offer(n, n.token(), "c", "", 0)
	n.replacedData()
	for _, k := range []string{"a", "b", "c"} {
		if got := newest(n, k); got != "unknown" {
			t.Fatalf("%s after a range rewrite: %s", k, got)
		}
	}
	if n.bytes != 0 {
		t.Fatalf("bytes %d after forgetting everything", n.bytes)
	}
}

func TestNewestWritesBudget(t *testing.T) {
	n := newNewestWrites(10 * (newestEntryOverhead + 16))
	for i := range 100 {
		offer(n, n.token(), string(rune('A'+i)), "0123456789", 1)
	}
	if len(n.entries) > 10 || n.bytes > n.budget {
		t.Fatalf("%d entries, %d bytes over a budget of %d", len(n.entries), n.bytes, n.budget)
	}
	var sum int64
	for k, e := range n.entries {
		sum += entrySize(len(k), e)
	}
	if sum != n.bytes {
		t.Fatalf("accounted %d bytes, entries hold %d", n.bytes, sum)
	}
}

// regionKey carries, in a request's ctx, the user-key range [start, end)
// of the region the request was routed to (regionEngine).
type regionKey struct{}

// regionEngine hands out, for a ctx with a regionKey, snapshots that see
// only that range, as raftstore's region snapshots do.
type regionEngine struct{ engine.Engine }

type regionSnap struct {
	engine.Snapshot
	ranges [][2][]byte
}

func (e regionEngine) Snapshot(ctx context.Context) (engine.Snapshot, error) {
	s, err := e.Engine.Snapshot(ctx)
	if r, ok := ctx.Value(regionKey{}).([2][]byte); ok && err == nil {
		return &regionSnap{s, mvcc.EngineRanges(r[0], r[1])}, nil
	}
	return s, err
}

// Write refuses a request routed to a region, as raftstore refuses keys
// outside it (this test's requests are all routed elsewhere).
func (e regionEngine) Write(ctx context.Context, b *engine.Batch) error {
	if ctx.Value(regionKey{}) != nil {
		return errors.New("key not in region")
	}
	return e.Engine.Write(ctx, b)
}

func (s *regionSnap) PrefixSeeks() bool { return s.Snapshot.(engine.PrefixSnapshot).PrefixSeeks() }

func (s *regionSnap) Covers(key []byte) bool { return mvcc.InEngineRanges(key, s.ranges) }

// NewIter is empty outside the region.
func (s *regionSnap) NewIter(lower, upper []byte) (engine.Iterator, error) {
	if len(lower) > 0 && !s.Covers(lower) {
		upper = lower
	}
	return s.Snapshot.NewIter(lower, upper)
}

// TestNewestWritesIgnoreMisroutedSeeks: a request routed to a region that
// does not hold its key finds nothing in its clamped snapshot; that must
// not become the record's "no record" for correctly routed requests.
func TestNewestWritesIgnoreMisroutedSeeks(t *testing.T) {
	p, err := engine.Open("", mvcc.WithKeySplit(engine.Options{FS: vfs.NewMem()}))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s := NewStorage(regionEngine{p}, Options{})
	mustPrewrite(t, s, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("x", "v1")}, PrimaryLock: []byte("x"), StartVersion: 10, LockTtl: 3000})
	mustCommit(t, s, 10, 11, "x")
	s = NewStorage(regionEngine{p}, Options{}) // a restart: the record is empty
	elsewhere := context.WithValue(bg, regionKey{}, [2][]byte{[]byte("a"), []byte("m")})
	if _, err := s.KvGet(elsewhere, &kvrpcpb.GetRequest{Key: []byte("x"), Version: 20}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.KvPrewrite(elsewhere, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("x", "v0")},
		PrimaryLock: []byte("x"), StartVersion: 12, LockTtl: 3000}); err == nil {
		t.Fatal("a misrouted prewrite was written")
	}
	if got := mustGet(t, s, "x", 20); got != "v1" {
		t.Fatalf("x@20 = %s after a misrouted read, want v1", got)
	}
	pr, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("x", "v2")},
		PrimaryLock: []byte("x"), StartVersion: 5, LockTtl: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.Errors) != 1 || pr.Errors[0].GetConflict() == nil {
		t.Fatalf("a prewrite below the commit at 11 got %s, want a write conflict", fmtKeyErrs(pr.Errors))
	}
}
