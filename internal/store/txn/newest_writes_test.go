package txn

import (
	"fmt"
	"testing"

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
		sum += entrySize([]byte(k), e)
	}
	if sum != n.bytes {
		t.Fatalf("accounted %d bytes, entries hold %d", n.bytes, sum)
	}
}
