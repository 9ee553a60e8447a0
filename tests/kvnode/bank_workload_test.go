package kvnode

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/kv"
)

// bank is the bank workload: accounts whose balances only move between each
// other, so every consistent snapshot sums to the initial total. Each
// transfer also writes a log record in the same transaction, so the final
// state can be checked against the set of acknowledged transfers.
type bank struct {
	accounts int
	initial  int
	// pessimistic transfers lock their accounts before reading them.
	pessimistic bool

	acked   sync.Map // log key -> transfer, for every acknowledged commit
	nAcked  atomic.Int64
	nFailed atomic.Int64 // conflicts, undetermined, unavailable
	nReads  atomic.Int64

	// milestones are closed when nAcked reaches their count (set before
	// the run starts); tests wait on them instead of sleeping.
	milestones map[int64]chan struct{}
}

// milestone returns a channel closed once n transfers are acknowledged.
func (b *bank) milestone(n int64) <-chan struct{} {
	if b.milestones == nil {
		b.milestones = map[int64]chan struct{}{}
	}
	ch := make(chan struct{})
	b.milestones[n] = ch
	return ch
}

type transfer struct{ from, to, amount int }

func acctKey(i int) kv.Key { return kv.Key(fmt.Sprintf("bank/acct/%04d", i)) }

var (
	acctStart = kv.Key("bank/acct/")
	acctEnd   = kv.Key("bank/acct0") // '0' follows '/'
	logStart  = kv.Key("bank/log/")
	logEnd    = kv.Key("bank/log0")
)

// load writes the initial balances in one transaction.
func (b *bank) load(ctx context.Context, c *txnclient.Client) error {
	txn, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	for i := 0; i < b.accounts; i++ {
		if err := txn.Set(acctKey(i), []byte(strconv.Itoa(b.initial))); err != nil {
			return err
		}
	}
	return txn.Commit(ctx)
}

// transfer moves a random amount between two random accounts. It returns
// the error of the commit (nil when acknowledged).
func (b *bank) transfer(ctx context.Context, c *txnclient.Client, rng *rand.Rand, id string) error {
	from, to := rng.Intn(b.accounts), rng.Intn(b.accounts-1)
	if to >= from {
		to++
	}
	txn, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	var vals map[string][]byte
	if b.pessimistic {
		vals, err = lockAndReadBalances(ctx, txn, acctKey(from), acctKey(to))
	} else {
		vals, err = txn.BatchGet(ctx, []kv.Key{acctKey(from), acctKey(to)})
	}
	if err != nil {
		txn.Rollback()
		return err
	}
	fb, err1 := strconv.Atoi(string(vals[string(acctKey(from))]))
	tb, err2 := strconv.Atoi(string(vals[string(acctKey(to))]))
	if err1 != nil || err2 != nil {
		txn.Rollback()
		return fmt.Errorf("bad balances %q %q", vals[string(acctKey(from))], vals[string(acctKey(to))])
	}
	amount := rng.Intn(fb/4 + 1)
	logKey := "bank/log/" + id
	_ = txn.Set(acctKey(from), []byte(strconv.Itoa(fb-amount)))
	_ = txn.Set(acctKey(to), []byte(strconv.Itoa(tb+amount)))
	_ = txn.Set(kv.Key(logKey), []byte(fmt.Sprintf("%d,%d,%d", from, to, amount)))
	if err := txn.Commit(ctx); err != nil {
		return err
	}
	b.acked.Store(logKey, transfer{from, to, amount})
	if ch, ok := b.milestones[b.nAcked.Add(1)]; ok {
		close(ch)
	}
	return nil
}

// lockAndReadBalances is a pessimistic transfer's first statement: lock
// both accounts at a fresh for_update_ts and read them there, again at a
// newer one when a write landed after it (as the SQL layer re-runs a
// statement).
func lockAndReadBalances(ctx context.Context, txn *txnclient.Txn, keys ...kv.Key) (map[string][]byte, error) {
	txn.SetPessimistic()
	for {
		ts, err := txn.NewForUpdateTS(ctx)
		if err != nil {
			return nil, err
		}
		err = txn.LockKeys(ctx, txnclient.LockOptions{ForUpdateTS: ts, Wait: 20 * time.Second}, keys...)
		var wc *kv.WriteConflictError
		if errors.As(err, &wc) && wc.Reason == kv.ConflictPessimisticRetry {
			continue
		}
		if err != nil {
			return nil, err
		}
		return txn.ForUpdateView(ts).BatchGet(ctx, keys)
	}
}

