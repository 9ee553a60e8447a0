package kvnode

import (
	"context"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/client/txnclient"
)

// TestBankSurvivesKill9 kills the storage node with SIGKILL in the middle of
// the bank workload and restarts it on the same data dir: every
// acknowledged transfer must be there, every snapshot must sum to the
// total, and the orphan locks of transactions cut short must be resolved
// by the next readers.
// Optimistic transfers, and pessimistic ones whose locks are written
// without an fsync (a lost lock must abort its transfer, never let it
// commit over a newer write).
func TestBankSurvivesKill9(t *testing.T) {
	for _, pessimistic := range []bool{false, true} {
		name := "optimistic"
		if pessimistic {
			name = "pessimistic"
		}
		t.Run(name, func(t *testing.T) { bankSurvivesKill9(t, pessimistic) })
	}
}

func bankSurvivesKill9(t *testing.T, pessimistic bool) {
	node := startKV(t)
	r := newRig(t, node.addr)
	// Pessimistic locks of transfers cut short by the kill outlive it
	// until their TTL: a short one keeps the test short.
	c := r.client(txnclient.Options{AsyncCommit: true, OnePC: true, GuaranteeLinearizability: true, ManagedLockTTL: 3000})
	b := &bank{accounts: 40, initial: 1000, pessimistic: pessimistic}
	ctx := context.Background()
	if err := b.load(ctx, c); err != nil {
		t.Fatal(err)
	}
	beforeKill := b.milestone(300)
	afterRestart := b.milestone(600)

	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.run(runCtx, t, c, 12, 2, true)
	}()
	defer func() { cancel(); <-done }()

	wait := func(ch <-chan struct{}, what string) {
		select {
		case <-ch:
		case <-done:
			t.Fatalf("workload stopped before %s", what)
		case <-time.After(2 * time.Minute):
			t.Fatalf("no progress to %s: %d acknowledged", what, b.nAcked.Load())
		}
	}
	wait(beforeKill, "the kill")
	node.proc.Kill()
	killedAt := b.nAcked.Load()
	node.start()
	wait(afterRestart, "600 acknowledged transfers, after the restart")
	cancel()
	<-done
	t.Logf("killed after %d acknowledged transfers; %d in all", killedAt, b.nAcked.Load())
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}

	// A fresh client, as after a coordinator crash: its reads meet the
	// orphan locks and must resolve them.
	c2 := r.client(txnclient.Options{})
	b.verifyFinal(t, ctx, c2, false)
	if locks := remainingLocks(t, r.store(t)); len(locks) != 0 {
		t.Errorf("%d locks remain after every key was read, first %v", len(locks), locks[0])
	}
}
