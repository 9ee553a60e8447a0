package schedule

import (
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
	"google.golang.org/protobuf/proto"
)

// sim is a small cluster of stores as the scheduler sees them: the
// regions' true state lives here (what the stores hold), PD's view in a
// meta.Cluster fed by heartbeats built from it, and each step PD answers
// is applied the way a store does (conf_ver +1 per conf change, a new
// learner pending until it caught up, the leader refusing to remove
// itself). It checks the invariants after every step.
type sim struct {
	t       testing.TB
	now     time.Time
	cluster *meta.Cluster
	cfg     meta.ClusterConfig
	coord   *Coordinator
	nextID  uint64
	stopped map[uint64]bool
	regions map[uint64]*simRegion
	// catchUp is how many heartbeats a new learner stays pending.
	catchUp int
	// log records the steps carried out since the last takeLog.
	log []string
	// violations records broken invariants.
	violations []string
}

// simRegion is a region as its stores hold it.
type simRegion struct {
	meta    *kvrpcpb.Region
	leader  uint64         // peer id
	pending map[uint64]int // peer id → heartbeats until caught up
	size    uint64
}

var simStart = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// newSim registers stores 1..n, all heartbeating.
func newSim(t testing.TB, n int, tweak func(*Options)) *sim {
	s := &sim{t: t, now: simStart, cluster: meta.NewCluster(meta.NewMemStorage()),
		cfg: meta.DefaultClusterConfig(), nextID: 10000, stopped: map[uint64]bool{},
		regions: map[uint64]*simRegion{}, catchUp: 1}
	for i := 1; i <= n; i++ {
		s.addStore(uint64(i))
	}
	opts := Options{
		Now:     func() time.Time { return s.now },
		AllocID: func() (uint64, error) { s.nextID++; return s.nextID, nil },
		Config:  func() meta.ClusterConfig { return s.cfg },
		WarmUp:  time.Hour,
	}
	if tweak != nil {
		tweak(&opts)
	}
	s.coord = NewCoordinator(s.cluster, opts)
	return s
}

// addStore registers store id with labels ("zone=a") and heartbeats it.
func (s *sim) addStore(id uint64, labels ...string) {
	st := &pdpb.Store{Id: id, Address: fmt.Sprintf("store%d:20160", id)}
	for _, l := range labels {
		k, v, _ := strings.Cut(l, "=")
		st.Labels = append(st.Labels, &pdpb.StoreLabel{Key: k, Value: v})
	}
	if err := s.cluster.PutStore(st); err != nil {
		s.t.Fatal(err)
	}
	s.storeHeartbeat(id)
}

func (s *sim) storeHeartbeat(id uint64) {
	if err := s.cluster.StoreHeartbeat(&pdpb.StoreStats{StoreId: id, Capacity: 100 << 30,
		Available: 50 << 30}, s.now); err != nil {
		s.t.Fatal(err)
	}
}

// addRegion creates region id over [start, end) with a voter on each of
// stores (peer id id*100+store), led by the peer on leader, and reports
// it to PD.
func (s *sim) addRegion(id uint64, start, end string, stores []uint64, leader uint64) {
	r := &kvrpcpb.Region{Id: id, StartKey: []byte(start), EndKey: []byte(end),
		RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 1}}
	for _, st := range stores {
		r.Peers = append(r.Peers, &kvrpcpb.Peer{Id: id*100 + st, StoreId: st})
	}
	s.regions[id] = &simRegion{meta: r, leader: id*100 + leader, pending: map[uint64]int{}}
	if _, err := s.cluster.PutRegion(s.info(s.regions[id])); err != nil {
		s.t.Fatal(err)
	}
}

// advance moves the clock; the stores not stopped heartbeat.
func (s *sim) advance(d time.Duration) {
	s.now = s.now.Add(d)
	for _, st := range s.cluster.Stores() {
		if !s.stopped[st.ID()] {
			s.storeHeartbeat(st.ID())
		}
	}
}

// info is what region r's leader reports: peers on stopped stores are
// down, catching-up peers pending.
func (s *sim) info(r *simRegion) *meta.RegionInfo {
	info := &meta.RegionInfo{Meta: proto.Clone(r.meta).(*kvrpcpb.Region), ApproximateSize: r.size}
	for _, p := range info.Meta.GetPeers() {
		switch {
		case p.GetId() == r.leader:
			info.Leader = p
		case s.stopped[p.GetStoreId()]:
			info.DownPeers = append(info.DownPeers, &pdpb.PeerStats{Peer: p})
		case r.pending[p.GetId()] > 0:
			info.PendingPeers = append(info.PendingPeers, p)
		}
	}
	return info
}

