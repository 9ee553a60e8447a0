package cluster

import (
	"bufio"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto"
)

// localSocketEnds counts the unix sockets bound to the local socket of
// the gRPC server at addr, from /proc/net/unix: the listener, and one per
// connection it accepted.
func localSocketEnds(t *testing.T, addr string) (listening, connected int) {
	t.Helper()
	f, err := os.Open("/proc/net/unix")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := kvproto.LocalSocketName(addr)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// Num RefCount Protocol Flags Type St Inode Path
		fs := strings.Fields(sc.Text())
		if len(fs) < 8 || fs[7] != name {
			continue
		}
		switch fs[5] {
		case "01": // SS_UNCONNECTED: the listener
			listening++
		case "03": // SS_CONNECTED
			connected++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return listening, connected
}

// checkRows waits for replicas voters in every region (with 3, each store
// has had raft messages from another), then writes rows through SQL and
// reads them back.
func checkRows(t *testing.T, c *cluster, replicas int) {
	t.Helper()
	c.waitReplicated(replicas, 60*time.Second)
	db := c.db(0)
	mustExec(t, db, "CREATE DATABASE d")
	mustExec(t, db, "CREATE TABLE d.t (id INT PRIMARY KEY, v INT)")
	for i := range 20 {
		mustExec(t, db, "INSERT INTO d.t VALUES (?, ?)", i, i*i)
	}
	var n, sum int
	if err := db.QueryRow("SELECT COUNT(*), SUM(v) FROM d.t").Scan(&n, &sum); err != nil {
		t.Fatal(err)
	}
	if n != 20 || sum != 2470 {
		t.Fatalf("read back %d rows summing to %d, want 20 and 2470", n, sum)
	}
}

// Every KV node serves gRPC on its local socket too, and the other
// processes of the machine (the other stores' raft transports, the SQL
// server) reach it there; server.local-socket = false leaves TCP alone,
// and the cluster works either way.
func TestLocalSockets(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("abstract unix sockets are Linux's")
	}
	t.Run("default", func(t *testing.T) {
		c := startCluster(t, clusterOpts{kv: 3, sql: 1})
		checkRows(t, c, 3)
		for _, n := range c.kvs {
			l, conns := localSocketEnds(t, n.addr)
			if l != 1 || conns == 0 {
				t.Errorf("store %s at %s: %d listeners and %d connections on its local socket, want 1 and some", n.storeID, n.addr, l, conns)
			}
		}
	})
	t.Run("sql", func(t *testing.T) {
		// One store: no raft peers dial it, so its connections are the
		// SQL server's.
		c := startCluster(t, clusterOpts{kv: 1, sql: 1})
		checkRows(t, c, 1)
		if l, conns := localSocketEnds(t, c.kvs[0].addr); l != 1 || conns == 0 {
			t.Errorf("the only store: %d listeners and %d connections on its local socket, want 1 and some", l, conns)
		}
	})
	t.Run("off", func(t *testing.T) {
		c := startCluster(t, clusterOpts{kv: 3, sql: 1, topConfig: "[server]\nlocal-socket = false\n"})
		checkRows(t, c, 3)
		for _, n := range c.kvs {
			if l, conns := localSocketEnds(t, n.addr); l+conns != 0 {
				t.Errorf("store %s at %s with local-socket = false: %d listeners, %d connections on its local socket", n.storeID, n.addr, l, conns)
			}
		}
	})
}
