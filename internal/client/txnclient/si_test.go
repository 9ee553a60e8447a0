package txnclient

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kv"
)

// Snapshot-isolation checks, each run with plain 2PC, async commit and 1PC.

func TestNoDirtyReads(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		put(t, c, "k", "v0")
		// A txn's buffered writes are invisible to others.
		w := begin(t, c)
		if err := w.Set(kv.Key("k"), []byte("dirty")); err != nil {
			t.Fatal(err)
		}
		if got := get(t, begin(t, c), "k"); got != "v0" {
			t.Fatalf("buffered write visible: %s", got)
		}
		// Prewritten but not yet committed: still invisible.
		old := begin(t, c)
		entered, release := make(chan struct{}), make(chan struct{})
		c.hooks.afterPrewrite = func() { close(entered); <-release }
		done := make(chan error, 1)
		go func() { done <- w.Commit(context.Background()) }()
		<-entered
		c.hooks.afterPrewrite = nil
		if got := get(t, old, "k"); got != "v0" {
			t.Fatalf("reader older than the writer saw %s", got)
		}
		// A reader that starts now meets the lock: it either pushes the
		// writer's commit ts above itself (2PC) and reads v0, or is blocked;
		// with 1PC the writer is already committed.
		r := begin(t, c)
		fast := cl.client(Options{Sleeper: noSleep})
		v, err := fast.BeginAt(r.StartTS()).Get(context.Background(), kv.Key("k"))
		switch {
		case err == nil && string(v) == "v0":
		case err == nil && string(v) == "dirty" && c.opts.OnePC:
		case errors.Is(err, kv.ErrKeyIsLocked) && c.opts.AsyncCommit:
		default:
			t.Fatalf("reader during commit: %q, %v", v, err)
		}
		close(release)
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if got := get(t, begin(t, c), "k"); got != "dirty" {
			t.Fatalf("after commit: %s", got)
		}
	})
}

// noSleep is a Sleeper that returns at once: backoffs burn their budget
// without waiting.
func noSleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

func TestNoLostUpdates(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		put(t, c, "n", "0")
		t1, t2 := begin(t, c), begin(t, c)
		for _, tx := range []*Txn{t1, t2} {
			n, _ := strconv.Atoi(get(t, tx, "n"))
			if err := tx.Set(kv.Key("n"), []byte(strconv.Itoa(n+1))); err != nil {
				t.Fatal(err)
			}
			// a second key, so that the loser had something to roll back
			if err := tx.Set(kv.Key(fmt.Sprintf("other%d", tx.StartTS())), []byte("x")); err != nil {
				t.Fatal(err)
			}
		}
		if err := t1.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
		err := t2.Commit(context.Background())
		if !errors.Is(err, kv.ErrWriteConflict) {
			t.Fatalf("second increment: %v, want a write conflict", err)
		}
		r := begin(t, c)
		if got := get(t, r, "n"); got != "1" {
			t.Fatalf("n = %s, want 1", got)
		}
		// the loser's locks were rolled back: nothing blocks a reader
		fast := cl.client(Options{Sleeper: noSleep})
		if got := get(t, fast.BeginAt(r.StartTS()), fmt.Sprintf("other%d", t2.StartTS())); got != "<nil>" {
			t.Fatalf("loser's key: %s", got)
		}
	})
}

func TestConcurrentIncrements(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		put(t, c, "n", "0")
		const workers, each = 4, 10
		var (
			wg        sync.WaitGroup
			mu        sync.Mutex
			successes int
		)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < each; {
					tx, err := c.Begin(context.Background())
					if err != nil {
						t.Error(err)
						return
					}
					v, err := tx.Get(context.Background(), kv.Key("n"))
					if err != nil {
						t.Error(err)
						return
					}
					n, _ := strconv.Atoi(string(v))
					_ = tx.Set(kv.Key("n"), []byte(strconv.Itoa(n+1)))
					err = tx.Commit(context.Background())
					if errors.Is(err, kv.ErrWriteConflict) {
						continue
					}
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					successes++
					mu.Unlock()
					i++
				}
			}()
		}
		wg.Wait()
		if got := get(t, begin(t, c), "n"); got != strconv.Itoa(successes) || successes != workers*each {
			t.Fatalf("n = %s after %d successful increments", got, successes)
		}
	})
}

