package privilege

import (
	"context"
	"errors"
	"fmt"
	"github.com/strata-db/strata/internal/kv/memkv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/strata-db/strata/internal/kv"
)

func TestMatchHost(t *testing.T) {
	for _, c := range []struct {
		pattern, host string
		want          bool
	}{
		{"%", "10.1.2.3", true},
		{"%", "", true},
		{"10.1.%", "10.1.2.3", true},
		{"10.1.%", "10.2.2.3", false},
		{"10.1.2._", "10.1.2.3", true},
		{"10.1.2._", "10.1.2.33", false},
		{"%.example.com", "db.EXAMPLE.com", true},
		{"%.example.com", "example.com", false},
		{"a%b%c", "axxbyyc", true},
		{"a%b%c", "axxbyy", false},
		{"localhost", "127.0.0.1", true},
		{"localhost", "::1", true},
		{"localhost", "10.0.0.1", false},
		{"127.0.0.1", "127.0.0.1", true},
		{"127.0.0.1", "127.0.0.10", false},
	} {
		if got := MatchHost(c.pattern, c.host); got != c.want {
			t.Errorf("MatchHost(%q, %q) = %v, want %v", c.pattern, c.host, got, c.want)
		}
	}
}

func TestParsePriv(t *testing.T) {
	for _, n := range []string{"select", "CREATE  USER", "grant option", "ALL PRIVILEGES", "usage"} {
		if _, ok := ParsePriv(n); !ok {
			t.Errorf("ParsePriv(%q) failed", n)
		}
	}
	if _, ok := ParsePriv("FLY"); ok {
		t.Error("ParsePriv(FLY) succeeded")
	}
	if got := (SelectPriv | CreateUserPriv | GrantPriv).String(); got != "SELECT, CREATE USER, GRANT OPTION" {
		t.Errorf("String = %q", got)
	}
}

// TestStore runs scripts of account changes against a Store over an
// in-memory KV and prints what the checker answers:
//
//	update                       one transaction of changes, one per line:
//	  create USER@HOST [pw=PW]     add an account (error if it exists)
//	  drop USER@HOST               remove an account (error if missing)
//	  grant USER@HOST on=LEVEL P,Q [grant]   LEVEL: *.*, db.*, db.tbl
//	  revoke USER@HOST on=LEVEL P,Q
//	match user=U host=H          the account a login picks
//	verify U@H LEVEL P           RequestVerification
//	show-grants USER@HOST        SHOW GRANTS lines
//	accounts                     every account
//	reopen                       a new Store over the same KV (a restart)
func TestStore(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		ctx := context.Background()
		m := memkv.New()
		s := NewStore(m.Begin, Options{})
		if err := s.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "update":
				err := s.Update(ctx, func(a *Accounts) error {
					for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
						if err := applyLine(a, strings.Fields(line)); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					return "error: " + err.Error() + "\n"
				}
				return fmt.Sprintf("ok, version %d\n", s.Snapshot().Version())
			case "match":
				var user, host string
				d.ScanArgs(t, "user", &user)
				d.ScanArgs(t, "host", &host)
				a := s.Snapshot().MatchAccount(user, host)
				if a == nil {
					return "none\n"
				}
				return a.Name() + "\n"
			case "verify":
				user, host := splitAccount(d.CmdArgs[0].Key)
				db, tbl := splitLevel(d.CmdArgs[1].Key)
				p, ok := ParsePriv(strings.ReplaceAll(d.CmdArgs[2].Key, "_", " "))
				if !ok {
					t.Fatalf("bad privilege %s", d.CmdArgs[2].Key)
				}
				return fmt.Sprintln(s.Snapshot().RequestVerification(user, host, db, tbl, p))
			case "show-grants":
				user, host := splitAccount(d.CmdArgs[0].Key)
				a := s.Snapshot().Account(user, host)
				if a == nil {
					return "no such account\n"
				}
				return strings.Join(ShowGrants(a), "\n") + "\n"
			case "accounts":
				var b strings.Builder
				for _, a := range s.Snapshot().Accounts() {
					fmt.Fprintf(&b, "%s plugin=%s password=%v\n", a.Name(), a.Plugin, len(a.NativeHash) > 0)
				}
				return b.String()
			case "reopen":
				s = NewStore(m.Begin, Options{})
				if err := s.Refresh(ctx); err != nil {
					t.Fatal(err)
				}
				return fmt.Sprintf("version %d\n", s.Snapshot().Version())
			}
			t.Fatalf("unknown command %s", d.Cmd)
			return ""
		})
	})
}

func splitAccount(s string) (user, host string) {
	user, host, _ = strings.Cut(s, "@")
	return user, host
}

// splitLevel parses *.*, db.* and db.tbl into Grant's (db, table).
func splitLevel(s string) (db, table string) {
	db, table, _ = strings.Cut(s, ".")
	if db == "*" {
		return "", ""
	}
	if table == "*" {
		table = ""
	}
	return db, table
}

