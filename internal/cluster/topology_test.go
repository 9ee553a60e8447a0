package cluster

import (
	"errors"
	"net"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

func TestPlanPorts(t *testing.T) {
	insts, err := Plan(Topology{PD: 3, KV: 3, SQL: 2, PortOffset: 100}, "/d/x")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range insts {
		s := in.Name() + " " + in.Addr()
		for _, p := range in.Ports()[1:] {
			s += " " + p.Use + "=" + strconv.Itoa(p.Port)
		}
		got = append(got, s)
	}
	want := []string{
		"pd-0 127.0.0.1:2479 pd-0 peer=2480",
		"pd-1 127.0.0.1:2481 pd-1 peer=2482",
		"pd-2 127.0.0.1:2483 pd-2 peer=2484",
		"kv-0 127.0.0.1:20260 kv-0 status=20280",
		"kv-1 127.0.0.1:20261 kv-1 status=20281",
		"kv-2 127.0.0.1:20262 kv-2 status=20282",
		"sql-0 127.0.0.1:4100 sql-0 status=10180",
		"sql-1 127.0.0.1:4101 sql-1 status=10181",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("plan:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	kv1 := insts[4]
	if kv1.Dir != filepath.Join("/d/x", "kv-1") || kv1.DataDir() != "/d/x/kv-1/data" || kv1.LogFile() != "/d/x/kv-1/kv.log" {
		t.Fatalf("kv-1 paths: %s %s %s", kv1.Dir, kv1.DataDir(), kv1.LogFile())
	}
	if insts[0].StatusAddr() != insts[0].Addr() {
		t.Fatalf("PD serves status on its client address, got %s", insts[0].StatusAddr())
	}
	// No two instances share a port.
	seen := map[int]string{}
	for _, in := range insts {
		for _, p := range in.Ports() {
			if prev, dup := seen[p.Port]; dup {
				t.Fatalf("port %d used by %s and %s", p.Port, prev, p.Use)
			}
			seen[p.Port] = p.Use
		}
	}
}

func TestPlanDefaultsAndLimits(t *testing.T) {
	insts, err := Plan(Topology{PD: 1, KV: MaxKV, SQL: 1}, "/d")
	if err != nil {
		t.Fatal(err)
	}
	if insts[0].Port != 2379 || insts[0].PeerPort != 2380 || insts[1].Port != 20160 || insts[1].StatusPort != 20180 ||
		insts[len(insts)-1].Port != 4000 || insts[len(insts)-1].StatusPort != 10080 {
		t.Fatalf("default ports: %+v", insts)
	}
	for _, bad := range []Topology{
		{PD: 0, KV: 1}, {PD: 1, KV: 0}, {PD: 1, KV: MaxKV + 1}, {PD: 1, KV: 1, SQL: -1},
		{PD: 1, KV: 1, PortOffset: 60000}, {PD: 1, KV: 1, PortOffset: -2379},
	} {
		if _, err := Plan(bad, "/d"); !errors.Is(err, ErrBadTopology) {
			t.Errorf("Plan(%+v) = %v, want ErrBadTopology", bad, err)
		}
	}
}

func TestArgs(t *testing.T) {
	insts, err := Plan(Topology{PD: 2, KV: 1, SQL: 1}, "/d")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, in := range insts {
		got[in.Name()] = strings.Join(Args(in, insts, "/c.toml"), " ")
	}
	want := map[string]string{
		"pd-0": "pd --name pd-0 --data-dir /d/pd-0/data --client-urls http://127.0.0.1:2379 --peer-urls http://127.0.0.1:2380 " +
			"--initial-cluster pd-0=http://127.0.0.1:2380,pd-1=http://127.0.0.1:2382 --config /c.toml",
		"pd-1": "pd --name pd-1 --data-dir /d/pd-1/data --client-urls http://127.0.0.1:2381 --peer-urls http://127.0.0.1:2382 " +
			"--initial-cluster pd-0=http://127.0.0.1:2380,pd-1=http://127.0.0.1:2382 --config /c.toml",
		"kv-0":  "kv --pd 127.0.0.1:2379,127.0.0.1:2381 --addr 127.0.0.1:20160 --status-addr 127.0.0.1:20180 --data-dir /d/kv-0/data --stop-timeout 3s --config /c.toml",
		"sql-0": "sql --pd 127.0.0.1:2379,127.0.0.1:2381 --host 127.0.0.1 --port 4000 --status-port 10080 --data-dir /d/sql-0/data --config /c.toml",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("args:\n%q\nwant:\n%q", got, want)
	}
}

func TestCheckPortsNamesTakenPorts(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	// An offset that puts kv-0's status port on the taken one.
	insts, err := Plan(Topology{PD: 1, KV: 1, PortOffset: port - DefaultKVStatusPort}, t.TempDir())
	if err != nil {
		t.Skipf("port %d cannot be planned onto: %v", port, err)
	}
	err = CheckPorts(insts)
	var taken *PortsTakenError
	if !errors.As(err, &taken) || len(taken.Taken) == 0 {
		t.Fatalf("CheckPorts = %v, want a PortsTakenError", err)
	}
	found := false
	for _, p := range taken.Taken {
		found = found || (p.Port == port && p.Use == "kv-0 status")
	}
	if !found || !strings.Contains(err.Error(), strconv.Itoa(port)+" (kv-0 status)") {
		t.Fatalf("error %q does not name port %d (kv-0 status)", err, port)
	}
}
