package txnclient

import (
	"errors"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kv"
)

// A locking view's point read locks the key and returns its value in one
// lock request, without a read: present keys, absent keys (locked too),
// batches. Buffered keys are answered from the buffer and keys the txn
// holds already are read, not locked again.
func TestLockingViewReadsByLocking(t *testing.T) {
	cl, f, c := newFaulty(t, Options{})
	put(t, c, "a", "1", "b", "2", "c", "3", "e", "")
	var seen [3]int
	// counts returns the reads, lock requests and keys locked since the
	// last call.
	counts := func() (reads, locks, keys int) {
		r, l, k := f.n("read"), f.n("lock"), f.n("locked key")
		reads, locks, keys = r-seen[0], l-seen[1], k-seen[2]
		seen = [3]int{r, l, k}
		return reads, locks, keys
	}
	counts()

	tx := pessimisticBegin(t, c)
	ts, err := tx.ForUpdateTS(bgctx)
	if err != nil {
		t.Fatal(err)
	}
	v := tx.LockingView(LockOptions{ForUpdateTS: ts, Wait: time.Second})
	if got := get(t, v, "a"); got != "1" {
		t.Fatalf("a = %s", got)
	}
	if got := get(t, v, "e"); got != "" {
		t.Fatalf("e (empty value) = %q", got)
	}
	if got := get(t, v, "x"); got != "<nil>" {
		t.Fatalf("x = %s", got)
	}
	if gets, locks, _ := counts(); gets != 0 || locks != 3 {
		t.Fatalf("three point reads: %d reads, %d lock requests; want 0, 3", gets, locks)
	}
	if n := tx.LockedKeys(); n != 3 {
		t.Fatalf("%d keys locked, want 3", n)
	}

	// a batch: b and c locked together, a (held) read, d (buffered) not sent
	if err := tx.Set(kv.Key("d"), []byte("4")); err != nil {
		t.Fatal(err)
	}
	got, err := v.BatchGet(bgctx, []kv.Key{kv.Key("a"), kv.Key("b"), kv.Key("c"), kv.Key("d")})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || string(got["a"]) != "1" || string(got["b"]) != "2" || string(got["c"]) != "3" || string(got["d"]) != "4" {
		t.Fatalf("batch = %q", got)
	}
	if gets, locks, keys := counts(); gets != 1 || locks != 1 || keys != 2 {
		t.Fatalf("batch: %d reads, %d lock requests of %d keys; want 1, 1 of 2", gets, locks, keys)
	}

	// Every key it read is locked: another txn cannot lock them.
	other := pessimisticBegin(t, c)
	ots, _ := other.NewForUpdateTS(bgctx)
	for _, k := range []string{"a", "b", "c", "x"} {
		if err := other.LockKeys(bgctx, LockOptions{ForUpdateTS: ots, NoWait: true}, kv.Key(k)); !errors.Is(err, kv.ErrLockWaitTimeout) {
			t.Fatalf("another txn locking %s: %v", k, err)
		}
	}
	if err := tx.Set(kv.Key("a"), []byte("10")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(bgctx); err != nil {
		t.Fatal(err)
	}
	if err := other.Rollback(); err != nil {
		t.Fatal(err)
	}
	if got := get(t, begin(t, c), "a"); got != "10" {
		t.Fatalf("a after commit = %s", got)
	}
	assertNoLocks(t, cl, c)
}

// A write committed after the view's for_update_ts fails the locking read
// with a PessimisticRetry write conflict and locks nothing; at a newer
// for_update_ts the read returns the new value.
func TestLockingViewStaleForUpdateTS(t *testing.T) {
	forModes(t, func(t *testing.T, cl *cluster, c *Client) {
		put(t, c, "k", "old")
		tx := pessimisticBegin(t, c)
		stale, err := tx.ForUpdateTS(bgctx)
		if err != nil {
			t.Fatal(err)
		}
		put(t, c, "k", "new")
		_, err = tx.LockingView(LockOptions{ForUpdateTS: stale, Wait: time.Second}).Get(bgctx, kv.Key("k"))
		var wc *kv.WriteConflictError
		if !errors.As(err, &wc) || wc.Reason != kv.ConflictPessimisticRetry {
			t.Fatalf("locking read at a stale for_update_ts: %v", err)
		}
		if n := tx.LockedKeys(); n != 0 {
			t.Fatalf("%d keys locked after the conflict", n)
		}
		fresh, err := tx.NewForUpdateTS(bgctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := get(t, tx.LockingView(LockOptions{ForUpdateTS: fresh, Wait: time.Second}), "k"); got != "new" {
			t.Fatalf("k at a fresh for_update_ts = %s", got)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		assertNoLocks(t, cl, c)
	})
}

// A locking read fails at once on another txn's lock with NoWait. With a
// budget it waits for the holder: the holder's commit, newer than the
// read's for_update_ts, ends the wait in a PessimisticRetry conflict (not
// a timeout), and a read at a fresh for_update_ts returns the holder's
// write.
func TestLockingViewWaits(t *testing.T) {
	cl := newCluster(t)
	c := cl.client(Options{})
	put(t, c, "k", "1")
	holder := pessimisticBegin(t, c)
	if _, err := lockAndRead(holder, "k", time.Second); err != nil {
		t.Fatal(err)
	}
	tx := pessimisticBegin(t, c)
	ts, _ := tx.NewForUpdateTS(bgctx)
	if _, err := tx.LockingView(LockOptions{ForUpdateTS: ts, NoWait: true}).Get(bgctx, kv.Key("k")); !errors.Is(err, kv.ErrLockWaitTimeout) {
		t.Fatalf("no-wait locking read of a held key: %v", err)
	}
	_ = holder.Set(kv.Key("k"), []byte("2"))
	done := make(chan error, 1)
	go func() {
		_, err := tx.LockingView(LockOptions{ForUpdateTS: ts, Wait: time.Minute}).Get(bgctx, kv.Key("k"))
		done <- err
	}()
	if err := holder.Commit(bgctx); err != nil {
		t.Fatal(err)
	}
	var wc *kv.WriteConflictError
	if err := <-done; !errors.As(err, &wc) || wc.Reason != kv.ConflictPessimisticRetry {
		t.Fatalf("locking read behind a holder that committed: %v", err)
	}
	fresh, _ := tx.NewForUpdateTS(bgctx)
	if got := get(t, tx.LockingView(LockOptions{ForUpdateTS: fresh, Wait: time.Second}), "k"); got != "2" {
		t.Fatalf("k at a fresh for_update_ts = %s", got)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	assertNoLocks(t, cl, c)
}