func (s *sim) sortedRegions() []*simRegion {
	out := make([]*simRegion, 0, len(s.regions))
	for _, r := range s.regions {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].meta.GetId() < out[j].meta.GetId() })
	return out
}

// heartbeat reports region id (if its leader's store runs), hands PD's
// answer to the store and returns it.
func (s *sim) heartbeat(id uint64) *pdpb.RegionHeartbeatResponse {
	r := s.regions[id]
	s.maybeElect(r)
	if r.leader == 0 {
		return nil
	}
	info := s.info(r)
	if _, err := s.cluster.PutRegion(info); err != nil {
		s.t.Fatal(err)
	}
	for pid, n := range r.pending {
		if n > 0 {
			r.pending[pid] = n - 1
		}
	}
	resp := s.coord.HandleRegionHeartbeat(info)
	if resp != nil {
		s.applyResp(r, resp)
	}
	return resp
}

// maybeElect moves leadership off a stopped store to the first running
// voter, if a quorum of voters runs.
func (s *sim) maybeElect(r *simRegion) {
	if lp := findRegionPeer(r.meta, r.leader); lp != nil && !s.stopped[lp.GetStoreId()] {
		return
	}
	r.leader = 0
	voters, up := 0, []*kvrpcpb.Peer{}
	for _, p := range r.meta.GetPeers() {
		if p.GetRole() == kvrpcpb.PeerRole_Voter {
			voters++
			if !s.stopped[p.GetStoreId()] {
				up = append(up, p)
			}
		}
	}
	if len(up) >= voters/2+1 {
		r.leader = up[0].GetId()
	}
}

func findRegionPeer(r *kvrpcpb.Region, id uint64) *kvrpcpb.Peer {
	for _, p := range r.GetPeers() {
		if p.GetId() == id {
			return p
		}
	}
	return nil
}

// healthyQuorum reports whether a quorum of r's voters runs and has
// caught up.
func (s *sim) healthyQuorum(r *simRegion) bool {
	voters, healthy := 0, 0
	for _, p := range r.meta.GetPeers() {
		if p.GetRole() != kvrpcpb.PeerRole_Voter {
			continue
		}
		voters++
		if !s.stopped[p.GetStoreId()] && r.pending[p.GetId()] == 0 {
			healthy++
		}
	}
	return healthy >= voters/2+1
}

func (s *sim) violate(format string, args ...any) {
	s.violations = append(s.violations, fmt.Sprintf(format, args...))
}

