package cluster

import (
	"context"
	"testing"
	"time"
)

// (a) kill -9 of one KV node under a bank workload: the cluster keeps
// serving; the node restarts and catches up (proved by then losing
// another node: the restarted one must be part of the new quorum).
func TestKillKVNode(t *testing.T) {
	skipUntilReplicated(t)
	c := startCluster(t, clusterOpts{kv: 3, sql: 1})
	db := c.db(0)
	b := newBank(t, db, 20, 1000)
	c.waitReplicated(3, 60*time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wg := b.run(ctx, 4)
	b.progress(c, 50, "before the fault")
	victim := c.kvs[1]
	victim.proc.Kill()
	b.progress(c, 100, "with a node killed")
	c.startKV(victim)
	b.progress(c, 100, "after the restart")
	cancel()
	wg.Wait()
	b.check()
	c.kvs[2].proc.Kill()
	b.check()
}

// (d) one KV node cut off from the others (both ways) for a while under
// a bank workload, then healed: the majority goes on, the isolated node
// commits nothing on its own, and after healing it rejoins.
func TestPartitionKVNode(t *testing.T) {
	skipUntilReplicated(t)
	c := startCluster(t, clusterOpts{kv: 3, sql: 1})
	db := c.db(0)
	b := newBank(t, db, 20, 1000)
	c.waitReplicated(3, 60*time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wg := b.run(ctx, 4)
	b.progress(c, 50, "before the partition")
	cut := c.kvs[0]
	c.isolate(cut, true)
	b.progress(c, 100, "while a node is cut off")
	c.isolate(cut, false)
	b.progress(c, 100, "after healing")
	cancel()
	wg.Wait()
	b.check()
	// The healed node caught up: it forms a quorum with one other.
	c.kvs[1].proc.Kill()
	b.check()
}
