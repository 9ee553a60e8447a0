package txnclient

import (
	"context"
	"errors"
	"testing"

	"github.com/strata-db/strata/internal/kv"
)

// newestClient is a client of cl with opts whose oracle answers at once
// through futures (an AsyncOracle, as PD's client is).
func newestClient(t *testing.T, cl *cluster, opts Options) *Client {
	c, o := lazyClientWith(t, cl, opts)
	close(o.gate)
	return c
}

func beginNewest(t *testing.T, c *Client) *Txn {
	t.Helper()
	tx, err := c.BeginNewest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

func set(t *testing.T, tx *Txn, k, v string) {
	t.Helper()
	if err := tx.Set(kv.Key(k), []byte(v)); err != nil {
		t.Fatal(err)
	}
}

// TestNewestReadLostUpdate: a txn that began before a BeginNewest txn
// took its start ts commits by 1PC below that start ts, after the
// BeginNewest txn read the key: a plain optimistic check would let the
// BeginNewest txn overwrite that commit unseen; its commit must fail.
func TestNewestReadLostUpdate(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		ctx := context.Background()
		onePC := cl.client(Options{OnePC: true})
		put(t, onePC, "a", "a0") // no async-commit lock left for other to resolve
		other := begin(t, onePC) // start ts below the reader's
		cl.oracle.advance(1)     // PD's clock moves on; the store has not seen it
		tx := beginNewest(t, newestClient(t, cl, c.opts))
		if got := get(t, tx, "a"); got != "a0" {
			t.Fatalf("newest read: %s", got)
		}
		set(t, other, "a", "other")
		if err := other.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if other.CommitTS() > tx.StartTS() {
			t.Fatalf("the other commit (%d) is above the reader's start ts (%d): nothing to show", other.CommitTS(), tx.StartTS())
		}
		set(t, tx, "a", "a0+1")
		if err := tx.Commit(ctx); !errors.Is(err, kv.ErrWriteConflict) {
			t.Fatalf("commit over an unseen write: %v", err)
		}
		if got := get(t, begin(t, c), "a"); got != "other" {
			t.Fatalf("a = %s, want the other txn's write", got)
		}
	})
}

// TestNewestReadAboveStartTS: a read that saw a commit newer than the
// start ts fails the commit (the txn's snapshot would not have held it).
func TestNewestReadAboveStartTS(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		tx := beginNewest(t, newestClient(t, cl, c.opts))
		tx.StartTS() // the start ts is taken
		put(t, c, "a", "a1")
		if got := get(t, tx, "a"); got != "a1" {
			t.Fatalf("newest read: %s", got)
		}
		set(t, tx, "a", "a2")
		if err := tx.Commit(context.Background()); !errors.Is(err, kv.ErrWriteConflict) {
			t.Fatalf("commit after reading above the start ts: %v", err)
		}
	})
}

// TestNewestReadCommits: the plain case writes, a key read and not written
// is checked too, and a read-only txn commits with nothing to do.
func TestNewestReadCommits(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		ctx := context.Background()
		nc := newestClient(t, cl, c.opts)
		put(t, c, "a", "a0", "b", "b0")
		tx := beginNewest(t, nc)
		if a, b := get(t, tx, "a"), get(t, tx, "b"); a != "a0" || b != "b0" {
			t.Fatalf("newest reads: a=%s b=%s", a, b)
		}
		set(t, tx, "a", "a1")
		if err := tx.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		if tx.CommitTS() <= tx.StartTS() {
			t.Fatalf("commit ts %d <= start ts %d", tx.CommitTS(), tx.StartTS())
		}
		if got := get(t, begin(t, c), "a"); got != "a1" {
			t.Fatalf("a = %s", got)
		}

		// b read, not written, changes before the commit: conflict.
		tx = beginNewest(t, nc)
		get(t, tx, "a")
		get(t, tx, "b")
		put(t, c, "b", "b1")
		set(t, tx, "a", "a2")
		if err := tx.Commit(ctx); !errors.Is(err, kv.ErrWriteConflict) {
			t.Fatalf("commit after a read key changed: %v", err)
		}

		ro := beginNewest(t, nc)
		if got := get(t, ro, "a"); got != "a1" {
			t.Fatalf("read-only newest read: %s", got)
		}
		if err := ro.Commit(ctx); err != nil {
			t.Fatalf("read-only commit: %v", err)
		}
	})
}

// TestNewestReadMixed: a BeginNewest txn that also read at its start ts
// (BatchGet) and wrote fails its commit with a write conflict.
func TestNewestReadMixed(t *testing.T) {
	cl := newCluster(t)
	c := newestClient(t, cl, Options{OnePC: true})
	put(t, c, "a", "a0", "b", "b0")
	tx := beginNewest(t, c)
	get(t, tx, "a")
	if _, err := tx.BatchGet(context.Background(), []kv.Key{kv.Key("b")}); err != nil {
		t.Fatal(err)
	}
	set(t, tx, "a", "a1")
	if err := tx.Commit(context.Background()); !errors.Is(err, kv.ErrWriteConflict) {
		t.Fatalf("commit of a mixed txn: %v", err)
	}
}
