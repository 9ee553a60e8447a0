package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/strata-db/strata/internal/config"
	"github.com/strata-db/strata/internal/gctuner"
)

// runDaemon is the part every long-running subcommand shares: parse its
// flags (fs, with a --config flag added here), load the TOML config, and
// run serve with a logger at the configured level and a context that
// SIGTERM or SIGINT ends. It returns the exit status: 0, 1 when serve
// fails, 2 for bad flags or a bad config file.
func runDaemon(fs *flag.FlagSet, args []string, stderr io.Writer,
	serve func(ctx context.Context, log *slog.Logger, cfg *config.Config) error) int {
	name := fs.Name()
	fs.SetOutput(stderr)
	configFile := fs.String("config", "", "TOML config file (TiDB / TiKV key names)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected arguments %q\n", name, fs.Args())
		return 2
	}
	cfg, code := loadConfig(*configFile, name, stderr)
	if cfg == nil {
		return code
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: cfg.SlogLevel()}))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	defer gctuner.Start(gcTunerOn)()
	if err := serve(ctx, log, cfg); err != nil {
		log.Error(name+" failed", "err", err)
		return 1
	}
	return 0
}

// gcTuner is what the GOGC tuner asks after each collection: nil (on)
// until a SQL process installs tidb_enable_gogc_tuner.
var gcTuner atomic.Pointer[func() bool]

func gcTunerOn() bool {
	if f := gcTuner.Load(); f != nil {
		return (*f)()
	}
	return true
}

// loadConfig reads the TOML config file (defaults when file is ""),
// warning about keys Strata does not use. A nil config comes with the
// exit status to return.
func loadConfig(file, who string, stderr io.Writer) (*config.Config, int) {
	if file == "" {
		return config.Default(), 0
	}
	cfg, unknown, err := config.Load(file)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", who, err)
		return nil, 2
	}
	for _, k := range unknown {
		fmt.Fprintf(stderr, "%s: %s\n", who, k)
	}
	return cfg, 0
}
