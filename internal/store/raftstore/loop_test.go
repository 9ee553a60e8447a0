package raftstore

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"go.etcd.io/raft/v3/raftpb"

	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
)

// syncGate is a file system whose WAL syncs, once held, wait for a
// release each.
type syncGate struct {
	vfs.FS
	mu      sync.Mutex
	cond    *sync.Cond
	held    bool
	tokens  int // releases not yet used
	waiting int // syncs blocked now
	passed  int // syncs let through
}

func newSyncGate() *syncGate {
	g := &syncGate{FS: vfs.Default}
	g.cond = sync.NewCond(&g.mu)
	return g
}

func (g *syncGate) hold() {
	g.mu.Lock()
	g.held = true
	g.mu.Unlock()
}

// release lets one blocked (or the next) sync through.
func (g *syncGate) release() {
	g.mu.Lock()
	g.tokens++
	g.cond.Broadcast()
	g.mu.Unlock()
}

// open lets every sync through from now on.
func (g *syncGate) open() {
	g.mu.Lock()
	g.held = false
	g.cond.Broadcast()
	g.mu.Unlock()
}

// blocked reports how many syncs wait now and how many passed.
func (g *syncGate) blocked() (waiting, passed int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.waiting, g.passed
}

func (g *syncGate) pass() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.waiting++
	for g.held && g.tokens == 0 {
		g.cond.Wait()
	}
	if g.held {
		g.tokens--
	}
	g.waiting--
	g.passed++
}

func (g *syncGate) wrap(f vfs.File, name string, err error) (vfs.File, error) {
	if err != nil || !strings.HasSuffix(name, ".log") {
		return f, err
	}
	return &gatedFile{File: f, g: g}, nil
}

func (g *syncGate) Create(name string, c vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := g.FS.Create(name, c)
	return g.wrap(f, name, err)
}

func (g *syncGate) ReuseForWrite(old, name string, c vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := g.FS.ReuseForWrite(old, name, c)
	return g.wrap(f, name, err)
}

type gatedFile struct {
	vfs.File
	g *syncGate
}

func (f *gatedFile) Sync() error     { f.g.pass(); return f.File.Sync() }
func (f *gatedFile) SyncData() error { f.g.pass(); return f.File.SyncData() }
func (f *gatedFile) SyncTo(n int64) (bool, error) {
	f.g.pass()
	return f.File.SyncTo(n)
}

// The leader's raft loop does not wait for its raft-log writes: while the
// fsync of entry B is held, a new proposal C is replicated and
// acknowledged by both followers. B applies as soon as its own write is
// done, while C's write (held back here) is not; C applies only after it.
func TestRaftWritesDoNotBlockTheLoop(t *testing.T) {
	var mu sync.Mutex
	gates := map[uint64]*syncGate{}
	c := newTestClusterFS(t, 3, fastConfig(), func(id uint64) vfs.FS {
		mu.Lock()
		defer mu.Unlock()
		if gates[id] == nil {
			gates[id] = newSyncGate()
		}
		return gates[id]
	})
	ls := c.leader(1)
	if err := c.put(key(0), []byte("a")); err != nil {
		t.Fatal(err)
	}
	gate := gates[ls.id]
	t.Cleanup(gate.open) // before the stores stop (cleanups run last first)

	// Track the followers' acknowledgements of the leader's appends.
	var fmu sync.Mutex
	var lastApp uint64          // last entry index the leader sent
	acks := map[uint64]uint64{} // follower -> highest index acknowledged
	c.trans.SetFilter(func(from, to uint64, m *raftserverpb.RaftMessage) bool {
		fmu.Lock()
		defer fmu.Unlock()
		msg := m.GetMessage()
		switch {
		case from == ls.id && msg.GetType() == raftpb.MsgApp && len(msg.GetEntries()) > 0:
			lastApp = max(lastApp, msg.GetEntries()[len(msg.GetEntries())-1].GetIndex())
		case to == ls.id && msg.GetType() == raftpb.MsgAppResp && !msg.GetReject():
			acks[from] = max(acks[from], msg.GetIndex())
		}
		return true
	})
	// ackedAll waits until both followers acknowledged an append past
	// index from, and returns the index of that append.
	ackedAll := func(what string, from uint64) uint64 {
		var idx uint64
		c.waitFor(what, func() bool {
			fmu.Lock()
			defer fmu.Unlock()
			if lastApp <= from || len(acks) < 2 {
				return false
			}
			for _, a := range acks {
				if a < lastApp {
					return false
				}
			}
			idx = lastApp
			return true
		})
		return idx
	}
	fmu.Lock()
	start := lastApp
	fmu.Unlock()

	gate.hold()
	bDone := make(chan error, 1)
	go func() { bDone <- c.put(key(1), []byte("b")) }()
	// B's round waits in its fsync; both followers acknowledge B meanwhile.
	var passed int
	c.waitFor("B's raft write to block", func() bool {
		var w int
		w, passed = gate.blocked()
		return w == 1
	})
	bIdx := ackedAll("followers to acknowledge B", start)
	// C is proposed while B's write is still held: the loop replicates it
	// at once, and the followers acknowledge it.
	cDone := make(chan error, 1)
	go func() { cDone <- c.put(key(2), []byte("c")) }()
	ackedAll("followers to acknowledge C while B's write is held", bIdx)
	if w, n := gate.blocked(); w != 1 || n != passed {
		t.Fatalf("leader syncs: %d waiting, %d passed; want B's alone waiting (1, %d)", w, n, passed)
	}
	select {
	case <-bDone:
		t.Fatal("B applied before the leader's write of it completed")
	default:
	}
	gate.release() // B's write completes; the write of C blocks
	c.waitFor("C's raft write to block", func() bool {
		w, n := gate.blocked()
		return w == 1 && n == passed+1
	})
	select {
	case err := <-bDone:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("B was not applied while the next round's raft write was held")
	}
	select {
	case <-cDone:
		t.Fatal("C applied before its raft write completed")
	default:
	}
	gate.open()
	if err := <-cDone; err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"a", "b", "c"} {
		if v, err := c.get(key(i)); err != nil || string(v) != want {
			t.Fatalf("get %d = %q, %v; want %q", i, v, err, want)
		}
	}
}
