package session

import (
	"context"
	"sync"
)

// bigStmtBytes bounds the text of the big statements (over bigSQL) that
// are parsed and run at once, server-wide. Their parse trees and rows
// weigh some 25 times their text, so 64 clients each sending a 400 KB
// multi-row INSERT (sysbench bulk_insert) would otherwise hold several GB
// at once; on a few cores running more of them at once gains nothing.
const bigStmtBytes = 4 << 20

// bigStmtToken is the unit the gate counts.
const bigStmtToken = 64 << 10

// byteGate admits big statements while the text in flight fits its
// tokens. One acquirer takes tokens at a time (acquireMu), so two big
// statements never each hold part of what they need; a statement larger
// than the whole gate takes all of it.
type byteGate struct {
	acquireMu sync.Mutex
	tokens    chan struct{}
}

func newByteGate(capacity int) *byteGate {
	g := &byteGate{tokens: make(chan struct{}, capacity/bigStmtToken)}
	for i := 0; i < cap(g.tokens); i++ {
		g.tokens <- struct{}{}
	}
	return g
}

// acquire waits until n bytes of statement text may run; release(n) gives
// them back. It fails only when ctx ends.
func (g *byteGate) acquire(ctx context.Context, n int) error {
	k := g.count(n)
	g.acquireMu.Lock()
	defer g.acquireMu.Unlock()
	for i := 0; i < k; i++ {
		select {
		case <-g.tokens:
		case <-ctx.Done():
			for ; i > 0; i-- {
				g.tokens <- struct{}{}
			}
			return ctx.Err()
		}
	}
	return nil
}

func (g *byteGate) release(n int) {
	for k := g.count(n); k > 0; k-- {
		g.tokens <- struct{}{}
	}
}

func (g *byteGate) count(n int) int {
	return min((n+bigStmtToken-1)/bigStmtToken, cap(g.tokens))
}
