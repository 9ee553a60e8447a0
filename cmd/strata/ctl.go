package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/strata-db/strata/internal/cluster/pdctl"
	pdserver "github.com/strata-db/strata/internal/pd/server"
)

const ctlUsage = `Usage: strata ctl [--pd ADDR[,ADDR...]] [--json] <command>

Commands:
  stores                 stores: id, address, state, labels, region and leader counts, last heartbeat
  regions                regions in key order: id, start and end key, leader store, peers, size, keys
  region ID              one region in detail
  operators [history]    scheduling operators (running, or the latest retired ones):
                         region, kind, description, status, age
  operator add transfer-leader REGION STORE
                         move region REGION's leadership to its voter on store STORE
  members                PD members; the leader is marked *
  config [show]          the cluster config (replication and schedule keys)
  config set KEY VALUE   change one config key, e.g. schedule.max-store-down-time 1h

Flags (before or after the command):
`

// runCtl is `strata ctl`: PD's HTTP API as tables (or raw JSON with
// --json). Exit status 1 when PD cannot be reached or answers an error,
// 2 for bad usage.
func runCtl(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("strata ctl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	pd := fs.String("pd", "127.0.0.1:2379", "PD client address(es), host:port or http://host:port, comma-separated")
	asJSON := fs.Bool("json", false, "print PD's JSON instead of a table")
	timeout := fs.Duration("timeout", 10*time.Second, "timeout of each request")
	fs.Usage = func() {
		fmt.Fprint(stderr, ctlUsage)
		fs.PrintDefaults()
	}
	// Flags may come before or after the command words.
	var words []string
	for rest := args; ; {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return 0
			}
			return 2
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		words, rest = append(words, rest[0]), rest[1:]
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "strata ctl: "+format+"\nRun 'strata ctl -h' for the commands.\n", a...)
		return 2
	}
	if len(words) == 0 {
		return bad("no command")
	}
	c, err := pdctl.New(*pd, *timeout)
	if err != nil {
		return bad("--pd: %v", err)
	}
	x := ctlRun{c: c, json: *asJSON, stdout: stdout}
	ctx := context.Background()
	switch cmd, rest := words[0], words[1:]; {
	case cmd == "stores" && len(rest) == 0:
		err = x.stores(ctx)
	case cmd == "regions" && len(rest) == 0:
		err = x.regions(ctx)
	case cmd == "region" && len(rest) == 1:
		id, perr := strconv.ParseUint(rest[0], 10, 64)
		if perr != nil {
			return bad("region ID: %q is not a region id", rest[0])
		}
		err = x.region(ctx, id)
	case cmd == "operators" && len(rest) == 0:
		err = x.operators(ctx, "/pd/api/v1/operators")
	case cmd == "operators" && len(rest) == 1 && rest[0] == "history":
		err = x.operators(ctx, "/pd/api/v1/operators/history")
	case cmd == "operator" && len(rest) == 4 && rest[0] == "add" && rest[1] == "transfer-leader":
		region, rerr := strconv.ParseUint(rest[2], 10, 64)
		store, serr := strconv.ParseUint(rest[3], 10, 64)
		if rerr != nil || serr != nil {
			return bad("operator add transfer-leader REGION STORE: %q %q are not ids", rest[2], rest[3])
		}
		err = x.addOperator(ctx, pdserver.OperatorRequestJSON{Name: rest[1], RegionID: region, ToStoreID: store})
	case cmd == "members" && len(rest) == 0:
		err = x.members(ctx)
	case cmd == "config" && (len(rest) == 0 || len(rest) == 1 && rest[0] == "show"):
		err = x.configShow(ctx)
	case cmd == "config" && len(rest) == 3 && rest[0] == "set":
		err = x.configSet(ctx, rest[1], rest[2])
		if errors.Is(err, pdctl.ErrUnknownKey) || errors.Is(err, pdctl.ErrBadValue) {
			return bad("config set: %v", err)
		}
	default:
		return bad("unknown command or wrong arguments: %q", strings.Join(words, " "))
	}
	if err != nil {
		if errors.Is(err, pdctl.ErrUnreachable) {
			fmt.Fprintf(stderr, "strata ctl: cannot reach PD at %s: %v\n", *pd, err)
		} else {
			fmt.Fprintf(stderr, "strata ctl: %v\n", err)
		}
		return 1
	}
	return 0
}

