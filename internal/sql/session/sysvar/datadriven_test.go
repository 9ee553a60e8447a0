package sysvar

import (
	"context"
	"fmt"
	"github.com/strata-db/strata/internal/kv/memkv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
)

// testRegistry has fixed server info so expected outputs do not depend on
// the machine.
func testRegistry() *Registry {
	return NewRegistry(ServerInfo{
		Version: "v0.1.0", Hostname: "host1", Port: 4000, DataDir: "/data",
		TmpDir: "/tmp", SystemTimeZone: "UTC", SystemLocation: time.UTC,
	})
}

// env is the world of one script: a shared memKV, SQL servers (each a
// GlobalStore) and sessions on them.
type env struct {
	kv       *memkv.Store
	servers  map[string]*GlobalStore
	sessions map[string]*Vars
}

func newEnv() *env {
	e := &env{kv: memkv.New(), servers: map[string]*GlobalStore{}, sessions: map[string]*Vars{}}
	e.server("a")
	return e
}

func (e *env) server(name string) *GlobalStore {
	s, ok := e.servers[name]
	if !ok {
		s = NewGlobalStore(testRegistry(), e.kv.Begin)
		if _, err := s.Refresh(context.Background()); err != nil {
			panic(err)
		}
		e.servers[name] = s
	}
	return s
}

func argOr(d *datadriven.TestData, key, def string) string {
	if a, ok := d.Arg(key); ok && len(a.Vals) > 0 {
		return a.Vals[0]
	}
	return def
}

func (e *env) session(d *datadriven.TestData) *Vars {
	name := argOr(d, "session", "s1")
	v, ok := e.sessions[name]
	if !ok {
		v = NewVars(e.server(argOr(d, "server", "a")))
		e.sessions[name] = v
	}
	return v
}

func formatWarnings(b *strings.Builder, warns []error) {
	for _, w := range warns {
		fmt.Fprintf(b, "  warning: %v\n", w)
	}
}

func TestDataDriven(t *testing.T) {
	// Scripts are the files directly in testdata (testdata/fuzz holds the
	// fuzzers' corpus).
	paths, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		if st, err := os.Stat(path); err != nil || st.IsDir() {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) { runScript(t, path) })
	}
}

func runScript(t *testing.T, path string) {
	e := newEnv()
	ctx := context.Background()
	datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
		var b strings.Builder
		switch d.Cmd {
		case "session":
			// session session=NAME [server=S]: (re)connect a session.
			delete(e.sessions, argOr(d, "session", "s1"))
			e.session(d)
			return "ok\n"
		case "refresh":
			skipped, err := e.server(argOr(d, "server", "a")).Refresh(ctx)
			if err != nil {
				return fmt.Sprintf("error: %v\n", err)
			}
			return fmt.Sprintf("ok skipped=%v\n", skipped)
		case "set":
			v := e.session(d)
			srv := e.server(argOr(d, "server", "a"))
			for _, line := range strings.Split(d.Input, "\n") {
				global := strings.HasPrefix(line, "global ")
				name, value, _ := strings.Cut(strings.TrimPrefix(line, "global "), "=")
				name, value = strings.TrimSpace(name), strings.TrimSpace(value)
				var warns []error
				var err error
				switch {
				case global:
					warns, err = srv.Set(ctx, name, value)
				case value == "DEFAULT":
					warns, err = v.SetSessionDefault(name)
				default:
					warns, err = v.SetSession(name, value)
				}
				if err != nil {
					fmt.Fprintf(&b, "%s: error: %v\n", line, err)
					continue
				}
				fmt.Fprintf(&b, "%s: ok\n", line)
				formatWarnings(&b, warns)
			}
			return b.String()
		case "get":
			v := e.session(d)
			for _, line := range strings.Split(d.Input, "\n") {
				var val string
				var err error
				switch {
				case strings.HasPrefix(line, "@@global."):
					val, err = v.GetGlobal(strings.TrimPrefix(line, "@@global."))
				case strings.HasPrefix(line, "@@session."):
					val, err = v.GetSession(strings.TrimPrefix(line, "@@session."))
				default:
					val, err = v.Get(strings.TrimPrefix(line, "@@"))
				}
				if err != nil {
					fmt.Fprintf(&b, "%s: error: %v\n", line, err)
				} else {
					fmt.Fprintf(&b, "%s = %q\n", line, val)
				}
			}
			return b.String()
		case "show":
			v := e.session(d)
			scope := ScopeSession
			if d.HasArg("global") {
				scope = ScopeGlobal
			}
			for _, nv := range v.ShowVariables(argOr(d, "like", ""), scope) {
				fmt.Fprintf(&b, "%s\t%s\n", nv.Name, nv.Value)
			}
			return b.String()
		case "hot":
			v := e.session(d)
			inc, off := v.AutoIncrement()
			fmt.Fprintf(&b, "autocommit=%v isolation=%s readonly=%v txnmode=%s\n", v.Autocommit(), v.TxnIsolation(), v.TxnReadOnly(), v.TxnMode())
			fmt.Fprintf(&b, "sqlmode=%#x strict=%v (%s)\n", uint64(v.SQLMode()), v.SQLMode().Strict(), v.SQLMode())
			fmt.Fprintf(&b, "async=%v 1pc=%v linearizable=%v clustered=%s\n", v.AsyncCommit(), v.OnePC(), v.GuaranteeLinearizability(), v.ClusteredIndex())
			fmt.Fprintf(&b, "tz=%s loc=%s maxexec=%v lockwait=%v autoinc=%d,%d\n", v.TimeZone(), v.Location(), v.MaxExecutionTime(), v.LockWaitTimeout(), inc, off)
			fmt.Fprintf(&b, "selectlimit=%d maxpacket=%d retry=%d noretry=%v memquota=%d scan=%d exec=%d lastid=%d\n",
				v.SQLSelectLimit(), v.MaxAllowedPacket(), v.RetryLimit(), v.DisableTxnAutoRetry(), v.MemQuotaQuery(),
				v.DistSQLScanConcurrency(), v.ExecutorConcurrency(), v.LastInsertID())
			return b.String()
		case "kv-put":
			// kv-put key=K value=V: a raw write, as another server would.
			txn, _ := e.kv.Begin(ctx)
			_ = txn.Set([]byte(argOr(d, "key", "")), []byte(argOr(d, "value", "")))
			if err := txn.Commit(ctx); err != nil {
				return fmt.Sprintf("error: %v\n", err)
			}
			return "ok\n"
		case "kv":
			// kv: the persisted keys.
			for _, kv := range e.kv.Dump() {
				fmt.Fprintf(&b, "%s = %q\n", kv[0], kv[1])
			}
			return b.String()
		}
		t.Fatalf("unknown command %q", d.Cmd)
		return ""
	})
}
