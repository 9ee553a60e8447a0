package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/kv"
)

// KVConfig configures the KV workload.
type KVConfig struct {
	Workers   int           // concurrent workers (default 16)
	Duration  time.Duration // per workload (default 10s)
	Keys      int           // key space (default 10000)
	ValueSize int           // bytes per value (default 64)
	Workloads []string      // "get", "update" (default both)
	SkipLoad  bool          // keys were loaded by an earlier run
}

func (c *KVConfig) fill() {
	if c.Workers <= 0 {
		c.Workers = 16
	}
	if c.Duration <= 0 {
		c.Duration = 10 * time.Second
	}
	if c.Keys <= 0 {
		c.Keys = 10000
	}
	if c.ValueSize <= 0 {
		c.ValueSize = 64
	}
	if len(c.Workloads) == 0 {
		c.Workloads = []string{"get", "update"}
	}
}

// KVResult is the outcome of one workload.
type KVResult struct {
	Workload      string
	Ops, Errors   int64
	Conflicts     int64
	Elapsed       time.Duration
	P50, P95, P99 time.Duration
}

// OpsPerSec is the throughput of acknowledged operations.
func (r KVResult) OpsPerSec() float64 { return float64(r.Ops) / r.Elapsed.Seconds() }

// String formats r as one report line.
func (r KVResult) String() string {
	return fmt.Sprintf("%-7s ops/s: %9.0f  ops: %8d  conflicts: %6d  errors: %4d  p50: %6.2fms  p95: %6.2fms  p99: %6.2fms",
		r.Workload, r.OpsPerSec(), r.Ops, r.Conflicts, r.Errors, ms(r.P50), ms(r.P95), ms(r.P99))
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func benchKey(i int) kv.Key { return kv.Key(fmt.Sprintf("bench/kv/%08d", i)) }

// RunKV loads the key space (unless cfg.SkipLoad) and runs each workload in
// turn through c, printing a line per workload to out.
func RunKV(ctx context.Context, c *txnclient.Client, cfg KVConfig, out io.Writer) ([]KVResult, error) {
	cfg.fill()
	if !cfg.SkipLoad {
		start := time.Now()
		if err := loadKV(ctx, c, cfg); err != nil {
			return nil, fmt.Errorf("load: %w", err)
		}
		fmt.Fprintf(out, "loaded %d keys in %v\n", cfg.Keys, time.Since(start).Round(time.Millisecond))
	}
	var results []KVResult
	for _, w := range cfg.Workloads {
		var op func(context.Context, *rand.Rand, []byte) error
		switch w {
		case "get":
			op = func(ctx context.Context, rng *rand.Rand, _ []byte) error { return pointGet(ctx, c, rng, cfg) }
		case "update":
			op = func(ctx context.Context, rng *rand.Rand, val []byte) error { return update(ctx, c, rng, cfg, val) }
		default:
			return results, fmt.Errorf("unknown workload %q (want get or update)", w)
		}
		r := runWorkload(ctx, w, cfg, op)
		fmt.Fprintln(out, r)
		results = append(results, r)
	}
	return results, nil
}

func loadKV(ctx context.Context, c *txnclient.Client, cfg KVConfig) error {
	val := make([]byte, cfg.ValueSize)
	const perTxn = 1000
	for lo := 0; lo < cfg.Keys; lo += perTxn {
		txn, err := c.Begin(ctx)
		if err != nil {
			return err
		}
		for i := lo; i < min(lo+perTxn, cfg.Keys); i++ {
			if err := txn.Set(benchKey(i), val); err != nil {
				return err
			}
		}
		if err := txn.Commit(ctx); err != nil {
			return err
		}
	}
	return nil
}

// pointGet is an autocommit point select: a snapshot and one Get.
func pointGet(ctx context.Context, c *txnclient.Client, rng *rand.Rand, cfg KVConfig) error {
	txn, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	defer txn.Rollback()
	_, err = txn.Get(ctx, benchKey(rng.Intn(cfg.Keys)))
	return err
}

// update is a 1-key read-modify-write transaction, like sysbench's
// update_non_index: read the row, write it back changed.
func update(ctx context.Context, c *txnclient.Client, rng *rand.Rand, cfg KVConfig, val []byte) error {
	txn, err := c.Begin(ctx)
	if err != nil {
		return err
	}
	k := benchKey(rng.Intn(cfg.Keys))
	if _, err := txn.Get(ctx, k); err != nil && !errors.Is(err, kv.ErrNotExist) {
		txn.Rollback()
		return err
	}
	rng.Read(val[:min(8, len(val))])
	if err := txn.Set(k, val); err != nil {
		txn.Rollback()
		return err
	}
	return txn.Commit(ctx)
}

func runWorkload(ctx context.Context, name string, cfg KVConfig, op func(context.Context, *rand.Rand, []byte) error) KVResult {
	ctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		lats    = make([]latencies, cfg.Workers)
		res     = KVResult{Workload: name}
		started = time.Now()
	)
	for w := 0; w < cfg.Workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(w)*7919 + time.Now().UnixNano()))
			val := make([]byte, cfg.ValueSize)
			var ops, errs, conflicts int64
			for ctx.Err() == nil {
				t0 := time.Now()
				err := op(ctx, rng, val)
				switch {
				case err == nil:
					ops++
					lats[w] = append(lats[w], time.Since(t0))
				case ctx.Err() != nil:
				case errors.Is(err, kv.ErrWriteConflict):
					conflicts++
				default:
					errs++
				}
			}
			mu.Lock()
			res.Ops += ops
			res.Errors += errs
			res.Conflicts += conflicts
			mu.Unlock()
		}(w)
	}
	wg.Wait()
	res.Elapsed = time.Since(started)
	all := merge(lats)
	res.P50, res.P95, res.P99 = all.percentile(50), all.percentile(95), all.percentile(99)
	return res
}
