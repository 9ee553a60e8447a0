package txnclient

import (
	"context"
	"errors"
	"testing"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
)

// gatedOracle is an AsyncOracle over a testOracle: a request takes its
// timestamp when it is made (as PD serves requests in order), and its
// future completes when the test closes gate, with err if set.
type gatedOracle struct {
	*testOracle
	gate  chan struct{}
	err   error
	asked int
	life  context.Context // the last request's
}

func (o *gatedOracle) GetTimestampAsync(ctx, life context.Context) TSFuture {
	o.asked++
	o.life = life
	ts, _ := o.GetTimestamp(ctx)
	return gatedFuture{ts: ts, gate: o.gate, err: o.err}
}

type gatedFuture struct {
	ts   uint64
	gate chan struct{}
	err  error
}

func (f gatedFuture) WaitContext(ctx context.Context) (uint64, error) {
	select {
	case <-f.gate:
		if f.err != nil {
			return 0, f.err
		}
		return f.ts, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

func lazyClient(t *testing.T, cl *cluster) (*Client, *gatedOracle) {
	return lazyClientWith(t, cl, Options{})
}

// lazyClientWith is lazyClient with opts.
func lazyClientWith(t *testing.T, cl *cluster, opts Options) (*Client, *gatedOracle) {
	o := &gatedOracle{testOracle: cl.oracle, gate: make(chan struct{})}
	c := New(rpc.NewDirect(storeAddr, cl.store), locate.StaticRegions(cl.region, storeAddr), o, opts)
	t.Cleanup(func() { _ = c.Close() })
	return c, o
}

// beginLazy starts a lazy txn of c, failing the test on an error.
func beginLazy(t *testing.T, c *Client) *Txn {
	t.Helper()
	tx, err := c.BeginLazy(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

func TestBeginLazyReadsAtBeginTime(t *testing.T) {
	cl := newCluster(t)
	c, o := lazyClient(t, cl)
	put(t, c, "a", "a0")
	before := cl.oracle.now(t)
	tx := beginLazy(t, c)
	if o.asked != 1 {
		t.Fatalf("BeginLazy asked the oracle %d times, want 1", o.asked)
	}
	// A commit after BEGIN is not in the snapshot, though the txn waits
	// for its timestamp only later.
	put(t, c, "a", "a1")
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tx.Get(canceled, kv.Key("a")); !errors.Is(err, context.Canceled) {
		t.Fatalf("Get with the timestamp pending and ctx ended = %v, want context.Canceled", err)
	}
	close(o.gate)
	if got := get(t, tx, "a"); got != "a0" {
		t.Fatalf("lazy txn read a=%s, want a0 (the value at BEGIN)", got)
	}
	if ts := tx.StartTS(); ts <= before || ts >= cl.oracle.now(t) {
		t.Fatalf("start ts %d not between %d and now", ts, before)
	}
	if err := tx.Set(kv.Key("b"), []byte("b0")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := get(t, begin(t, c), "b"); got != "b0" {
		t.Fatalf("b=%s after the lazy txn committed", got)
	}
}

func TestBeginLazyReadOnlyCommitDoesNotWait(t *testing.T) {
	cl := newCluster(t)
	c, _ := lazyClient(t, cl)
	tx := beginLazy(t, c)
	// The gate never opens: a commit without writes needs no timestamp.
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestBeginLazyFailedTimestamp(t *testing.T) {
	cl := newCluster(t)
	c, o := lazyClient(t, cl)
	o.err = errors.New("pd unreachable")
	close(o.gate)
	ctx := context.Background()
	// Each first use reports the failed request.
	firstUses := map[string]func(tx *Txn) error{
		"Get":      func(tx *Txn) error { _, err := tx.Get(ctx, kv.Key("a")); return err },
		"BatchGet": func(tx *Txn) error { _, err := tx.BatchGet(ctx, []kv.Key{kv.Key("a")}); return err },
		"Iter":     func(tx *Txn) error { _, err := tx.Iter(ctx, kv.Key("a"), kv.Key("z")); return err },
		"Commit": func(tx *Txn) error {
			if err := tx.Set(kv.Key("a"), []byte("x")); err != nil {
				return err
			}
			return tx.Commit(ctx)
		},
	}
	for name, use := range firstUses {
		tx := beginLazy(t, c)
		if err := use(tx); !errors.Is(err, o.err) {
			t.Fatalf("%s = %v, want the oracle's error", name, err)
		}
	}
	if got := get(t, begin(t, c), "a"); got != "<nil>" {
		t.Fatalf("a=%s: a txn without a start ts wrote", got)
	}
	// The next use asks again, and the txn goes on.
	tx := beginLazy(t, c)
	if _, err := tx.Get(ctx, kv.Key("a")); !errors.Is(err, o.err) {
		t.Fatalf("Get = %v, want the oracle's error", err)
	}
	if got := get(t, tx, "a"); got != "<nil>" {
		t.Fatalf("a=%s after the retry", got)
	}
	if err := tx.Set(kv.Key("a"), []byte("y")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if got := get(t, begin(t, c), "a"); got != "y" {
		t.Fatalf("a=%s, want y", got)
	}
}

func TestBeginLazyEndDropsTheRequest(t *testing.T) {
	cl := newCluster(t)
	c, o := lazyClient(t, cl)
	for _, end := range []string{"commit", "rollback"} {
		tx := beginLazy(t, c)
		if o.life.Err() != nil {
			t.Fatalf("%s: the request ended before the txn", end)
		}
		var err error
		if end == "commit" {
			err = tx.Commit(context.Background())
		} else {
			err = tx.Rollback()
		}
		if err != nil {
			t.Fatal(err)
		}
		if o.life.Err() == nil {
			t.Fatalf("%s: the start-ts request outlives the txn", end)
		}
	}
}

func TestBeginLazyPessimistic(t *testing.T) {
	cl := newCluster(t)
	c, o := lazyClient(t, cl)
	put(t, c, "k", "v0")
	tx := beginLazy(t, c)
	tx.SetPessimistic() // must not wait for the timestamp
	close(o.gate)
	fu, err := tx.ForUpdateTS(context.Background())
	if err != nil || fu != tx.StartTS() {
		t.Fatalf("ForUpdateTS = %d, %v; want the start ts %d", fu, err, tx.StartTS())
	}
	if err := tx.LockKeys(context.Background(), LockOptions{ForUpdateTS: fu}, kv.Key("k")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Set(kv.Key("k"), []byte("v1")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := get(t, begin(t, c), "k"); got != "v1" {
		t.Fatalf("k=%s, want v1", got)
	}
}

func TestBeginLazyWithoutAsyncOracleIsBegin(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{})
	tx := beginLazy(t, c)
	if tx.snap.pending != nil || tx.snap.startTS == 0 {
		t.Fatalf("BeginLazy over a synchronous oracle left the start ts pending")
	}
}

func TestBeginLazyWaitersKeepTheirCtx(t *testing.T) {
	cl := newCluster(t)
	c, o := lazyClient(t, cl)
	tx := beginLazy(t, c)
	done := make(chan error, 1)
	go func() {
		_, err := tx.snap.ts(context.Background())
		done <- err
	}()
	// Whether or not the other waiter already waits, an ended ctx returns
	// at once: nobody holds the snapshot's lock while waiting.
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tx.snap.ts(canceled); !errors.Is(err, context.Canceled) {
		t.Fatalf("ts with an ended ctx = %v, want context.Canceled", err)
	}
	close(o.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if ts, err := tx.snap.ts(canceled); err != nil || ts == 0 {
		t.Fatalf("ts once known = %d, %v", ts, err)
	}
}
