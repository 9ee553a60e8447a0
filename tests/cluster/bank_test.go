package cluster

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// bank is a transfer workload through SQL: every transfer moves an amount
// between two accounts and logs itself in the same transaction, so the
// log says exactly what the balances must be.
type bank struct {
	t        *testing.T
	db       *sql.DB
	accounts int
	initial  int64

	nextID  atomic.Int64
	mu      sync.Mutex
	acked   []transfer // COMMIT returned success
	errored []transfer // returned an error: all of it or nothing happened
}

func newBank(t *testing.T, db *sql.DB, accounts int, initial int64) *bank {
	t.Helper()
	b := &bank{t: t, db: db, accounts: accounts, initial: initial}
	mustExec(t, db, "CREATE DATABASE IF NOT EXISTS bank")
	mustExec(t, db, "CREATE TABLE bank.accounts (id INT PRIMARY KEY, balance BIGINT NOT NULL)")
	mustExec(t, db, "CREATE TABLE bank.log (tid BIGINT PRIMARY KEY, src INT, dst INT, amount BIGINT)")
	for i := 0; i < accounts; i++ {
		mustExec(t, db, "INSERT INTO bank.accounts VALUES (?, ?)", i, initial)
	}
	return b
}

// run transfers with workers goroutines until ctx ends.
func (b *bank) run(ctx context.Context, workers int) *sync.WaitGroup {
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(seed))
			for ctx.Err() == nil {
				src, dst := rng.Intn(b.accounts), rng.Intn(b.accounts)
				if src == dst {
					continue
				}
				tid := b.nextID.Add(1)
				amount := int64(rng.Intn(10) + 1)
				if err := b.transfer(ctx, tid, src, dst, amount); err != nil {
					b.mu.Lock()
					b.errored = append(b.errored, transfer{tid, src, dst, amount, err.Error()})
					b.mu.Unlock()
					continue
				}
				b.mu.Lock()
				b.acked = append(b.acked, transfer{tid, src, dst, amount, ""})
				b.mu.Unlock()
			}
		}(int64(w))
	}
	return &wg
}

// transfer is one transfer the workload ran, and its error if any.
type transfer struct {
	tid      int64
	src, dst int
	amount   int64
	err      string
}

func (b *bank) transfer(ctx context.Context, tid int64, src, dst int, amount int64) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	lo, hi := min(src, dst), max(src, dst)
	rows, err := tx.QueryContext(ctx, "SELECT id, balance FROM bank.accounts WHERE id IN (?, ?) FOR UPDATE", lo, hi)
	if err != nil {
		return err
	}
	for rows.Next() {
	}
	if err := rows.Close(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE bank.accounts SET balance = balance - ? WHERE id = ?", amount, src); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE bank.accounts SET balance = balance + ? WHERE id = ?", amount, dst); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO bank.log VALUES (?, ?, ?, ?)", tid, src, dst, amount); err != nil {
		return err
	}
	return tx.Commit()
}

// suspects says which acknowledged transfers the log lacks, which failed
// ones it has, and every transfer between two of the accounts off.
func (b *bank) suspects(logged map[int64]bool, off map[int]bool) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var lost, between []string
	for _, e := range b.acked {
		if !logged[e.tid] {
			lost = append(lost, fmt.Sprint(e.tid))
		}
		if off[e.src] && off[e.dst] {
			between = append(between, fmt.Sprintf("acknowledged tid %d %d->%d %d", e.tid, e.src, e.dst, e.amount))
		}
	}
	for _, e := range b.errored {
		if logged[e.tid] || off[e.src] && off[e.dst] {
			between = append(between, fmt.Sprintf("failed tid %d %d->%d %d logged=%v: %s", e.tid, e.src, e.dst, e.amount, logged[e.tid], e.err))
		}
	}
	return fmt.Sprintf("acknowledged, not logged: %v; suspects: %v", lost, between)
}

// ackedCount returns how many transfers were acknowledged so far.
func (b *bank) ackedCount() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.acked)
}

// failuresLocked describes the transfers that failed so far: how many, and the
// last error. The caller holds b.mu.
func (b *bank) failuresLocked() string {
	last := "none"
	if n := len(b.errored); n > 0 {
		last = b.errored[n-1].err
	}
	return fmt.Sprintf("%d failed (last error: %s)", len(b.errored), last)
}

// check verifies, through a fresh read, that the total holds, that the
// balances are exactly what the log says, and that every acknowledged
// transfer is in the log.
func (b *bank) check() {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	bal := map[int]int64{}
	rows, err := b.db.QueryContext(ctx, "SELECT id, balance FROM bank.accounts")
	if err != nil {
		b.t.Fatal(err)
	}
	var total int64
	for rows.Next() {
		var id int
		var v int64
		if err := rows.Scan(&id, &v); err != nil {
			b.t.Fatal(err)
		}
		bal[id] = v
		total += v
	}
	if err := rows.Err(); err != nil {
		b.t.Fatal(err)
	}
	rows.Close()
	if len(bal) != b.accounts || total != int64(b.accounts)*b.initial {
		b.t.Fatalf("bank: %d accounts, total %d, want %d and %d", len(bal), total, b.accounts, int64(b.accounts)*b.initial)
	}
	want := map[int]int64{}
	for i := 0; i < b.accounts; i++ {
		want[i] = b.initial
	}
	logged := map[int64]bool{}
	rows, err = b.db.QueryContext(ctx, "SELECT tid, src, dst, amount FROM bank.log")
	if err != nil {
		b.t.Fatal(err)
	}
	for rows.Next() {
		var tid, amount int64
		var src, dst int
		if err := rows.Scan(&tid, &src, &dst, &amount); err != nil {
			b.t.Fatal(err)
		}
		logged[tid] = true
		want[src] -= amount
		want[dst] += amount
	}
	if err := rows.Err(); err != nil {
		b.t.Fatal(err)
	}
	rows.Close()
	var bad []string
	off := map[int]bool{}
	for id, v := range want {
		if bal[id] != v {
			bad = append(bad, fmt.Sprintf("account %d has %d, the log says %d", id, bal[id], v))
			off[id] = true
		}
	}
	if len(bad) > 0 {
		b.t.Fatalf("bank: %v; %s", bad, b.suspects(logged, off))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.acked {
		if !logged[e.tid] {
			b.t.Fatalf("bank: acknowledged transfer %d is lost", e.tid)
		}
	}
	b.t.Logf("bank: %d transfers acknowledged, %d in the log, %s", len(b.acked), len(logged), b.failuresLocked())
}

// progress waits until n more transfers are acknowledged.
func (b *bank) progress(c *cluster, n int, what string) {
	c.t.Helper()
	start := b.ackedCount()
	c.waitFor(fmt.Sprintf("%d transfers %s", n, what), 60*time.Second, func() (bool, string) {
		got := b.ackedCount() - start
		b.mu.Lock()
		defer b.mu.Unlock()
		return got >= n, fmt.Sprintf("%d acknowledged, %s", got, b.failuresLocked())
	})
}

// bankUnderLoad starts a cluster with o, a bank of 20 accounts replicated
// 3 ways, and 4 transfer workers. ctx ends with the test; stop ends the
// workers and waits for them.
func bankUnderLoad(t *testing.T, o clusterOpts) (c *cluster, b *bank, ctx context.Context, stop func()) {
	t.Helper()
	c = startCluster(t, o)
	b = newBank(t, c.db(0), 20, 1000)
	c.waitReplicated(3, 60*time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	wg := b.run(ctx, 4)
	return c, b, ctx, func() {
		cancel()
		wg.Wait()
	}
}