func TestNoFracturedReads(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		put(t, c, "x", "0", "y", "0")
		const rounds = 30
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 1; i <= rounds; i++ {
				v := []byte(strconv.Itoa(i))
				tx, err := c.Begin(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				_ = tx.Set(kv.Key("x"), v)
				_ = tx.Set(kv.Key("y"), v)
				if err := tx.Commit(context.Background()); err != nil {
					t.Error(err)
					return
				}
			}
		}()
		for r := 0; r < 2; r++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < rounds; i++ {
					tx, err := c.Begin(context.Background())
					if err != nil {
						t.Error(err)
						return
					}
					var x, y []byte
					if i%2 == 0 {
						m, err := tx.BatchGet(context.Background(), []kv.Key{kv.Key("x"), kv.Key("y")})
						if err != nil {
							t.Error(err)
							return
						}
						x, y = m["x"], m["y"]
					} else {
						// y first: the secondary, the one left locked longest
						if y, err = tx.Get(context.Background(), kv.Key("y")); err == nil {
							x, err = tx.Get(context.Background(), kv.Key("x"))
						}
						if err != nil {
							t.Error(err)
							return
						}
					}
					if string(x) != string(y) {
						t.Errorf("fractured read at %d: x=%s y=%s", tx.StartTS(), x, y)
						return
					}
				}
			}()
		}
		wg.Wait()
	})
}

func TestRepeatableRead(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		put(t, c, "k", "v0", "k2", "w0")
		r := begin(t, c)
		if got := get(t, r, "k"); got != "v0" {
			t.Fatal(got)
		}
		put(t, c, "k", "v1", "k3", "new")
		if got := get(t, r, "k"); got != "v0" {
			t.Fatalf("second read: %s", got)
		}
		if got := iterString(t, r, "k", "l", false); got != "k=v0 k2=w0" {
			t.Fatalf("scan: %s", got)
		}
	})
}

// TestWriteSkewAllowed documents that snapshot isolation permits write
// skew: two txns read the same two keys and each writes a different one;
// both commit, and the invariant x+y >= 1 they each checked is broken.
func TestWriteSkewAllowed(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		put(t, c, "x", "1", "y", "1")
		t1, t2 := begin(t, c), begin(t, c)
		for _, tc := range []struct {
			tx  *Txn
			key string
		}{{t1, "x"}, {t2, "y"}} {
			x, _ := strconv.Atoi(get(t, tc.tx, "x"))
			y, _ := strconv.Atoi(get(t, tc.tx, "y"))
			if x+y < 2 {
				t.Fatal("precondition")
			}
			_ = tc.tx.Set(kv.Key(tc.key), []byte("0"))
		}
		if err := t1.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := t2.Commit(context.Background()); err != nil {
			t.Fatalf("disjoint writes must both commit under SI: %v", err)
		}
		r := begin(t, c)
		if x, y := get(t, r, "x"), get(t, r, "y"); x != "0" || y != "0" {
			t.Fatalf("x=%s y=%s", x, y)
		}
	})
}

// TestLinearizableCommitTS: with GuaranteeLinearizability, a txn whose
// commit starts after another's commit was acknowledged commits later,
// even with disjoint keys and calculated (async/1PC) commit timestamps:
// T1 begins, T2 begins, writes and commits; only then T1 commits.
func TestLinearizableCommitTS(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		for i := 0; i < 5; i++ {
			t1 := begin(t, c)
			c2 := put(t, c, fmt.Sprintf("b%d", i), "v")
			_ = t1.Set(kv.Key(fmt.Sprintf("a%d", i)), []byte("v"))
			if err := t1.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			if t1.CommitTS() <= c2 {
				t.Fatalf("T1 committed at %d after T2 was acknowledged at %d", t1.CommitTS(), c2)
			}
		}
	})
}

// TestLinearizabilityPerTxn: a client without GuaranteeLinearizability
// gives it to the txns that ask (the session's
// tidb_guarantee_linearizability), with the same guarantee.
func TestLinearizabilityPerTxn(t *testing.T) {
	for _, opts := range []Options{{AsyncCommit: true}, {OnePC: true}} {
		cl := newCluster(t)
		c := cl.client(opts)
		for i := 0; i < 5; i++ {
			t1 := begin(t, c)
			t1.GuaranteeLinearizability(true)
			c2 := put(t, c, fmt.Sprintf("b%d", i), "v")
			_ = t1.Set(kv.Key(fmt.Sprintf("a%d", i)), []byte("v"))
			if err := t1.Commit(context.Background()); err != nil {
				t.Fatal(err)
			}
			if t1.CommitTS() <= c2 {
				t.Fatalf("%+v: T1 committed at %d after T2 was acknowledged at %d", opts, t1.CommitTS(), c2)
			}
		}
	}
}
