package kvnode

import (
	"context"
	"fmt"
	"math/rand"
	"sync"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/client/txnclient"
)

// run drives workers transferring and readers summing until ctx is done.
// A sum that differs from the initial total fails the test at once.
func (b *bank) run(ctx context.Context, t *testing.T, c *txnclient.Client, workers, readers int, faults bool) {
	var wg sync.WaitGroup
	want := b.accounts * b.initial
	opCtx := context.Background()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(w) + time.Now().UnixNano()))
			// ctx only says when to stop starting transactions: a running
			// one is never cut short, as an application stops.
			for seq := 0; ctx.Err() == nil; seq++ {
				err := b.transfer(opCtx, c, rng, fmt.Sprintf("%d-%d-%d", w, seq, rng.Int63()))
				if err == nil {
					continue
				}
				b.nFailed.Add(1)
				if !isExpectedFailure(err, faults) {
					t.Errorf("transfer: %v", err)
					return
				}
			}
		}(w)
	}
	for r := 0; r < readers; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				total, n, err := b.sum(opCtx, c)
				if err != nil {
					if faults && isExpectedFailure(err, faults) {
						continue
					}
					t.Errorf("sum: %v", err)
					return
				}
				if total != want || n != b.accounts {
					t.Errorf("snapshot sum %d over %d accounts, want %d over %d", total, n, want, b.accounts)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestBank runs the bank workload through the transaction client over gRPC
// against a real `strata kv` process, with each commit protocol.
func TestBank(t *testing.T) {
	node := startKV(t)
	r := newRig(t, node.addr)
	modes := []struct {
		name        string
		opts        txnclient.Options
		pessimistic bool
	}{
		{"2pc", txnclient.Options{}, false},
		{"async-commit", txnclient.Options{AsyncCommit: true, GuaranteeLinearizability: true}, false},
		{"1pc", txnclient.Options{OnePC: true}, false},
		{"pessimistic-1pc", txnclient.Options{OnePC: true}, true},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			c := r.client(m.opts)
			b := &bank{accounts: 40, initial: 1000, pessimistic: m.pessimistic}
			ctx := context.Background()
			// Each mode uses fresh balances: load overwrites them.
			if err := b.load(ctx, c); err != nil {
				t.Fatal(err)
			}
			clearLogs(t, ctx, c)
			runCtx, cancel := context.WithTimeout(ctx, 3*time.Second)
			b.run(runCtx, t, c, 12, 2, false)
			cancel()
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			if m.pessimistic && b.nFailed.Load() != 0 {
				t.Errorf("%d pessimistic transfers failed; locking both accounts at once never conflicts", b.nFailed.Load())
			}
			if b.nAcked.Load() == 0 || b.nReads.Load() == 0 {
				t.Fatalf("workload did nothing: %d transfers, %d reads", b.nAcked.Load(), b.nReads.Load())
			}
			b.verifyFinal(t, ctx, c, true)
			if locks := remainingLocks(t, r.store(t)); len(locks) != 0 {
				t.Errorf("%d locks remain after the workload, first %v", len(locks), locks[0])
			}
		})
	}
}

// clearLogs deletes the transfer logs of an earlier run.
func clearLogs(t *testing.T, ctx context.Context, c *txnclient.Client) {
	t.Helper()
	txn, err := c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	it, err := txn.Iter(ctx, logStart, logEnd)
	if err != nil {
		t.Fatal(err)
	}
	for it.Valid() {
		_ = txn.Delete(it.Key().Clone())
		if err := it.Next(); err != nil {
			t.Fatal(err)
		}
	}
	it.Close()
	if err := txn.Commit(ctx); err != nil {
		t.Fatal(err)
	}
}
