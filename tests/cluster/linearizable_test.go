package cluster

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand"
	"sync"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
)

// regInput is one register operation: a read, a write of value, or a
// compare-and-set from expect to value.
type regInput struct {
	op     byte // 'r', 'w', 'c'
	key    int
	value  int
	expect int
}

// regOutput is its result: the value read, whether a CAS took, or an
// unknown outcome (the statement failed: it may or may not have taken).
type regOutput struct {
	value   int
	ok      bool
	unknown bool
}

// registerModel is a map of integer registers, checked per key.
var registerModel = porcupine.Model{
	Partition: func(h []porcupine.Operation) [][]porcupine.Operation {
		by := map[int][]porcupine.Operation{}
		for _, op := range h {
			k := op.Input.(regInput).key
			by[k] = append(by[k], op)
		}
		out := make([][]porcupine.Operation, 0, len(by))
		for _, ops := range by {
			out = append(out, ops)
		}
		return out
	},
	Init: func() any { return 0 },
	Step: func(state, input, output any) (bool, any) {
		st, in, out := state.(int), input.(regInput), output.(regOutput)
		switch in.op {
		case 'r':
			return out.value == st, st
		case 'w':
			return true, in.value
		default: // CAS
			if out.unknown {
				if st == in.expect {
					return true, in.value
				}
				return true, st
			}
			if out.ok {
				return st == in.expect, in.value
			}
			return st != in.expect, st
		}
	},
	DescribeOperation: func(input, output any) string {
		in, out := input.(regInput), output.(regOutput)
		return fmt.Sprintf("%c k=%d v=%d exp=%d -> %+v", in.op, in.key, in.value, in.expect, out)
	},
}

// registerRun is a running register workload.
type registerRun struct {
	mu   sync.Mutex
	hist []porcupine.Operation
	wg   sync.WaitGroup
}

// ops returns how many operations completed so far.
func (r *registerRun) ops() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.hist)
}

// wait waits for the clients to stop and returns the history.
func (r *registerRun) wait() []porcupine.Operation {
	r.wg.Wait()
	return r.hist
}

// progress waits until n more operations completed.
func (r *registerRun) progress(c *cluster, n int, what string) {
	c.t.Helper()
	start := r.ops()
	c.waitFor(fmt.Sprintf("%d register operations %s", n, what), 60*time.Second, func() (bool, string) {
		return r.ops()-start >= n, fmt.Sprintf("%d done", r.ops()-start)
	})
}

// registerClients runs n clients of single-statement reads, writes and
// CASes on keys registers until ctx ends.
func registerClients(ctx context.Context, t *testing.T, db *sql.DB, n, keys int) *registerRun {
	mustExec(t, db, "CREATE DATABASE IF NOT EXISTS lin")
	mustExec(t, db, "CREATE TABLE lin.reg (k INT PRIMARY KEY, v INT NOT NULL)")
	for k := 0; k < keys; k++ {
		mustExec(t, db, "INSERT INTO lin.reg VALUES (?, 0)", k)
	}
	r := &registerRun{}
	var (
		mu   sync.Mutex // guards next
		next = 1
	)
	start := time.Now()
	now := func() int64 { return int64(time.Since(start)) }
	for c := 0; c < n; c++ {
		r.wg.Add(1)
		go func(client int) {
			defer r.wg.Done()
			rng := rand.New(rand.NewSource(int64(client)))
			for ctx.Err() == nil {
				in := regInput{key: rng.Intn(keys)}
				switch r := rng.Intn(10); {
				case r < 5:
					in.op = 'r'
				case r < 8:
					in.op = 'w'
				default:
					in.op = 'c'
					in.expect = rng.Intn(4)
				}
				if in.op != 'r' {
					mu.Lock()
					in.value, next = next, next+1
					mu.Unlock()
					if in.op == 'c' && rng.Intn(2) == 0 {
						// Aim at a recent value, so some CASes succeed.
						in.expect = max(in.value-1-rng.Intn(3), 0)
					}
				}
				call := now()
				out, err := registerOp(ctx, db, in)
				ret := now()
				if err != nil {
					if in.op == 'r' {
						continue // a failed read observed nothing
					}
					out, ret = regOutput{unknown: true}, math.MaxInt64
				}
				r.mu.Lock()
				r.hist = append(r.hist, porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret})
				r.mu.Unlock()
			}
		}(c)
	}
	return r
}