func applyLine(a *Accounts, f []string) error {
	if len(f) < 2 {
		return fmt.Errorf("bad line %q", f)
	}
	user, host := splitAccount(f[1])
	switch f[0] {
	case "create":
		if a.Get(user, host) != nil {
			return fmt.Errorf("account %s exists", f[1])
		}
		acc := &Account{User: user, Host: host, Plugin: PluginNativePassword}
		if len(f) > 2 {
			acc.NativeHash = []byte(strings.TrimPrefix(f[2], "pw="))
		}
		a.Put(acc)
	case "drop":
		if !a.Delete(user, host) {
			return fmt.Errorf("no account %s", f[1])
		}
	case "grant", "revoke":
		acc := a.Get(user, host)
		if acc == nil {
			return fmt.Errorf("no account %s", f[1])
		}
		db, tbl := splitLevel(strings.TrimPrefix(f[2], "on="))
		var p Priv
		for _, n := range strings.Split(f[3], ",") {
			q, ok := ParsePriv(strings.ReplaceAll(n, "_", " "))
			if !ok {
				return fmt.Errorf("bad privilege %s", n)
			}
			p |= q
		}
		if len(f) > 4 && f[4] == "grant" {
			p |= GrantPriv
		}
		if f[0] == "grant" {
			acc.Grant(db, tbl, p)
		} else {
			acc.Revoke(db, tbl, p)
		}
	default:
		return fmt.Errorf("bad line %q", f)
	}
	return nil
}

// TestUpdateRetriesConflicts: a change that meets another server's change
// is retried on the new state, not lost.
func TestUpdateRetriesConflicts(t *testing.T) {
	ctx := context.Background()
	m := memkv.New()
	a, b := NewStore(m.Begin, Options{}), NewStore(m.Begin, Options{})
	calls := 0
	err := a.Update(ctx, func(accts *Accounts) error {
		calls++
		if calls == 1 {
			// Another server commits a change in between.
			if err := b.Update(ctx, func(x *Accounts) error {
				x.Put(&Account{User: "other", Host: "%"})
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		accts.Put(&Account{User: "mine", Host: "%"})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Fatalf("fn ran %d times, want 2 (one retry)", calls)
	}
	snap := a.Snapshot()
	if snap.Account("other", "%") == nil || snap.Account("mine", "%") == nil || snap.Account("root", "%") == nil {
		t.Fatalf("accounts = %v", snap.Accounts())
	}
}

// TestMaybeRefresh: another server's change shows after the interval, not
// before, on the caller's clock.
func TestMaybeRefresh(t *testing.T) {
	ctx := context.Background()
	m := memkv.New()
	now := time.Unix(1000, 0)
	a := NewStore(m.Begin, Options{Now: func() time.Time { return now }, RefreshInterval: time.Second})
	if err := a.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	b := NewStore(m.Begin, Options{})
	if err := b.Update(ctx, func(x *Accounts) error { x.Put(&Account{User: "u", Host: "%"}); return nil }); err != nil {
		t.Fatal(err)
	}
	now = now.Add(500 * time.Millisecond)
	if err := a.MaybeRefresh(ctx); err != nil {
		t.Fatal(err)
	}
	if a.Snapshot().Account("u", "%") != nil {
		t.Fatal("refreshed before the interval")
	}
	now = now.Add(600 * time.Millisecond)
	if err := a.MaybeRefresh(ctx); err != nil {
		t.Fatal(err)
	}
	if a.Snapshot().Account("u", "%") == nil {
		t.Fatal("not refreshed after the interval")
	}
}

// TestUpdateErrorAborts: fn's error is returned and nothing is written.
func TestUpdateErrorAborts(t *testing.T) {
	ctx := context.Background()
	m := memkv.New()
	s := NewStore(m.Begin, Options{})
	boom := errors.New("boom")
	err := s.Update(ctx, func(x *Accounts) error { x.Put(&Account{User: "u", Host: "%"}); return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	txn, _ := m.Begin(ctx)
	if _, err := txn.Get(ctx, versionKey); !errors.Is(err, kv.ErrNotExist) {
		t.Fatalf("version key written: %v", err)
	}
}

// BenchmarkMatchAccount measures what every statement pays to find its
// account and a login to pick one, among a few accounts of one user.
func BenchmarkMatchAccount(b *testing.B) {
	snap := newSnapshot(1, append(BootstrapAccounts(),
		&Account{User: "u", Host: "%"}, &Account{User: "u", Host: "10.0.%"}, &Account{User: "u", Host: "localhost"}))
	b.ReportAllocs()
	for b.Loop() {
		if snap.MatchAccount("root", "127.0.0.1") == nil || snap.MatchAccount("u", "10.0.0.7") == nil {
			b.Fatal("no match")
		}
	}
}

// TestConcurrentUpdates: servers changing accounts at once lose nothing
// (conflicts on the version key are retried) while readers refresh.
func TestConcurrentUpdates(t *testing.T) {
	ctx := context.Background()
	m := memkv.New()
	const servers, perServer = 3, 10
	errs := make(chan error, servers+1)
	stop := make(chan struct{})
	reader := NewStore(m.Begin, Options{RefreshInterval: time.Nanosecond})
	go func() {
		for {
			select {
			case <-stop:
				errs <- nil
				return
			default:
			}
			if err := reader.MaybeRefresh(ctx); err != nil {
				errs <- err
				return
			}
			_ = reader.Snapshot().RequestVerification("root", "1.2.3.4", "", "", SuperPriv)
		}
	}()
	done := make(chan error, servers)
	for i := range servers {
		go func() {
			s := NewStore(m.Begin, Options{})
			for j := range perServer {
				err := s.Update(ctx, func(a *Accounts) error {
					a.Put(&Account{User: fmt.Sprintf("u%d_%d", i, j), Host: "%"})
					return nil
				})
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range servers {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if err := reader.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if got, want := len(reader.Snapshot().Accounts()), servers*perServer+1; got != want {
		t.Fatalf("%d accounts, want %d", got, want)
	}
}
