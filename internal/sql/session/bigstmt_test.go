package session

import (
	"context"
	"testing"
)

// The gate admits statements while their text fits, makes the next one
// wait for a release, lets a statement larger than the gate take all of
// it, and gives tokens back when the waiter's context ends.
func TestByteGate(t *testing.T) {
	ctx := context.Background()
	g := newByteGate(4 * bigStmtToken)
	if err := g.acquire(ctx, 3*bigStmtToken); err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := g.acquire(cctx, 2*bigStmtToken); err == nil {
		t.Fatal("a statement that does not fit was admitted")
	}
	if n := len(g.tokens); n != 1 {
		t.Fatalf("%d tokens free after a cancelled wait, want 1", n)
	}
	admitted := make(chan struct{})
	go func() {
		_ = g.acquire(ctx, 100*bigStmtToken) // larger than the gate: takes all of it
		close(admitted)
	}()
	g.release(3 * bigStmtToken)
	<-admitted
	if n := len(g.tokens); n != 0 {
		t.Fatalf("%d tokens free while the huge statement runs", n)
	}
	g.release(100 * bigStmtToken)
	if n := len(g.tokens); n != 4 {
		t.Fatalf("%d tokens free at the end, want 4", n)
	}
}