// sum reads every balance in one snapshot and returns the total and the
// number of accounts seen.
func (b *bank) sum(ctx context.Context, c *txnclient.Client) (total, n int, err error) {
	txn, err := c.Begin(ctx)
	if err != nil {
		return 0, 0, err
	}
	defer txn.Rollback()
	it, err := txn.Iter(ctx, acctStart, acctEnd)
	if err != nil {
		return 0, 0, err
	}
	defer it.Close()
	for it.Valid() {
		v, err := strconv.Atoi(string(it.Value()))
		if err != nil {
			return 0, 0, fmt.Errorf("bad balance %q at %q", it.Value(), it.Key())
		}
		total += v
		n++
		if err := it.Next(); err != nil {
			return 0, 0, err
		}
	}
	b.nReads.Add(1)
	return total, n, nil
}

// isExpectedFailure tells the errors a transfer may end with under
// contention (and, with faults, while the node is down) from bugs.
func isExpectedFailure(err error, faults bool) bool {
	if errors.Is(err, kv.ErrWriteConflict) || errors.Is(err, kv.ErrDeadlock) {
		return true
	}
	if !faults {
		return false
	}
	// A lock wait timeout: locks of transfers cut short by the fault wait
	// for their TTL before anyone may roll them back. A lost pessimistic
	// lock (written without fsync) aborts its transfer at prewrite.
	return errors.Is(err, kv.ErrResultUndetermined) || errors.Is(err, kv.ErrRegionUnavailable) ||
		errors.Is(err, kv.ErrLockWaitTimeout) || errors.Is(err, kv.ErrPessimisticLockNotFound) ||
		errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "unreachable")
}

// verifyFinal checks, in one snapshot: the total; every acknowledged
// transfer's log record is present; and replaying the present log records
// (the committed transfers) over the initial balances gives exactly the
// balances read — so no transfer was half applied. With exact, every
// committed transfer must also have been acknowledged (no fault could
// leave a result undetermined).
func (b *bank) verifyFinal(t *testing.T, ctx context.Context, c *txnclient.Client, exact bool) {
	t.Helper()
	txn, err := c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer txn.Rollback()
	balances := make([]int, b.accounts)
	for i := range balances {
		balances[i] = b.initial
	}
	logs := map[string]transfer{}
	it, err := txn.Iter(ctx, logStart, logEnd)
	if err != nil {
		t.Fatal(err)
	}
	for it.Valid() {
		var tr transfer
		if _, err := fmt.Sscanf(string(it.Value()), "%d,%d,%d", &tr.from, &tr.to, &tr.amount); err != nil {
			t.Fatalf("bad log %q: %v", it.Value(), err)
		}
		logs[string(it.Key())] = tr
		balances[tr.from] -= tr.amount
		balances[tr.to] += tr.amount
		if err := it.Next(); err != nil {
			t.Fatal(err)
		}
	}
	it.Close()
	missing := 0
	b.acked.Range(func(k, v any) bool {
		if got, ok := logs[k.(string)]; !ok || got != v.(transfer) {
			missing++
			if missing < 5 {
				t.Errorf("acknowledged transfer %s = %+v lost (found %+v, %v)", k, v, got, ok)
			}
		}
		return true
	})
	total := 0
	for i := 0; i < b.accounts; i++ {
		v, err := txn.Get(ctx, acctKey(i))
		if err != nil {
			t.Fatalf("get account %d: %v", i, err)
		}
		got, _ := strconv.Atoi(string(v))
		total += got
		if got != balances[i] {
			t.Errorf("account %d: balance %d, replay of committed transfers gives %d", i, got, balances[i])
		}
	}
	if total != b.accounts*b.initial {
		t.Errorf("total %d, want %d", total, b.accounts*b.initial)
	}
	t.Logf("final: %d acknowledged transfers, %d committed (log records), %d failed, %d consistent reads",
		b.nAcked.Load(), len(logs), b.nFailed.Load(), b.nReads.Load())
	if missing > 0 {
		t.Errorf("%d acknowledged transfers lost", missing)
	}
	if exact && int64(len(logs)) != b.nAcked.Load() {
		t.Errorf("%d transfers committed but %d acknowledged, with no fault", len(logs), b.nAcked.Load())
	}
}
