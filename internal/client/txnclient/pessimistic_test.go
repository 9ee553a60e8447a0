package txnclient

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

var bgctx = context.Background()

// pessimisticBegin starts a pessimistic txn.
func pessimisticBegin(t testing.TB, c *Client) *Txn {
	t.Helper()
	tx := begin(t, c)
	tx.SetPessimistic()
	return tx
}

// lockAndRead runs one "statement" of a pessimistic txn: a fresh
// for_update_ts, a lock on k, a current read of k. A PessimisticRetry
// write conflict re-runs it, as the SQL layer does.
func lockAndRead(tx *Txn, k string, wait time.Duration) (string, error) {
	for {
		ts, err := tx.NewForUpdateTS(bgctx)
		if err != nil {
			return "", err
		}
		err = tx.LockKeys(bgctx, LockOptions{ForUpdateTS: ts, Wait: wait}, kv.Key(k))
		var wc *kv.WriteConflictError
		if errors.As(err, &wc) && wc.Reason == kv.ConflictPessimisticRetry {
			continue
		}
		if err != nil {
			return "", err
		}
		v, err := tx.ForUpdateView(ts).Get(bgctx, kv.Key(k))
		if errors.Is(err, kv.ErrNotExist) {
			return "", nil
		}
		return string(v), err
	}
}

// Concurrent read-modify-write transactions that lock first never fail
// and lose no increment, in every commit protocol.
func TestPessimisticIncrementsNeverConflict(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		put(t, c, "n", "0")
		const workers, each = 4, 10
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < each; i++ {
					tx := pessimisticBegin(t, c)
					v, err := lockAndRead(tx, "n", 10*time.Second)
					if err != nil {
						t.Error(err)
						return
					}
					n, _ := strconv.Atoi(v)
					_ = tx.Set(kv.Key("n"), []byte(strconv.Itoa(n+1)))
					if err := tx.Commit(bgctx); err != nil {
						t.Errorf("commit: %v", err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if got := get(t, begin(t, c), "n"); got != strconv.Itoa(workers*each) {
			t.Fatalf("n = %s after %d increments", got, workers*each)
		}
		assertNoLocks(t, cl, c)
	})
}

// Rollback releases the locks; a no-wait lock fails while they are held.
func TestPessimisticRollbackReleasesLocks(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{})
	tx1 := pessimisticBegin(t, c)
	if _, err := lockAndRead(tx1, "a", time.Second); err != nil {
		t.Fatal(err)
	}
	tx2 := pessimisticBegin(t, c)
	ts, _ := tx2.NewForUpdateTS(bgctx)
	if err := tx2.LockKeys(bgctx, LockOptions{ForUpdateTS: ts, NoWait: true}, kv.Key("a")); !errors.Is(err, kv.ErrLockWaitTimeout) {
		t.Fatalf("no-wait lock of a held key: %v", err)
	}
	if err := tx1.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := tx2.LockKeys(bgctx, LockOptions{ForUpdateTS: ts, NoWait: true}, kv.Key("a")); err != nil {
		t.Fatalf("lock after the holder rolled back: %v", err)
	}
	if err := tx2.Rollback(); err != nil {
		t.Fatal(err)
	}
	assertNoLocks(t, cl, c)
}

// Two txns locking a and b in opposite orders: exactly one gets Deadlock,
// and once it rolls back the other commits.
func TestPessimisticDeadlock(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{})
	tx1, tx2 := pessimisticBegin(t, c), pessimisticBegin(t, c)
	if _, err := lockAndRead(tx1, "a", time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := lockAndRead(tx2, "b", time.Second); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 2)
	var wg sync.WaitGroup
	for _, p := range []struct {
		tx  *Txn
		key string
	}{{tx1, "b"}, {tx2, "a"}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := lockAndRead(p.tx, p.key, 30*time.Second)
			if err != nil {
				_ = p.tx.Rollback()
			} else {
				_ = p.tx.Set(kv.Key(p.key), []byte("x"))
				err = p.tx.Commit(bgctx)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	deadlocks, ok := 0, 0
	for err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, kv.ErrDeadlock):
			deadlocks++
		default:
			t.Fatalf("unexpected error %v", err)
		}
	}
	if deadlocks != 1 || ok != 1 {
		t.Fatalf("%d deadlocks and %d commits, want 1 and 1", deadlocks, ok)
	}
	assertNoLocks(t, cl, c)
}

// A holder that died (no heartbeats) is rolled back once its TTL passes;
// the waiter gets the lock and the dead txn can no longer commit.
func TestPessimisticDeadHolderResolved(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{})
	put(t, c, "a", "0")
	dead := pessimisticBegin(t, c)
	if _, err := lockAndRead(dead, "a", time.Second); err != nil {
		t.Fatal(err)
	}
	dead.ttl.stop() // the holder's process is gone: no heartbeats
	cl.oracle.advance(60_000)
	tx := pessimisticBegin(t, c)
	if v, err := lockAndRead(tx, "a", 30*time.Second); err != nil || v != "0" {
		t.Fatalf("lock after the holder expired: %q %v", v, err)
	}
	_ = tx.Set(kv.Key("a"), []byte("1"))
	if err := tx.Commit(bgctx); err != nil {
		t.Fatal(err)
	}
	_ = dead.Set(kv.Key("a"), []byte("dead"))
	if err := dead.Commit(bgctx); err == nil {
		t.Fatal("the rolled-back holder committed")
	}
	if got := get(t, begin(t, c), "a"); got != "1" {
		t.Fatalf("a = %q", got)
	}
	assertNoLocks(t, cl, c)
}

// assertNoLocks fails when any lock is left in the store once c's
// background commits have finished.
func assertNoLocks(t *testing.T, cl *cluster, c *Client) {
	t.Helper()
	c.bg.Wait()
	resp, err := cl.store.KvScanLock(bgctx, &kvrpcpb.ScanLockRequest{Context: cl.ctx(), MaxVersion: ^uint64(0) - 1, Limit: 10})
	if err != nil || resp.RegionError != nil || resp.Error != nil {
		t.Fatalf("scan lock: %v %v %v", err, resp.GetRegionError(), resp.GetError())
	}
	if len(resp.Locks) > 0 {
		t.Fatalf("locks left: %v", resp.Locks)
	}
}

// A pessimistic txn's primary is the first key it locked, not its
// smallest written key: the async-commit secondaries must be every other
// key (an index entry sorting before the row, say).
func TestPessimisticSecondaries(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{AsyncCommit: true})
	tx := pessimisticBegin(t, c)
	if _, err := lockAndRead(tx, "b", time.Second); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b", "c"} {
		_ = tx.Set(kv.Key(k), []byte("v"))
	}
	cm := newCommitter(tx)
	var got []string
	for _, k := range cm.secondaries() {
		got = append(got, string(k))
	}
	if string(cm.primary) != "b" || len(got) != 2 || got[0] != "a" || got[1] != "c" {
		t.Fatalf("primary %q, secondaries %q; want b and [a c]", cm.primary, got)
	}
	if err := tx.Commit(bgctx); err != nil {
		t.Fatal(err)
	}
	if v := get(t, begin(t, c), "a"); v != "v" {
		t.Fatalf("a = %q", v)
	}
	assertNoLocks(t, cl, c)
}
