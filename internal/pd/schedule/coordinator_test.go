package schedule

import (
	"errors"
	"fmt"
	"math/rand"
	"sync/atomic"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
)

// TestCoordinatorSend: with a Send function, an operator made by a tick
// sends its first step to the leader's store at once.
func TestCoordinatorSend(t *testing.T) {
	type sent struct {
		store uint64
		resp  *pdpb.RegionHeartbeatResponse
	}
	var got []sent
	s := newSim(t, 3, func(o *Options) {
		o.Send = func(store uint64, resp *pdpb.RegionHeartbeatResponse) error {
			got = append(got, sent{store, resp})
			return errors.New("stream gone") // logged, not fatal
		}
	})
	s.addRegion(1, "", "", []uint64{2}, 2)
	s.coord.Tick()
	if len(got) != 1 || got[0].store != 2 || got[0].resp.GetChangePeer().GetChangeType() != pdpb.ConfChangeType_AddLearnerNode {
		t.Fatalf("sent %v", got)
	}
	// The heartbeat answers the same step again (it was not applied).
	if resp := s.heartbeat(1); resp.GetChangePeer().GetPeer().GetId() != got[0].resp.GetChangePeer().GetPeer().GetId() {
		t.Fatalf("heartbeat answered %v", resp)
	}
}

// TestCoordinatorWarmUp: after a PD leader change the balance schedulers
// wait until every region reported a leader, or WarmUp passed.
func TestCoordinatorWarmUp(t *testing.T) {
	s := newSim(t, 3, func(o *Options) { o.WarmUp = time.Minute })
	for i := uint64(1); i <= 4; i++ {
		s.addRegion(i, fmt.Sprint(i), fmt.Sprint(i+1), []uint64{1, 2, 3}, 1)
	}
	// Region 9 is known from storage only: no leader yet.
	if _, err := s.cluster.PutRegion(&meta.RegionInfo{Meta: &kvrpcpb.Region{Id: 9, StartKey: []byte("9"),
		RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 1},
		Peers:       []*kvrpcpb.Peer{{Id: 901, StoreId: 1}, {Id: 902, StoreId: 2}, {Id: 903, StoreId: 3}}}}); err != nil {
		t.Fatal(err)
	}
	s.advance(59 * time.Second)
	s.coord.Tick()
	if ops := s.coord.Controller().Operators(); len(ops) != 0 {
		t.Fatalf("balanced during warm-up: %+v", ops)
	}
	s.advance(2 * time.Second)
	s.coord.Tick()
	if ops := s.coord.Controller().Operators(); len(ops) == 0 {
		t.Fatal("no balancing after warm-up")
	}
}

// TestCoordinatorNewLeaderWaits: a store whose last heartbeat (from
// storage) is older than max-store-down-time is not down for a new
// Coordinator until that long after its start.
func TestCoordinatorNewLeaderWaits(t *testing.T) {
	s := newSim(t, 4, nil)
	s.addRegion(1, "", "", []uint64{1, 2, 3}, 1)
	s.stopped[3] = true
	s.advance(time.Hour)
	opts := s.coord.opts // a new leader, starting now
	opts.Since = time.Time{}
	s.coord = NewCoordinator(s.cluster, opts)
	// Heard from "at" the new leader's start: up for DisconnectDuration.
	if st := s.coord.StoreState(3); st != StoreUp {
		t.Fatalf("store 3 is %v", st)
	}
	s.advance(DefaultDisconnectDuration + time.Second)
	if st := s.coord.StoreState(3); st != StoreDisconnected {
		t.Fatalf("store 3 is %v", st)
	}
	s.run(10)
	if got := s.stores(1); got != "1*,2,3" {
		t.Fatalf("region 1 on %s before max-store-down-time", got)
	}
	s.advance(30 * time.Minute)
	s.run(20)
	if got := s.stores(1); got != "1*,2,4" {
		t.Fatalf("region 1 on %s after max-store-down-time", got)
	}
	s.checkViolations()
}

// TestCoordinatorAllocIDError: without peer ids nothing is scheduled and
// nothing breaks; the next tick retries.
func TestCoordinatorAllocIDError(t *testing.T) {
	fail := true
	var s *sim
	s = newSim(t, 3, func(o *Options) {
		o.AllocID = func() (uint64, error) {
			if fail {
				return 0, errors.New("etcd unavailable")
			}
			s.nextID++
			return s.nextID, nil
		}
	})
	s.addRegion(1, "", "", []uint64{1}, 1)
	s.coord.Tick()
	if s.heartbeat(1) != nil || s.coord.Controller().HasOperator(1) {
		t.Fatal("scheduled without an id")
	}
	fail = false
	s.run(20)
	if got := s.stores(1); got != "1*,2,3" {
		t.Fatalf("region 1 on %s", got)
	}
}