// ctlRun runs one ctl command against PD.
type ctlRun struct {
	c      *pdctl.Client
	json   bool
	stdout io.Writer
}

// get fetches path into out, or prints the raw JSON with --json (then
// printed is true and the caller renders nothing).
func (x ctlRun) get(ctx context.Context, path string, out any) (printed bool, err error) {
	raw, err := x.c.Get(ctx, path, out)
	if err != nil {
		return false, err
	}
	if x.json {
		_, err = x.stdout.Write(withNewline(raw))
		return true, err
	}
	return false, nil
}

func withNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(b, '\n')
	}
	return b
}

func (x ctlRun) stores(ctx context.Context) error {
	var s pdserver.StoresJSON
	if done, err := x.get(ctx, "/pd/api/v1/stores", &s); done || err != nil {
		return err
	}
	return pdctl.WriteStores(x.stdout, s, time.Now())
}

func (x ctlRun) regions(ctx context.Context) error {
	var r pdserver.RegionsJSON
	if done, err := x.get(ctx, "/pd/api/v1/regions", &r); done || err != nil {
		return err
	}
	return pdctl.WriteRegions(x.stdout, r)
}

func (x ctlRun) region(ctx context.Context, id uint64) error {
	var r pdserver.RegionJSON
	if done, err := x.get(ctx, fmt.Sprintf("/pd/api/v1/region/id/%d", id), &r); done || err != nil {
		return err
	}
	return pdctl.WriteRegion(x.stdout, r)
}

func (x ctlRun) operators(ctx context.Context, path string) error {
	raw, err := x.c.Get(ctx, path, nil)
	if err != nil {
		return err
	}
	return x.showOperators(raw, raw)
}

// addOperator asks PD for an admin operator and shows it as a row of
// `operators`.
func (x ctlRun) addOperator(ctx context.Context, req pdserver.OperatorRequestJSON) error {
	raw, err := x.c.Post(ctx, "/pd/api/v1/operators", req, nil)
	if err != nil {
		return err
	}
	return x.showOperators(raw, append(append([]byte("["), raw...), ']'))
}

// showOperators prints PD's answer raw with --json, else the operators
// list (a JSON list of them) as a table.
func (x ctlRun) showOperators(raw, list []byte) error {
	if x.json {
		_, err := x.stdout.Write(withNewline(raw))
		return err
	}
	ops, err := pdctl.DecodeOperators(list)
	if err != nil {
		return err
	}
	return pdctl.WriteOperators(x.stdout, ops, time.Now())
}

func (x ctlRun) members(ctx context.Context) error {
	var m pdserver.MembersJSON
	if done, err := x.get(ctx, "/pd/api/v1/members", &m); done || err != nil {
		return err
	}
	return pdctl.WriteMembers(x.stdout, m)
}

func (x ctlRun) configShow(ctx context.Context) error {
	raw, err := x.c.Get(ctx, "/pd/api/v1/config", nil)
	if err != nil {
		return err
	}
	if x.json {
		_, err = x.stdout.Write(withNewline(raw))
		return err
	}
	flat, err := pdctl.FlattenConfig(raw)
	if err != nil {
		return err
	}
	return pdctl.WriteConfig(x.stdout, flat)
}

func (x ctlRun) configSet(ctx context.Context, key, value string) error {
	raw, err := x.c.Get(ctx, "/pd/api/v1/config", nil)
	if err != nil {
		return err
	}
	flat, err := pdctl.FlattenConfig(raw)
	if err != nil {
		return err
	}
	full, body, err := pdctl.ConfigUpdate(flat, key, value)
	if err != nil {
		return err
	}
	raw, err = x.c.Post(ctx, "/pd/api/v1/config", body, nil)
	if err != nil {
		return err
	}
	if x.json {
		_, err = x.stdout.Write(withNewline(raw))
		return err
	}
	after, err := pdctl.FlattenConfig(raw)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(x.stdout, "%s: %s -> %s\n", full, pdctl.FormatValue(flat[full]), pdctl.FormatValue(after[full]))
	return err
}
