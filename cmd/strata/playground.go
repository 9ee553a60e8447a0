package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/strata-db/strata/internal/cluster"
)

// runPlayground is `strata playground`: PD, KV and SQL as child processes
// of this one (see internal/cluster), running until SIGINT, SIGTERM or
// SIGHUP; `strata playground display` lists the running playgrounds.
// Exit status: 0 after a clean stop, 1 when a port is taken, a process
// fails to start or every process died, 2 for bad flags.
func runPlayground(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "display" {
		return runPlaygroundDisplay(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("strata playground", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var topo cluster.Topology
	fs.IntVar(&topo.PD, "pd", 1, "number of PD members")
	fs.IntVar(&topo.KV, "kv", 3, "number of KV nodes")
	fs.IntVar(&topo.SQL, "sql", 1, "number of SQL servers")
	fs.IntVar(&topo.PortOffset, "port-offset", 0, "added to every default port (PD 2379/2380, KV 20160/20180, SQL 4000/10080)")
	tag := fs.String("tag", "", "name of the playground; its data is kept at exit and reused by the next start with the same tag")
	configFile := fs.String("config", "", "TOML config file given to every process")
	dataDir := fs.String("data-dir", "", "folder holding playgrounds' data (default ~/.strata/data)")
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: strata playground [flags]\n       strata playground display [--tag NAME] [--data-dir DIR]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "strata playground: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *configFile != "" {
		abs, err := filepath.Abs(*configFile)
		if err == nil {
			_, err = os.Stat(abs)
		}
		if err != nil {
			fmt.Fprintf(stderr, "strata playground: --config: %v\n", err)
			return 2
		}
		*configFile = abs
	}
	root, code := playgroundRoot(*dataDir, stderr)
	if root == "" {
		return code
	}
	bin, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "strata playground: cannot find the strata binary: %v\n", err)
		return 1
	}
	// Signals are caught before anything starts: the first stops the
	// playground (also while it starts), a second kills what is left.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	stop, force := make(chan struct{}), make(chan struct{})
	go func() {
		<-sigs
		close(stop)
		<-sigs
		close(force)
	}()

	pg, err := cluster.New(cluster.Options{
		Binary: bin, Topology: topo, Tag: *tag, DataRoot: root, ConfigFile: *configFile, Out: stdout,
	})
	if err != nil {
		return playgroundNewError(err, stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	if err := pg.Start(ctx); err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr, "strata playground: interrupted while starting; stopped")
		} else {
			reportFailure(stderr, "failed to start", err)
		}
		return 1
	}
	printPlayground(stdout, pg)

	for {
		select {
		case <-stop:
			fmt.Fprintln(stdout, "\nStopping the playground")
			if err := pg.Stop(force); err != nil {
				fmt.Fprintf(stderr, "strata playground: %v\n", err)
				return 1
			}
			return 0
		case e := <-pg.Exits():
			select {
			case <-stop:
				// Ctrl-C reaches the whole process group: children
				// stopping on their own SIGINT are no surprise.
				continue
			default:
			}
			reportFailure(stderr, "process exited unexpectedly", e)
			if pg.Running() == 0 {
				fmt.Fprintln(stderr, "strata playground: every process has exited; stopping")
				_ = pg.Stop(force)
				return 1
			}
		}
	}
}

func playgroundRoot(dataDir string, stderr io.Writer) (string, int) {
	if dataDir != "" {
		abs, err := filepath.Abs(dataDir)
		if err != nil {
			fmt.Fprintf(stderr, "strata playground: --data-dir: %v\n", err)
			return "", 2
		}
		return abs, 0
	}
	root, err := cluster.DefaultDataRoot()
	if err != nil {
		fmt.Fprintf(stderr, "strata playground: %v\n", err)
		return "", 1
	}
	return root, 0
}

// playgroundNewError reports why a playground could not be planned.
func playgroundNewError(err error, stderr io.Writer) int {
	var taken *cluster.PortsTakenError
	switch {
	case errors.As(err, &taken):
		fmt.Fprintf(stderr, "strata playground: %v\n", err)
		fmt.Fprintln(stderr, "Another process listens there (another playground or a Strata/TiDB server?).")
		fmt.Fprintln(stderr, "Start with --port-offset N to shift every port, e.g. --port-offset 10000.")
		return 1
	case errors.Is(err, cluster.ErrBadTopology):
		fmt.Fprintf(stderr, "strata playground: %v\n", err)
		return 2
	default:
		fmt.Fprintf(stderr, "strata playground: %v\n", err)
		return 1
	}
}

// reportFailure prints err, with the last lines of the process's log when
// a process exited.
func reportFailure(w io.Writer, what string, err error) {
	fmt.Fprintf(w, "strata playground: %s: %v\n", what, err)
	var ee *cluster.ExitError
	if errors.As(err, &ee) && len(ee.Tail) > 0 {
		fmt.Fprintf(w, "last lines of %s:\n    %s\n", ee.LogFile, strings.Join(ee.Tail, "\n    "))
	}
}

func printPlayground(w io.Writer, pg *cluster.Playground) {
	if addrs := pg.SQLAddrs(); len(addrs) > 0 {
		fmt.Fprintln(w, "\nConnect with:")
		for _, a := range pg.SQLAddrs() {
			host, port, _ := strings.Cut(a, ":")
			fmt.Fprintf(w, "mysql --host %s --port %s -u root\n", host, port)
		}
	}
	fmt.Fprintln(w)
	_ = cluster.WriteTable(w, pg.State().Processes, false)
	fate := "its data is removed at exit (start with --tag NAME to keep it)"
	if pg.Keep() {
		fate = "its data is kept at exit"
	}
	fmt.Fprintf(w, "\nPlayground %q is running: press Ctrl-C to stop it; %s.\n", pg.Tag(), fate)
}

// runPlaygroundDisplay is `strata playground display`: the processes of
// the running playgrounds (all, or the one tagged --tag).
func runPlaygroundDisplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strata playground display", flag.ContinueOnError)
	fs.SetOutput(stderr)
	tag := fs.String("tag", "", "show only this playground")
	dataDir := fs.String("data-dir", "", "folder holding playgrounds' data (default ~/.strata/data)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "strata playground display: unexpected arguments %q\n", fs.Args())
		return 2
	}
	root, code := playgroundRoot(*dataDir, stderr)
	if root == "" {
		return code
	}
	states, err := cluster.ReadStates(root)
	if err != nil {
		fmt.Fprintf(stderr, "strata playground display: %v\n", err)
		return 1
	}
	shown := 0
	for _, s := range states {
		if (*tag != "" && s.Tag != *tag) || !s.Running() {
			continue
		}
		if shown > 0 {
			fmt.Fprintln(stdout)
		}
		shown++
		fate := "removed at exit"
		if s.Keep {
			fate = "kept at exit"
		}
		fmt.Fprintf(stdout, "Playground %q: pid %d, up %s, data in %s (%s)\n",
			s.Tag, s.PID, time.Since(s.Started).Round(time.Second), s.Dir, fate)
		_ = cluster.WriteTable(stdout, s.Processes, true)
	}
	switch {
	case shown == 0 && *tag != "":
		fmt.Fprintf(stderr, "strata playground display: no playground %q is running in %s\n", *tag, root)
		return 1
	case shown == 0:
		fmt.Fprintf(stdout, "No playground is running in %s\n", root)
	}
	return 0
}
