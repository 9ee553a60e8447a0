package cluster

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// (a) kill -9 of one KV node under a bank workload: the cluster keeps
// serving; the node restarts and catches up (proved by then losing
// another node: the restarted one must be part of the new quorum).
func TestKillKVNode(t *testing.T) {
	c, b, _, stop := bankUnderLoad(t, clusterOpts{kv: 3, sql: 1})
	b.progress(c, 50, "before the fault")
	victim := c.kvs[1]
	victim.proc.Kill()
	b.progress(c, 100, "with a node killed")
	c.startKV(victim)
	b.progress(c, 100, "after the restart")
	stop()
	b.check()
	c.kvs[2].proc.Kill()
	b.check()
}

// (d) one KV node cut off from the others (both ways) for a while under
// a bank workload, then healed: the majority goes on, the isolated node
// commits nothing on its own, and after healing it rejoins.
func TestPartitionKVNode(t *testing.T) {
	c, b, _, stop := bankUnderLoad(t, clusterOpts{kv: 3, sql: 1})
	b.progress(c, 50, "before the partition")
	cut := c.kvs[0]
	c.isolate(cut, true)
	b.progress(c, 100, "while a node is cut off")
	c.isolate(cut, false)
	b.progress(c, 100, "after healing")
	stop()
	b.check()
	// The healed node caught up: it forms a quorum with one other.
	c.kvs[1].proc.Kill()
	b.check()
}

// (b) one KV node gone for good: after max-store-down-time PD puts its
// replicas on a fourth store, and the cluster holds 3 replicas again.
func TestStoreDownReplaced(t *testing.T) {
	c, b, _, stop := bankUnderLoad(t, clusterOpts{kv: 3, sql: 1, maxStoreDownTime: "3s"})
	b.progress(c, 50, "before the fault")
	gone := c.kvs[0]
	gone.proc.Kill()
	c.addKV()
	b.progress(c, 100, "with a node gone")
	pc := c.pdClient()
	c.waitFor("3 replicas on live stores", 90*time.Second, func() (bool, string) {
		rs, err := scanRegions(pc)
		if err != nil {
			return false, err.Error()
		}
		for _, r := range rs {
			voters := 0
			for _, p := range r.GetRegion().GetPeers() {
				if fmt.Sprint(p.GetStoreId()) == gone.storeID {
					return false, fmt.Sprintf("region %d still has a peer on store %s", r.GetRegion().GetId(), gone.storeID)
				}
				if p.GetRole() == kvrpcpb.PeerRole_Voter {
					voters++
				}
			}
			if voters != 3 {
				return false, fmt.Sprintf("region %d has %d voters", r.GetRegion().GetId(), voters)
			}
		}
		return true, ""
	})
	b.progress(c, 50, "after the repair")
	stop()
	b.check()
}

// (c) the PD leader of three is killed under a bank workload: another is
// elected, service resumes, and timestamps never go back.
func TestPDLeaderKilled(t *testing.T) {
	c, b, ctx, stop := bankUnderLoad(t, clusterOpts{pd: 3, kv: 3, sql: 1})
	pc := c.pdClient()
	// A TSO watcher: every timestamp above the one before.
	tsoErr := make(chan error, 1)
	var tsoCount atomic.Int64
	go func() {
		var last uint64
		for ctx.Err() == nil {
			tctx, tcancel := context.WithTimeout(ctx, 10*time.Second)
			ts, err := pc.GetTS(tctx)
			tcancel()
			if err != nil {
				continue
			}
			if ts <= last {
				tsoErr <- fmt.Errorf("timestamp %d after %d", ts, last)
				return
			}
			last = ts
			tsoCount.Add(1)
		}
		tsoErr <- nil
	}()
	b.progress(c, 50, "before the fault")
	leader := c.pdLeader(pc)
	leader.proc.Kill()
	b.progress(c, 100, "after the PD leader was killed")
	if nl := c.pdLeader(pc); nl == leader {
		t.Fatal("the killed member is still named leader")
	}
	stop()
	if err := <-tsoErr; err != nil {
		t.Fatal(err)
	}
	t.Logf("TSO watcher saw %d increasing timestamps", tsoCount.Load())
	b.check()
}