// registerOp runs one operation with a budget of its own, so that the end
// of the workload does not cut an operation short.
func registerOp(_ context.Context, db *sql.DB, in regInput) (regOutput, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	switch in.op {
	case 'r':
		var v int
		err := db.QueryRowContext(ctx, "SELECT v FROM lin.reg WHERE k = ?", in.key).Scan(&v)
		return regOutput{value: v}, err
	case 'w':
		_, err := db.ExecContext(ctx, "UPDATE lin.reg SET v = ? WHERE k = ?", in.value, in.key)
		return regOutput{ok: true}, err
	default:
		res, err := db.ExecContext(ctx, "UPDATE lin.reg SET v = ? WHERE k = ? AND v = ?", in.value, in.key, in.expect)
		if err != nil {
			return regOutput{}, err
		}
		n, err := res.RowsAffected()
		return regOutput{ok: n == 1}, err
	}
}

// checkLinearizable fails the test unless porcupine finds a
// linearization of hist.
func checkLinearizable(t *testing.T, hist []porcupine.Operation) {
	t.Helper()
	res, info := porcupine.CheckOperationsVerbose(registerModel, hist, 60*time.Second)
	unknown := 0
	for _, op := range hist {
		if op.Output.(regOutput).unknown {
			unknown++
		}
	}
	t.Logf("register history: %d operations (%d with unknown outcome), result %v", len(hist), unknown, res)
	switch res {
	case porcupine.Illegal:
		file := t.TempDir() + "/linearizability.html"
		if err := porcupine.VisualizePath(registerModel, info, file); err == nil {
			t.Logf("visualization: %s", file)
		}
		t.Fatal("history is not linearizable")
	case porcupine.Unknown:
		t.Log("linearizability check timed out (inconclusive)")
	}
}

// Linearizability of single-key reads, writes and CAS through SQL from
// several clients while a KV node is killed and restarted.
func TestRegisterLinearizableUnderKill(t *testing.T) {
	c := startCluster(t, clusterOpts{kv: 3, sql: 1})
	db := c.db(0)
	db.SetMaxOpenConns(16)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.waitReplicated(3, 60*time.Second)
	run := registerClients(ctx, t, db, 6, 4)
	run.progress(c, 300, "before the fault")
	victim := c.kvs[0]
	victim.proc.Kill()
	run.progress(c, 300, "with a node killed")
	c.startKV(victim)
	run.progress(c, 300, "after the restart")
	cancel()
	checkLinearizable(t, run.wait())
}

// The register workload without faults: the checker's baseline.
func TestRegisterLinearizable(t *testing.T) {
	c := startCluster(t, clusterOpts{kv: 1, sql: 1})
	db := c.db(0)
	db.SetMaxOpenConns(16)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	run := registerClients(ctx, t, db, 6, 4)
	run.progress(c, 1000, "")
	cancel()
	checkLinearizable(t, run.wait())
}

// The checker rejects a stale read: a read that starts after a write
// returned must see it.
func TestRegisterModelRejectsStaleRead(t *testing.T) {
	hist := []porcupine.Operation{
		{ClientId: 0, Input: regInput{op: 'w', key: 1, value: 7}, Call: 0, Output: regOutput{ok: true}, Return: 10},
		{ClientId: 1, Input: regInput{op: 'r', key: 1}, Call: 20, Output: regOutput{value: 0}, Return: 30},
	}
	if porcupine.CheckOperations(registerModel, hist) {
		t.Fatal("a stale read was accepted")
	}
	hist[1].Output = regOutput{value: 7}
	if !porcupine.CheckOperations(registerModel, hist) {
		t.Fatal("a fresh read was rejected")
	}
	// An unknown write may or may not have happened.
	hist = []porcupine.Operation{
		{ClientId: 0, Input: regInput{op: 'w', key: 1, value: 7}, Call: 0, Output: regOutput{unknown: true}, Return: math.MaxInt64},
		{ClientId: 1, Input: regInput{op: 'r', key: 1}, Call: 20, Output: regOutput{value: 0}, Return: 30},
		{ClientId: 1, Input: regInput{op: 'r', key: 1}, Call: 40, Output: regOutput{value: 7}, Return: 50},
	}
	if !porcupine.CheckOperations(registerModel, hist) {
		t.Fatal("an unknown write seen late was rejected")
	}
}
