package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand: run gets the arguments after its name and
// returns the exit status.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// notBuilt are the subcommands of DESIGN.md that do not exist yet.
var notBuilt = map[string]string{
	"cluster": "deploy/start/stop/display/destroy from a topology file",
}

func commands() map[string]command {
	cmds := map[string]command{
		"kv":         {"storage node: regions replicated by Raft (--pd ADDRS), or one region alone", runKV},
		"sql":        {"stateless SQL server of a cluster (--pd ADDRS), or over one kv node (--store ADDR)", runSQL},
		"server":     {"embedded single node: SQL + KV + TSO in one process, data in one folder", runServer},
		"version":    {"print the version", runVersion},
		"bench":      {"workloads against a running cluster (kv today; sysbench and TPC-C later)", runBench},
		"pd":         {"placement driver: TSO, IDs, store/region metadata, scheduling", runPD},
		"playground": {"local cluster as separate processes (--pd 1 --kv 3 --sql 1); display lists them", runPlayground},
		"ctl":        {"admin: stores, regions, operators, members, config (PD's HTTP API)", runCtl},
	}
	for name, summary := range notBuilt {
		cmds[name] = command{summary + " (not built yet)", notBuiltYet(name)}
	}
	return cmds
}

func main() {
	reexecForGODEBUG()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches args to a subcommand and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return 0
	}
	cmd, ok := commands()[name]
	if !ok {
		fmt.Fprintf(stderr, "strata: unknown command %q\n\n", name)
		usage(stderr)
		return 2
	}
	return cmd.run(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("Usage: strata <command> [flags]\n\nCommands:\n")
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "  %-11s %s\n", n, cmds[n].summary)
	}
	b.WriteString("  help        show this help\n\nRun 'strata <command> -h' for the flags of a command.\n")
	io.WriteString(w, b.String())
}

func notBuiltYet(name string) func([]string, io.Writer, io.Writer) int {
	return func(_ []string, _, stderr io.Writer) int {
		fmt.Fprintf(stderr, "strata %s: not built yet\n", name)
		return 2
	}
}
