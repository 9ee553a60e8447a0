package pdnode

import (
	"context"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// stamp is one timestamp with the phase of the run it was asked in and
// returned in.
type stamp struct {
	ts             uint64
	asked, arrived int32 // phase: 0 before the kill, 1 after
}

// TestThreePDLeaderKill9: three PD processes; while clients ask for
// timestamps and ids without pause, the leader is killed with SIGKILL. A
// new leader serves within seconds (observed by polling, with a bound);
// every timestamp asked for after the kill is greater than every
// timestamp returned before it; per caller timestamps only go up; no id
// is handed out twice; the killed member rejoins as a follower.
func TestThreePDLeaderKill9(t *testing.T) {
	pd := startCluster(t, 3)
	c := newClient(t, pd.addrs())
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	leaderName := func() string {
		m, err := c.GetMembers(ctx)
		if err != nil {
			t.Fatalf("GetMembers: %v", err)
		}
		return m.GetLeader().GetName()
	}
	var old string
	start := time.Now()
	for old = leaderName(); old == ""; old = leaderName() {
		if time.Since(start) > 20*time.Second {
			t.Fatal("no PD leader named within 20s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	oldIdx := pd.indexOf(old)

	var (
		phase    atomic.Int32
		stop     atomic.Bool
		served   atomic.Int64 // timestamps returned after the kill
		mu       sync.Mutex
		perCall  [][]stamp
		ids      []uint64
		failures []error
	)
	const callers = 4
	perCall = make([][]stamp, callers)
	var wg sync.WaitGroup
	for w := 0; w < callers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for !stop.Load() {
				asked := phase.Load()
				ts, err := c.GetTS(ctx)
				arrived := phase.Load()
				var id uint64
				if err == nil && w == 0 {
					id, err = c.AllocID(ctx, 5)
				}
				mu.Lock()
				if err != nil {
					failures = append(failures, err)
				} else {
					perCall[w] = append(perCall[w], stamp{ts, asked, arrived})
					if id != 0 {
						for k := uint64(0); k < 5; k++ {
							ids = append(ids, id+k)
						}
					}
				}
				mu.Unlock()
				if err == nil && asked == 1 {
					served.Add(1)
				}
			}
		}(w)
	}
	total := func() int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, s := range perCall {
			n += len(s)
		}
		return n
	}
	waitFor := func(what string, limit time.Duration, cond func() bool) time.Duration {
		t.Helper()
		start := time.Now()
		for !cond() {
			if time.Since(start) > limit {
				t.Fatalf("%s: not within %v", what, limit)
			}
			time.Sleep(10 * time.Millisecond)
		}
		return time.Since(start)
	}
	waitFor("timestamps before the kill", 20*time.Second, func() bool { return total() >= 200 })

	phase.Store(1)
	pd.kill9(oldIdx)
	took := waitFor("timestamps from a new leader", 20*time.Second, func() bool { return served.Load() >= 200 })
	t.Logf("killed leader %s; timestamps served again after %v", old, took)

	if now := leaderName(); now == old || now == "" {
		t.Fatalf("leader after the kill: %q (was %q)", now, old)
	}
	// The killed member comes back as a follower and the clients go on.
	pd.restart(oldIdx)
	mark := served.Load()
	waitFor("timestamps after the rejoin", 20*time.Second, func() bool { return served.Load() >= mark+100 })
	stop.Store(true)
	wg.Wait()

	if len(failures) > 0 {
		t.Fatalf("%d calls failed instead of riding through the failover; first: %v", len(failures), failures[0])
	}
	var maxBefore, minAfter uint64
	minAfter = ^uint64(0)
	for w, s := range perCall {
		for i, st := range s {
			if i > 0 && st.ts <= s[i-1].ts {
				t.Fatalf("caller %d: timestamp %d after %d", w, st.ts, s[i-1].ts)
			}
			if st.arrived == 0 {
				maxBefore = max(maxBefore, st.ts)
			}
			if st.asked == 1 {
				minAfter = min(minAfter, st.ts)
			}
		}
	}
	if minAfter <= maxBefore {
		t.Fatalf("a timestamp asked for after the kill (%d) is not above one returned before it (%d)", minAfter, maxBefore)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for i := 1; i < len(ids); i++ {
		if ids[i] == ids[i-1] {
			t.Fatalf("id %d handed out twice", ids[i])
		}
	}
	if len(ids) == 0 {
		t.Fatal("no ids allocated")
	}

	// The restarted member answers as a follower and names the leader.
	rc := newClient(t, []string{pd.members[oldIdx].clientURL})
	m, err := rc.GetMembers(ctx)
	if err != nil || m.GetLeader().GetName() == "" || len(m.GetMembers()) != 3 {
		t.Fatalf("GetMembers through the restarted member: %v %v", m, err)
	}
}
