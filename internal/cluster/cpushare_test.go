package cluster

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestCPUShare(t *testing.T) {
	for _, tc := range []struct{ cpus, procs, want int }{
		{2, 4, 1}, {16, 4, 4}, {16, 5, 3}, {1, 1, 1}, {8, 0, 8}, {0, 3, 1},
	} {
		if got := cpuShare(tc.cpus, tc.procs); got != tc.want {
			t.Errorf("cpuShare(%d, %d) = %d, want %d", tc.cpus, tc.procs, got, tc.want)
		}
	}
}

// The playground's children get a share of the CPUs unless the user
// chose GOMAXPROCS, which they then inherit unchanged.
func TestChildEnv(t *testing.T) {
	topo := Topology{PD: 1, KV: 3, SQL: 1}
	t.Setenv("GOMAXPROCS", "7")
	if env, why := ChildEnv(topo); env != nil || !strings.Contains(why, "GOMAXPROCS=7 from the environment") {
		t.Fatalf("with GOMAXPROCS set: %v, %q", env, why)
	}
	os.Unsetenv("GOMAXPROCS") // t.Setenv restores it after the test
	want := fmt.Sprintf("GOMAXPROCS=%d", cpuShare(runtime.NumCPU(), 4))
	if env, _ := ChildEnv(topo); len(env) != 1 || env[0] != want {
		t.Fatalf("ChildEnv = %v, want [%s]", env, want)
	}
}

// StartProcess adds env to the child's environment.
func TestProcessEnv(t *testing.T) {
	in := shInstance(t)
	p, err := StartProcess("/bin/sh", in, []string{"-c", `echo "strata kv serving on 127.0.0.1:1 (store $STORE_FROM_ENV)"; exec sleep 60`}, []string{"STORE_FROM_ENV=42"})
	if err != nil {
		t.Fatal(err)
	}
	defer stopProcesses([]*Process{p}, 5*time.Second, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	m, err := p.WaitReady(ctx, KVReadyRE)
	if err != nil || m[2] != "42" {
		t.Fatalf("ready line %v, %v; want store 42 from the environment", m, err)
	}
}