// TestSimRandom runs random clusters to a fixed point and checks the
// result: every region has max-replicas voters on distinct running
// stores, no learners, and region counts within tolerance (leader counts
// within 2).
// The simulator checks the invariants (add before remove, no leader
// removal, healthy quorum) on every step.
func TestSimRandom(t *testing.T) {
	for seed := int64(1); seed <= 100; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			nStores := 3 + rng.Intn(5)
			s := newSim(t, nStores, nil)
			s.catchUp = rng.Intn(3)
			s.cfg.Replication.MaxReplicas = uint64(1 + 2*rng.Intn(2))
			nRegions := 5 + rng.Intn(30)
			for id := uint64(1); id <= uint64(nRegions); id++ {
				perm := rng.Perm(nStores)
				n := 1 + rng.Intn(min(nStores, 5))
				var stores []uint64
				for _, i := range perm[:n] {
					stores = append(stores, uint64(i+1))
				}
				start, end := fmt.Sprintf("k%03d", id), fmt.Sprintf("k%03d", id+1)
				if id == uint64(nRegions) {
					end = ""
				}
				s.addRegion(id, start, end, stores, stores[rng.Intn(n)])
			}
			// Stop a store, unless a region would lose its quorum (then no
			// conf change can commit and nothing converges).
			if dead := uint64(1 + rng.Intn(nStores)); rng.Intn(2) == 0 && keepsQuorum(s, dead) {
				s.stopped[dead] = true
				s.advance(31 * time.Minute)
			}
			s.run(2000)
			s.checkViolations()
			checkBalanced(t, s, nStores)
		})
	}
}

// keepsQuorum reports whether every region keeps a quorum of voters
// when store dead stops.
func keepsQuorum(s *sim, dead uint64) bool {
	for _, r := range s.regions {
		voters, alive := 0, 0
		for _, p := range r.meta.GetPeers() {
			voters++
			if p.GetStoreId() != dead {
				alive++
			}
		}
		if alive < voters/2+1 {
			return false
		}
	}
	return true
}

func checkBalanced(t *testing.T, s *sim, nStores int) {
	t.Helper()
	if running := nStores - len(s.stopped); uint64(running) < s.cfg.Replication.MaxReplicas {
		// Too few stores to replace the stopped one's peers: every
		// running store holds a voter of every region.
		for _, r := range s.sortedRegions() {
			for id := uint64(1); id <= uint64(nStores); id++ {
				if p := r.meta.GetPeers(); !s.stopped[id] && (findStorePeer(p, id) == nil ||
					findStorePeer(p, id).GetRole() != kvrpcpb.PeerRole_Voter) {
					t.Errorf("region %d: no voter on store %d (%s)", r.meta.GetId(), id, s.stores(r.meta.GetId()))
				}
			}
		}
		return
	}
	peers, leaders := map[uint64]int{}, map[uint64]int{}
	for _, r := range s.sortedRegions() {
		voters := 0
		seen := map[uint64]bool{}
		for _, p := range r.meta.GetPeers() {
			if p.GetRole() != kvrpcpb.PeerRole_Voter || s.stopped[p.GetStoreId()] || seen[p.GetStoreId()] {
				t.Errorf("region %d: bad peer %v (%s)", r.meta.GetId(), p, s.stores(r.meta.GetId()))
			}
			seen[p.GetStoreId()] = true
			voters++
			peers[p.GetStoreId()]++
		}
		if uint64(voters) != s.cfg.Replication.MaxReplicas {
			t.Errorf("region %d: %d voters (%s)", r.meta.GetId(), voters, s.stores(r.meta.GetId()))
		}
		if lp := findRegionPeer(r.meta, r.leader); lp != nil {
			leaders[lp.GetStoreId()]++
		} else {
			t.Errorf("region %d: no leader", r.meta.GetId())
		}
	}
	minP, maxP, minL, maxL := 1<<30, 0, 1<<30, 0
	for id := uint64(1); id <= uint64(nStores); id++ {
		if s.stopped[id] {
			continue
		}
		minP, maxP = min(minP, peers[id]), max(maxP, peers[id])
		minL, maxL = min(minL, leaders[id]), max(maxL, leaders[id])
	}
	// Leaders move only to stores holding a voter of the region, so a
	// store may end two leaders short of another when none of its
	// regions is led from there (a local optimum PD's rule leaves too).
	if maxP-minP > 1 || maxL-minL > 2 {
		t.Errorf("unbalanced: %s", s.loads(nStores))
	}
}

func findStorePeer(peers []*kvrpcpb.Peer, store uint64) *kvrpcpb.Peer {
	for _, p := range peers {
		if p.GetStoreId() == store {
			return p
		}
	}
	return nil
}

// TestCoordinatorConcurrent drives heartbeats from several goroutines
// while ticks run (the PD server's shape); run with -race.
func TestCoordinatorConcurrent(t *testing.T) {
	var ids atomic.Uint64
	ids.Store(10000)
	s := newSim(t, 5, func(o *Options) {
		o.AllocID = func() (uint64, error) { return ids.Add(1), nil }
	})
	for i := uint64(1); i <= 20; i++ {
		s.addRegion(i, fmt.Sprintf("k%02d", i), fmt.Sprintf("k%02d", i+1), []uint64{1}, 1)
	}
	infos := make([]*meta.RegionInfo, 0, 20)
	for _, r := range s.sortedRegions() {
		infos = append(infos, s.info(r))
	}
	coord := s.coord
	done := make(chan struct{})
	for w := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 50 {
				for i := w; i < len(infos); i += 4 {
					coord.HandleRegionHeartbeat(infos[i])
				}
			}
		}()
	}
	for range 20 {
		coord.Tick()
		coord.Controller().Operators()
	}
	for range 4 {
		<-done
	}
	if n := len(coord.Controller().Operators()); n != 20 {
		t.Fatalf("%d operators, want one per region", n)
	}
}
