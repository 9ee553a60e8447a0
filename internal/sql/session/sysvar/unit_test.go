package sysvar

import (
	"context"
	"errors"
	"github.com/strata-db/strata/internal/kv/memkv"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kv"
)

func TestMatchLike(t *testing.T) {
	for _, tc := range []struct {
		pattern, s string
		want       bool
	}{
		{"", "", true},
		{"", "a", false},
		{"%", "", true},
		{"%", "anything", true},
		{"a%", "abc", true},
		{"A%", "abc", true},
		{"%c", "abc", true},
		{"%b%", "abc", true},
		{"a_c", "abc", true},
		{"a_c", "abbc", false},
		{"a%c%e", "abcxdxe", true},
		{"a%c%e", "abcxdx", false},
		{`a\_c`, "a_c", true},
		{`a\_c`, "abc", false},
		{`100\%`, "100%", true},
		{`100\%`, "1000", false},
		{`%\\`, `a\`, true},
		{"tidb\\_%", "tidb_txn_mode", true},
		{"tidb\\_%", "tidbx", false},
		{"_", "é", true},
		{"%%%a", "bba", true},
	} {
		if got := MatchLike(tc.pattern, tc.s, '\\'); got != tc.want {
			t.Errorf("MatchLike(%q, %q) = %v, want %v", tc.pattern, tc.s, got, tc.want)
		}
	}
}

func TestErrorIdentity(t *testing.T) {
	reg := testRegistry()
	g, _ := NewGlobals(reg, nil)
	v := NewVars(StaticGlobals(g))
	for _, tc := range []struct {
		name, value string
		want        error
	}{
		{"nope", "1", ErrUnknownSystemVariable},
		{"max_connections", "1", ErrIncorrectScope},
		{"version", "1", ErrReadOnly},
		{"autocommit", "2", ErrWrongValueForVar},
		{"wait_timeout", "x", ErrWrongTypeForVar},
		{"transaction_isolation", "SERIALIZABLE", ErrNotSupported},
		{"time_zone", "Nowhere/Town", ErrUnknownTimeZone},
	} {
		_, err := v.SetSession(tc.name, tc.value)
		if !errors.Is(err, tc.want) {
			t.Errorf("SET %s = %s: %v, want %v", tc.name, tc.value, err, tc.want)
		}
		var e *Error
		if !errors.As(err, &e) || e.Kind != tc.want {
			t.Errorf("SET %s = %s: not an *Error of kind %v", tc.name, tc.value, tc.want)
		}
	}
	warns, err := v.SetSession("unique_checks", "0")
	if err != nil || len(warns) != 1 || !errors.Is(warns[0], WarnNoEffect) {
		t.Fatalf("noop: %v %v", warns, err)
	}
}

// TestEveryDefaultValid checks each built-in default is in normalized form:
// normalizing it again changes nothing.
func TestEveryDefaultValid(t *testing.T) {
	reg := testRegistry()
	for _, sv := range reg.All() {
		if sv.Alias != "" {
			if _, ok := reg.Lookup(sv.Alias); !ok {
				t.Errorf("%s: alias of unknown %s", sv.Name, sv.Alias)
			}
			continue
		}
		got, _, err := sv.Normalize(sv.Default)
		if err != nil || got != sv.Default {
			t.Errorf("%s: default %q normalizes to %q, %v", sv.Name, sv.Default, got, err)
		}
	}
	if err := reg.Register(SysVar{Name: "AutoCommit"}); err == nil {
		t.Error("duplicate registration accepted")
	}
}

func TestSQLModeRoundTrip(t *testing.T) {
	for _, s := range []string{DefaultSQLMode, "", "ANSI", "TRADITIONAL", "NO_BACKSLASH_ESCAPES,PAD_CHAR_TO_FULL_LENGTH,TIME_TRUNCATE_FRACTIONAL"} {
		m, err := ParseSQLMode(s)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := ParseSQLMode(m.String())
		if err != nil || m2 != m {
			t.Errorf("%q: %s -> %v, %v", s, m, m2, err)
		}
		n, err := ParseSQLMode(uintString(uint64(m)))
		if err != nil || n != m {
			t.Errorf("%q as number: %v, %v", s, n, err)
		}
	}
	if m, _ := ParseSQLMode(DefaultSQLMode); !m.Has(ModeStrictTransTables) || !m.Strict() || m.Has(ModeANSIQuotes) {
		t.Errorf("default mode bits: %s", m)
	}
}

func uintString(u uint64) string {
	if u == 0 {
		return "0"
	}
	var b []byte
	for u > 0 {
		b = append([]byte{byte('0' + u%10)}, b...)
		u /= 10
	}
	return string(b)
}

// TestSetGlobalConflictRetry: a SET GLOBAL that meets write conflicts
// retries; one that keeps meeting them fails with the conflict.
func TestSetGlobalConflictRetry(t *testing.T) {
	ctx := context.Background()
	m := memkv.New()
	s := NewGlobalStore(testRegistry(), m.Begin)
	left := 3
	m.Conflict = func(string) bool { left--; return left >= 0 }
	if _, err := s.Set(ctx, "autocommit", "off"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Globals().Get("autocommit"); got != "OFF" {
		t.Fatalf("autocommit = %q after Set", got)
	}
	m.Conflict = func(string) bool { return true }
	if _, err := s.Set(ctx, "autocommit", "on"); !errors.Is(err, kv.ErrWriteConflict) {
		t.Fatalf("endless conflicts: %v", err)
	}
	if got, _ := s.Globals().Get("autocommit"); got != "OFF" {
		t.Fatalf("failed Set changed the value: %q", got)
	}
}

// TestRefreshLoop: each tick refreshes; the loop ends when ticks closes.
func TestRefreshLoop(t *testing.T) {
	ctx := context.Background()
	m := memkv.New()
	writer := NewGlobalStore(testRegistry(), m.Begin)
	reader := NewGlobalStore(testRegistry(), m.Begin)
	ticks := make(chan time.Time)
	done := make(chan struct{})
	go func() {
		reader.RefreshLoop(ctx, ticks, func(err error) { t.Error(err) })
		close(done)
	}()
	if _, err := writer.Set(ctx, "tidb_retry_limit", "3"); err != nil {
		t.Fatal(err)
	}
	ticks <- time.Time{}
	ticks <- time.Time{} // the first tick's refresh finished before this send returns
	close(ticks)
	<-done
	if got := NewVars(reader).RetryLimit(); got != 3 {
		t.Fatalf("retry limit = %d after refresh", got)
	}
}

func BenchmarkNewVarsAndRead(b *testing.B) {
	g, _ := NewGlobals(testRegistry(), nil)
	src := StaticGlobals(g)
	for b.Loop() {
		v := NewVars(src)
		if !v.Autocommit() {
			b.Fatal("autocommit")
		}
		if _, err := v.Get("sql_mode"); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSetNames(t *testing.T) {
	g, _ := NewGlobals(testRegistry(), nil)
	v := NewVars(StaticGlobals(g))
	get := func(n string) string { s, _ := v.Get(n); return s }
	if err := v.SetNames("latin1", ""); err != nil {
		t.Fatal(err)
	}
	if get("character_set_client") != "latin1" || get("character_set_results") != "latin1" || get("collation_connection") != "latin1_bin" {
		t.Fatalf("SET NAMES latin1: %v", v.ShowVariables("c%", ScopeSession))
	}
	if err := v.SetNames("UTF8MB4", "utf8mb4_general_ci"); err != nil || get("collation_connection") != "utf8mb4_general_ci" {
		t.Fatalf("SET NAMES utf8mb4 COLLATE: %v %s", err, get("collation_connection"))
	}
	if err := v.SetNames("utf8mb4", "latin1_bin"); !errors.Is(err, ErrWrongValueForVar) {
		t.Fatalf("mismatched collation: %v", err)
	}
	if err := v.SetNames("klingon", ""); !errors.Is(err, ErrWrongValueForVar) || get("character_set_client") != "utf8mb4" {
		t.Fatalf("unknown charset: %v", err)
	}
	if err := v.SetCharacterSet("latin1"); err != nil || get("character_set_client") != "latin1" || get("character_set_connection") != "utf8mb4" {
		t.Fatalf("SET CHARACTER SET: %v", err)
	}
	if err := v.SetNames("default", ""); err != nil || get("character_set_client") != "utf8mb4" {
		t.Fatalf("SET NAMES DEFAULT: %v", err)
	}
}

// TestHotAccessorsFollowValues: the typed accessors read the defaults of a
// fresh session, the GLOBAL values and the session's own SETs.
func TestHotAccessorsFollowValues(t *testing.T) {
	reg := testRegistry()
	g, _ := NewGlobals(reg, nil)
	v := NewVars(StaticGlobals(g))
	if !v.PreparedPlanCache() || !v.AsyncCommit() || !v.OnePC() || !v.GuaranteeLinearizability() {
		t.Errorf("defaults: plan cache %v, async commit %v, 1pc %v, linearizability %v",
			v.PreparedPlanCache(), v.AsyncCommit(), v.OnePC(), v.GuaranteeLinearizability())
	}
	g2, _ := NewGlobals(reg, map[string]string{"tidb_enable_prepared_plan_cache": "OFF"})
	if NewVars(StaticGlobals(g2)).PreparedPlanCache() {
		t.Error("GLOBAL tidb_enable_prepared_plan_cache=OFF not seen by a new session")
	}
	// A GLOBAL-only variable: an open session sees a later SET GLOBAL.
	src := &swapSource{g: g}
	open := NewVars(src)
	src.g = g2
	if open.PreparedPlanCache() {
		t.Error("an open session does not see GLOBAL tidb_enable_prepared_plan_cache=OFF")
	}
}

// swapSource is a GlobalSource whose snapshot a test replaces.
type swapSource struct{ g *Globals }

func (s *swapSource) Globals() *Globals { return s.g }
