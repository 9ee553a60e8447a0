package config

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/cockroachdb/datadriven"
)

// flatten renders c as dotted key → value lines.
func flatten(t *testing.T, c *Config) map[string]string {
	t.Helper()
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(c); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if _, err := toml.Decode(buf.String(), &m); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			if sub, ok := v.(map[string]any); ok {
				walk(prefix+k+".", sub)
				continue
			}
			out[prefix+k] = fmt.Sprintf("%v", v)
		}
	}
	walk("", m)
	return out
}

// diff lists the keys of c that differ from the defaults.
func diff(t *testing.T, c *Config) string {
	def, got := flatten(t, Default()), flatten(t, c)
	var lines []string
	for k, v := range got {
		if def[k] != v {
			lines = append(lines, fmt.Sprintf("%s = %s", k, v))
		}
	}
	for k := range def {
		if _, ok := got[k]; !ok {
			lines = append(lines, fmt.Sprintf("%s removed", k))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func TestDataDriven(t *testing.T) {
	// Scripts are the files directly in testdata (testdata/fuzz would hold
	// the fuzzer's corpus).
	paths, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range paths {
		if st, err := os.Stat(path); err != nil || st.IsDir() {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
				var b strings.Builder
				switch d.Cmd {
				case "parse":
					// parse: the TOML input; prints warnings, then the keys that
					// differ from the defaults, or the error.
					cfg, warns, err := Parse(d.Input)
					for _, w := range warns {
						fmt.Fprintf(&b, "warning: %s\n", w)
					}
					if err != nil {
						fmt.Fprintf(&b, "error: %v\n", err)
						return b.String()
					}
					fmt.Fprintf(&b, "%s\n", diff(t, cfg))
					return b.String()
				}
				t.Fatalf("unknown command %q", d.Cmd)
				return ""
			})
		})
	}
}

func TestDefaults(t *testing.T) {
	c := Default()
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"prepared-plan-cache.enabled", c.PreparedPlanCache.Enabled, true},
		{"performance.txn-total-size-limit", c.Performance.TxnTotalSizeLimit, 100 * MiB},
		{"txn-local-latches.enabled", c.TxnLocalLatches.Enabled, false},
		{"tikv-client.grpc-connection-count", c.TiKVClient.GrpcConnectionCount, uint(4)},
		{"tikv-client.max-batch-wait-time", c.TiKVClient.MaxBatchWaitTime, Duration(0)},
		{"raftstore.sync-log", c.Raftstore.SyncLog, true},
		{"raftstore.store-pool-size", c.Raftstore.StorePoolSize, uint(2)},
		{"raftstore.apply-pool-size", c.Raftstore.ApplyPoolSize, uint(2)},
		{"raftstore.raft-max-inflight-msgs", c.Raftstore.RaftMaxInflightMsgs, 256},
		{"pessimistic-txn.pipelined", c.PessimisticTxn.Pipelined, true},
		{"status.status-port", c.Status.StatusPort, 10080},
		{"status.report-status", c.Status.ReportStatus, true},
		{"port", c.Port, 4000},
		{"host", c.Host, "0.0.0.0"},
		{"log.level", c.Log.Level, "info"},
		{"server.grpc-concurrency", c.Server.GrpcConcurrency, uint(5)},
		{"rocksdb.max-background-jobs", c.RocksDB.MaxBackgroundJobs, 8},
	}
	for _, ck := range checks {
		if ck.got != ck.want {
			t.Errorf("%s = %v, want %v", ck.name, ck.got, ck.want)
		}
	}
	// Defaults survive an empty file, and a file of its own encoding.
	c2, warns, err := Parse("")
	if err != nil || len(warns) > 0 || diff(t, c2) != "" {
		t.Fatalf("empty file: %v %v %q", warns, err, diff(t, c2))
	}
	var buf bytes.Buffer
	if err := toml.NewEncoder(&buf).Encode(Default()); err != nil {
		t.Fatal(err)
	}
	c3, warns, err := Parse(buf.String())
	if err != nil || len(warns) > 0 || diff(t, c3) != "" {
		t.Fatalf("round trip: %v %v %q", warns, err, diff(t, c3))
	}
}

func TestLoadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "strata.toml")
	if err := os.WriteFile(p, []byte("[log]\nlevel = \"error\"\n[raftstore]\nstore-pool-size = 4\nbogus = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, warns, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.Log.Level != "error" || c.Raftstore.StorePoolSize != 4 || len(warns) != 1 {
		t.Fatalf("got %+v %v", c.Log, warns)
	}
	if _, _, err := Load(filepath.Join(dir, "missing.toml")); err == nil {
		t.Fatal("missing file loaded")
	}
	if err := os.WriteFile(p, []byte("[log\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(p); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "line ") {
		t.Fatalf("malformed: %v", err)
	}
}

// TestApply: a topology's server_configs, as YAML decodes them.
func TestApply(t *testing.T) {
	c := Default()
	warns, err := c.Apply(map[string]any{
		"log.level":                         "error",
		"prepared-plan-cache.enabled":       false,
		"raftstore":                         map[string]any{"sync-log": false, "apply-pool-size": 3},
		"tikv-client":                       map[string]any{"async-commit.keys-limit": 64, "max-batch-wait-time": "2ms"},
		"server.labels":                     map[string]any{"zone": "z1", "host.name": "h1"},
		"storage.block-cache.capacity":      "4GB",
		"raftdb.max-background-jobs":        2,
		"coprocessor.split-region-on-table": true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "coprocessor.split-region-on-table") {
		t.Fatalf("warnings %v", warns)
	}
	if c.Log.Level != "error" || c.PreparedPlanCache.Enabled || c.Raftstore.SyncLog || c.Raftstore.ApplyPoolSize != 3 ||
		c.TiKVClient.AsyncCommit.KeysLimit != 64 || c.TiKVClient.MaxBatchWaitTime.D() != 2*time.Millisecond ||
		c.Server.Labels["zone"] != "z1" || c.Server.Labels["host.name"] != "h1" || c.Storage.BlockCache.Capacity != 4*GiB ||
		c.RaftDB.MaxBackgroundJobs != 2 {
		t.Fatalf("applied: %s", diff(t, c))
	}
	if _, err := c.Apply(map[string]any{"raftstore.sync-log": "yes"}); err == nil || !strings.Contains(err.Error(), "raftstore.sync-log") {
		t.Fatalf("wrong type: %v", err)
	}
	if _, err := c.Apply(map[string]any{"log.level": "loud"}); err == nil || !strings.Contains(err.Error(), "log.level") {
		t.Fatalf("invalid value: %v", err)
	}
}

func TestUnits(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ByteSize
		ok   bool
	}{
		{"100", 100, true}, {"1KB", KiB, true}, {"1K", KiB, true}, {"512MiB", 512 * MiB, true},
		{"4GB", 4 * GiB, true}, {"1.5G", 3 * GiB / 2, true}, {"2 TiB", 2 * TiB, true}, {"1gb", GiB, true},
		{"", 0, false}, {"GB", 0, false}, {"4XB", 0, false}, {"-1", 0, false}, {"1e3", 0, false},
	} {
		var b ByteSize
		err := b.UnmarshalText([]byte(tc.in))
		if (err == nil) != tc.ok || (tc.ok && b != tc.want) {
			t.Errorf("ByteSize(%q) = %v, %v; want %v ok=%v", tc.in, b, err, tc.want, tc.ok)
		}
	}
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"10ms", 10 * time.Millisecond, true}, {"1h30m", 90 * time.Minute, true}, {"1000", 1000, true},
		{"7d", 7 * 24 * time.Hour, true}, {"1d12h", 36 * time.Hour, true}, {"soon", 0, false}, {"xd", 0, false},
	} {
		var d Duration
		err := d.UnmarshalText([]byte(tc.in))
		if (err == nil) != tc.ok || (tc.ok && d.D() != tc.want) {
			t.Errorf("Duration(%q) = %v, %v; want %v ok=%v", tc.in, d, err, tc.want, tc.ok)
		}
	}
	if s := (96 * MiB).String(); s != "96MiB" {
		t.Errorf("96MiB prints as %s", s)
	}
}

// Unset region thresholds derive as TiKV v8.4+ derives them.
func TestRegionSizes(t *testing.T) {
	for _, c := range []struct {
		name               string
		in                 Coprocessor
		maxSize, splitSize ByteSize
		maxKeys, splitKeys uint64
	}{
		{"defaults", Coprocessor{}, 384 * MiB, 256 * MiB, 3_840_000, 2_560_000},
		{"split size only", Coprocessor{RegionSplitSize: 96 * MiB}, 144 * MiB, 96 * MiB, 1_440_000, 960_000},
		{"tiny split size", Coprocessor{RegionSplitSize: 64 * KiB}, 96 * KiB, 64 * KiB, 936, 625},
		{"all set", Coprocessor{RegionMaxSize: 10 * MiB, RegionSplitSize: 5 * MiB, RegionMaxKeys: 7, RegionSplitKeys: 3},
			10 * MiB, 5 * MiB, 7, 3},
	} {
		maxSize, splitSize, maxKeys, splitKeys := c.in.RegionSizes()
		if maxSize != c.maxSize || splitSize != c.splitSize || maxKeys != c.maxKeys || splitKeys != c.splitKeys {
			t.Errorf("%s: got %v/%v %d/%d, want %v/%v %d/%d", c.name, maxSize, splitSize, maxKeys, splitKeys,
				c.maxSize, c.splitSize, c.maxKeys, c.splitKeys)
		}
	}
}