// applyResp carries out a step as the region's leader would.
func (s *sim) applyResp(r *simRegion, resp *pdpb.RegionHeartbeatResponse) {
	id := r.meta.GetId()
	if resp.GetRegionId() != id {
		s.violate("region %d: response for region %d", id, resp.GetRegionId())
		return
	}
	if !proto.Equal(resp.GetRegionEpoch(), r.meta.GetRegionEpoch()) {
		s.violate("region %d: response at epoch %v, region at %v", id, resp.GetRegionEpoch(), r.meta.GetRegionEpoch())
		return
	}
	if resp.GetTargetPeer().GetId() != r.leader {
		s.violate("region %d: response targets peer %d, leader is %d", id, resp.GetTargetPeer().GetId(), r.leader)
	}
	if (resp.GetChangePeer() != nil) == (resp.GetTransferLeader() != nil) {
		s.violate("region %d: response carries %d steps", id, btoi(resp.GetChangePeer() != nil)+btoi(resp.GetTransferLeader() != nil))
		return
	}
	wasHealthy := s.healthyQuorum(r)
	if tl := resp.GetTransferLeader(); tl != nil {
		p := findRegionPeer(r.meta, tl.GetPeer().GetId())
		if p == nil || p.GetRole() != kvrpcpb.PeerRole_Voter || s.stopped[p.GetStoreId()] {
			s.logf("region %d: transfer leader to peer %d refused", id, tl.GetPeer().GetId())
			return
		}
		r.leader = p.GetId()
		s.logf("region %d: transfer leader to store %d", id, p.GetStoreId())
		return
	}
	cp := resp.GetChangePeer()
	target := cp.GetPeer()
	switch cp.GetChangeType() {
	case pdpb.ConfChangeType_AddLearnerNode:
		if findRegionPeer(r.meta, target.GetId()) != nil {
			s.violate("region %d: add learner %d twice: %v resp %v", id, target.GetId(), r.meta, resp)
			return
		}
		for _, p := range r.meta.GetPeers() {
			if p.GetStoreId() == target.GetStoreId() {
				s.violate("region %d: second peer on store %d", id, p.GetStoreId())
				return
			}
		}
		r.meta.Peers = append(r.meta.Peers, &kvrpcpb.Peer{Id: target.GetId(), StoreId: target.GetStoreId(), Role: kvrpcpb.PeerRole_Learner})
		r.pending[target.GetId()] = s.catchUp
		s.logf("region %d: add learner %d on store %d", id, target.GetId(), target.GetStoreId())
	case pdpb.ConfChangeType_AddNode:
		p := findRegionPeer(r.meta, target.GetId())
		if p == nil {
			s.violate("region %d: voter %d added without a learner first", id, target.GetId())
			return
		}
		if r.pending[p.GetId()] > 0 {
			s.violate("region %d: promoted %d while it catches up", id, p.GetId())
		}
		p.Role = kvrpcpb.PeerRole_Voter
		s.logf("region %d: promote %d on store %d", id, target.GetId(), target.GetStoreId())
	case pdpb.ConfChangeType_RemoveNode:
		if target.GetId() == r.leader {
			s.violate("region %d: asked to remove its leader %d", id, r.leader)
			return
		}
		peers := r.meta.Peers[:0]
		for _, p := range r.meta.GetPeers() {
			if p.GetId() != target.GetId() {
				peers = append(peers, p)
			}
		}
		r.meta.Peers = peers
		delete(r.pending, target.GetId())
		s.logf("region %d: remove %d on store %d", id, target.GetId(), target.GetStoreId())
	}
	r.meta.RegionEpoch.ConfVer++
	if wasHealthy && !s.healthyQuorum(r) {
		s.violate("region %d: lost its healthy quorum: %v", id, r.meta.GetPeers())
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (s *sim) logf(format string, args ...any) { s.log = append(s.log, fmt.Sprintf(format, args...)) }

// takeLog returns and clears the log.
func (s *sim) takeLog() []string {
	l := s.log
	s.log = nil
	return l
}

// round is one second of cluster life: stores heartbeat, PD ticks, every
// region heartbeats (in id order) and carries out what PD answers. It
// reports whether anything happened.
func (s *sim) round() bool {
	s.advance(time.Second)
	before := len(s.log)
	s.coord.Tick()
	busy := len(s.coord.Controller().Operators()) > 0
	for _, r := range s.sortedRegions() {
		if s.heartbeat(r.meta.GetId()) != nil {
			busy = true
		}
	}
	return busy || len(s.log) > before || len(s.coord.Controller().Operators()) > 0
}

// run runs rounds until nothing happens (a fixed point) and returns how
// many it took; it fails the test after max rounds.
func (s *sim) run(max int) int {
	s.t.Helper()
	for i := 1; i <= max; i++ {
		if !s.round() {
			return i
		}
	}
	s.t.Fatalf("no fixed point after %d rounds; operators: %v", max, s.coord.Controller().Operators())
	return max
}

// checkViolations fails the test on broken invariants.
func (s *sim) checkViolations() {
	s.t.Helper()
	for _, v := range s.violations {
		s.t.Error(v)
	}
	s.violations = nil
}

// stores returns region id's stores as "1,2,3" (learners as "4L",
// the leader's with "*"), by store id.
func (s *sim) stores(id uint64) string {
	r := s.regions[id]
	peers := append([]*kvrpcpb.Peer(nil), r.meta.GetPeers()...)
	sort.Slice(peers, func(i, j int) bool { return peers[i].GetStoreId() < peers[j].GetStoreId() })
	var parts []string
	for _, p := range peers {
		x := fmt.Sprint(p.GetStoreId())
		if p.GetRole() == kvrpcpb.PeerRole_Learner {
			x += "L"
		}
		if p.GetId() == r.leader {
			x += "*"
		}
		parts = append(parts, x)
	}
	return strings.Join(parts, ",")
}

// counts returns, per store 1..n, the peers and leaders it holds, as
// "peers/leaders".
func (s *sim) loads(n int) string {
	peers, leaders := map[uint64]int{}, map[uint64]int{}
	for _, r := range s.regions {
		for _, p := range r.meta.GetPeers() {
			peers[p.GetStoreId()]++
			if p.GetId() == r.leader {
				leaders[p.GetStoreId()]++
			}
		}
	}
	var parts []string
	for i := uint64(1); i <= uint64(n); i++ {
		parts = append(parts, fmt.Sprintf("s%d=%d/%d", i, peers[i], leaders[i]))
	}
	return strings.Join(parts, " ")
}
