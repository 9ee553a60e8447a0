package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/strata-db/strata/internal/bench"
	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/client/txnclient"
	"github.com/strata-db/strata/internal/pd/tso"
	"github.com/strata-db/strata/internal/store/server"
)

// runBench dispatches `strata bench <workload>`.
func runBench(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		fmt.Fprintln(stderr, "Usage: strata bench kv [flags]   (sysbench and tpcc: not built yet)")
		return 2
	}
	switch args[0] {
	case "kv":
		return runBenchKV(args[1:], stdout, stderr)
	case "sysbench", "tpcc":
		fmt.Fprintf(stderr, "strata bench %s: not built yet\n", args[0])
		return 2
	default:
		fmt.Fprintf(stderr, "strata bench: unknown workload %q (want kv)\n", args[0])
		return 2
	}
}

// runBenchKV drives the transaction client over gRPC against a `strata kv`
// node: point reads and 1-key update transactions, reporting ops/s and
// latency percentiles per workload.
func runBenchKV(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strata bench kv", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg bench.KVConfig
	addr := fs.String("addr", "127.0.0.1:20160", "address of the strata kv node")
	fs.IntVar(&cfg.Workers, "workers", 16, "concurrent workers")
	fs.DurationVar(&cfg.Duration, "duration", 10*time.Second, "length of each workload")
	fs.IntVar(&cfg.Keys, "keys", 10000, "number of keys")
	fs.IntVar(&cfg.ValueSize, "value-size", 64, "bytes per value")
	fs.BoolVar(&cfg.SkipLoad, "skip-load", false, "do not load the keys first")
	workloads := fs.String("workloads", "get,update", "comma-separated workloads: get, update")
	onePC := fs.Bool("1pc", true, "commit 1-key transactions in one phase (tidb_enable_1pc)")
	asyncCommit := fs.Bool("async-commit", false, "async commit (tidb_enable_async_commit)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the client to this file")
	conns := fs.Int("grpc-connection-count", 4, "gRPC connections to the store (tikv-client.grpc-connection-count)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cfg.Workloads = strings.Split(*workloads, ",")
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(stderr, "strata bench kv:", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(stderr, "strata bench kv:", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}

	ora, err := tso.New(time.Now, &tso.MemWindowStore{}, tso.Options{})
	if err != nil {
		fmt.Fprintln(stderr, "strata bench kv:", err)
		return 1
	}
	rc := rpc.NewGRPC(rpc.GRPCOptions{ConnCount: *conns})
	defer rc.Close()
	c := txnclient.New(rc, locate.StaticRegions(server.Region(), *addr), ora,
		txnclient.Options{OnePC: *onePC, AsyncCommit: *asyncCommit})
	defer c.Close()

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	fmt.Fprintf(stdout, "strata bench kv: %s, %d workers, %v per workload, 1pc=%v async-commit=%v\n",
		*addr, cfg.Workers, cfg.Duration, *onePC, *asyncCommit)
	if _, err := bench.RunKV(ctx, c, cfg, stdout); err != nil {
		fmt.Fprintln(stderr, "strata bench kv:", err)
		return 1
	}
	return 0
}
