package cluster

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestStateFileRoundTrip(t *testing.T) {
	root := t.TempDir()
	want := State{
		Tag: "a", PID: os.Getpid(), Started: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Dir: filepath.Join(root, "a"), Keep: true,
		Processes: []ProcessState{{Name: "pd-0", Role: RolePD, PID: 42, Addr: "127.0.0.1:2379", StatusAddr: "127.0.0.1:2379",
			DataDir: "/x/pd-0/data", LogFile: "/x/pd-0/pd.log"}},
	}
	for _, tag := range []string{"b", "a"} {
		if err := os.MkdirAll(filepath.Join(root, tag), 0o755); err != nil {
			t.Fatal(err)
		}
		s := want
		s.Tag, s.Dir = tag, filepath.Join(root, tag)
		if err := WriteState(s.Dir, s); err != nil {
			t.Fatal(err)
		}
	}
	// A folder without a state file and a stray file are skipped.
	if err := os.MkdirAll(filepath.Join(root, "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "stray"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadStates(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Tag != "a" || got[1].Tag != "b" {
		t.Fatalf("ReadStates: %+v", got)
	}
	if !reflect.DeepEqual(got[0], want) {
		t.Fatalf("state a:\n%+v\nwant\n%+v", got[0], want)
	}
	if !got[0].Running() {
		t.Fatal("a state with this process's pid is not Running")
	}
	if _, err := ReadState(filepath.Join(root, "c")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("ReadState of a folder without state: %v", err)
	}
	if states, err := ReadStates(filepath.Join(root, "missing")); err != nil || len(states) != 0 {
		t.Fatalf("ReadStates of a missing root: %v, %v", states, err)
	}
}

func TestPIDAlive(t *testing.T) {
	if !PIDAlive(os.Getpid()) {
		t.Fatal("own pid not alive")
	}
	if PIDAlive(0) || PIDAlive(-1) {
		t.Fatal("pid 0 or -1 alive")
	}
}

func TestWriteTable(t *testing.T) {
	var b strings.Builder
	procs := []ProcessState{{Name: "kv-0", Role: RoleKV, PID: os.Getpid(), Addr: "127.0.0.1:20160", StatusAddr: "127.0.0.1:20180",
		DataDir: "/x/kv-0/data", LogFile: "/x/kv-0/kv.log"}}
	if err := WriteTable(&b, procs, true); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "NAME") || !strings.Contains(lines[0], "STATE") {
		t.Fatalf("table:\n%s", b.String())
	}
	for _, f := range []string{"kv-0", "kv", "127.0.0.1:20160", "127.0.0.1:20180", strconv.Itoa(os.Getpid()), "up", "/x/kv-0/data", "/x/kv-0/kv.log"} {
		if !strings.Contains(lines[1], f) {
			t.Fatalf("row %q lacks %q", lines[1], f)
		}
	}
}
