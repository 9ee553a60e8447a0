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

// An entry the followers acknowledged while the leader's loop was writing
// applies before the next round's raft write: a new proposal's fsync
// (held back here) is not on the acknowledged entry's path.
func TestCommitDoesNotWaitForNextWrite(t *testing.T) {
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
	p := ls.s.peer(1)

	// Count the followers' acknowledgements of the leader's next append.
	var fmu sync.Mutex
	var appIndex uint64
	acked := map[uint64]bool{}
	c.trans.SetFilter(func(from, to uint64, m *raftserverpb.RaftMessage) bool {
		fmu.Lock()
		defer fmu.Unlock()
		msg := m.GetMessage()
		switch {
		case from == ls.id && msg.GetType() == raftpb.MsgApp && len(msg.GetEntries()) > 0 && appIndex == 0:
			appIndex = msg.GetEntries()[len(msg.GetEntries())-1].GetIndex()
		case to == ls.id && msg.GetType() == raftpb.MsgAppResp && !msg.GetReject() && appIndex > 0 && msg.GetIndex() >= appIndex:
			acked[from] = true
		}
		return true
	})

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
	c.waitFor("followers to acknowledge B", func() bool {
		fmu.Lock()
		defer fmu.Unlock()
		return len(acked) == 2
	})
	// C is proposed while B's write is held: the next round takes B's
	// acknowledgements and C's proposal together.
	cDone := make(chan error, 1)
	go func() { cDone <- c.put(key(2), []byte("c")) }()
	c.waitFor("C in the leader's mailbox", func() bool {
		p.mbox.mu.Lock()
		defer p.mbox.mu.Unlock()
		for _, it := range p.mbox.items {
			if _, ok := it.(*proposal); ok {
				return true
			}
		}
		return false
	})
	gate.release() // B's write completes; the round of C's write blocks
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
