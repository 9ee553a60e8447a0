package schedule

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
	"google.golang.org/protobuf/proto"
)

// testController returns a Controller on a clock the test moves and a
// config it changes.
func testController(tweak func(*Options)) (*Controller, *time.Time, *meta.ClusterConfig) {
	now := simStart
	cfg := meta.DefaultClusterConfig()
	opts := Options{Now: func() time.Time { return now }, Config: func() meta.ClusterConfig { return cfg }}
	if tweak != nil {
		tweak(&opts)
	}
	return NewController(opts), &now, &cfg
}

func withID(r *meta.RegionInfo, id uint64) *meta.RegionInfo {
	r.Meta.Id = id
	return r
}

// TestControllerDispatch: the step goes to the region's leader at the
// region's epoch, again on every heartbeat until the region shows it
// applied, then the next step; the finished operator goes to history.
func TestControllerDispatch(t *testing.T) {
	c, _, _ := testController(nil)
	r0 := regionAt(5, 8, voter(7, 1), voter(8, 2), voter(9, 3))
	if c.Dispatch(r0) != nil {
		t.Fatal("a step without an operator")
	}
	if err := c.AddOperator(moveOp(simStart)); err != nil {
		t.Fatal(err)
	}
	want := &pdpb.RegionHeartbeatResponse{
		RegionId: 1, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 5, Version: 1}, TargetPeer: voter(8, 2),
		ChangePeer: &pdpb.ChangePeer{Peer: learner(42, 4), ChangeType: pdpb.ConfChangeType_AddLearnerNode},
	}
	for i := range 2 {
		if got := c.Dispatch(r0); !proto.Equal(got, want) {
			t.Fatalf("heartbeat %d: %v, want %v", i, got, want)
		}
	}
	// Applied, catching up: nothing to ask.
	r1 := pending(regionAt(6, 8, voter(7, 1), voter(8, 2), voter(9, 3), learner(42, 4)), 42)
	if got := c.Dispatch(r1); got != nil {
		t.Fatalf("resent an applied step: %v", got)
	}
	r2 := regionAt(6, 8, voter(7, 1), voter(8, 2), voter(9, 3), learner(42, 4))
	got := c.Dispatch(r2)
	if got.GetChangePeer().GetChangeType() != pdpb.ConfChangeType_AddNode || got.GetChangePeer().GetPeer().GetId() != 42 ||
		got.GetRegionEpoch().GetConfVer() != 6 {
		t.Fatalf("promote: %v", got)
	}
	if ops := c.Operators(); len(ops) != 1 || ops[0].Step != 1 || ops[0].Status != StatusRunning {
		t.Fatalf("operators %+v", ops)
	}
	r3 := regionAt(7, 42, voter(7, 1), voter(8, 2), voter(9, 3), voter(42, 4))
	got = c.Dispatch(r3)
	if got.GetChangePeer().GetChangeType() != pdpb.ConfChangeType_RemoveNode || got.GetChangePeer().GetPeer().GetId() != 7 {
		t.Fatalf("remove: %v", got)
	}
	if got := c.Dispatch(regionAt(8, 42, voter(8, 2), voter(9, 3), voter(42, 4))); got != nil || c.HasOperator(1) {
		t.Fatalf("after the last step: %v, running %v", got, c.Operators())
	}
	if h := c.History(); len(h) != 1 || h[0].Status != StatusFinished || h[0].Step != 4 {
		t.Fatalf("history %+v", h)
	}
}

// TestControllerNeverRemovesLeader: a removal of the leader's peer is
// preceded by a transfer to a healthy voter; with none, nothing is sent.
func TestControllerNeverRemovesLeader(t *testing.T) {
	c, _, _ := testController(nil)
	r := regionAt(5, 7, voter(7, 1), voter(8, 2), voter(9, 3), voter(10, 4))
	if err := c.AddOperator(NewOperator("test", KindAdmin, r, simStart, RemovePeer{FromStore: 1, PeerID: 7})); err != nil {
		t.Fatal(err)
	}
	got := c.Dispatch(r)
	if got.GetTransferLeader().GetPeer().GetId() != 8 || got.GetChangePeer() != nil {
		t.Fatalf("removing the leader: %v, want a transfer to peer 8", got)
	}
	// Peer 8 is down and 9 pending: the transfer goes to 10.
	r.DownPeers = []*pdpb.PeerStats{{Peer: findPeer(r, 8)}}
	pending(r, 9)
	if got := c.Dispatch(r); got.GetTransferLeader().GetPeer().GetId() != 10 {
		t.Fatalf("transfer to %v, want peer 10", got)
	}
	moved := regionAt(5, 10, voter(7, 1), voter(8, 2), voter(9, 3), voter(10, 4))
	if got := c.Dispatch(moved); got.GetChangePeer().GetChangeType() != pdpb.ConfChangeType_RemoveNode {
		t.Fatalf("after the transfer: %v", got)
	}
	// Only the leader is healthy: wait.
	c2, _, _ := testController(nil)
	lone := regionAt(5, 7, voter(7, 1), voter(8, 2))
	lone.DownPeers = []*pdpb.PeerStats{{Peer: findPeer(lone, 8)}}
	if err := c2.AddOperator(NewOperator("test", KindAdmin, lone, simStart, RemovePeer{FromStore: 1, PeerID: 7})); err != nil {
		t.Fatal(err)
	}
	if got := c2.Dispatch(lone); got != nil {
		t.Fatalf("no healthy voter to lead: %v", got)
	}
}

// TestControllerRemoveKeepsQuorum: a voter is removed only if a quorum
// of the remaining voters is healthy.
func TestControllerRemoveKeepsQuorum(t *testing.T) {
	c, _, _ := testController(nil)
	r := pending(regionAt(5, 7, voter(7, 1), voter(8, 2), voter(9, 3)), 8)
	if err := c.AddOperator(NewOperator("test", KindAdmin, r, simStart, RemovePeer{FromStore: 3, PeerID: 9})); err != nil {
		t.Fatal(err)
	}
	if got := c.Dispatch(r); got != nil {
		t.Fatalf("removal leaving 1 healthy voter of 2: %v", got)
	}
	if got := c.Dispatch(regionAt(5, 7, voter(7, 1), voter(8, 2), voter(9, 3))); got.GetChangePeer().GetPeer().GetId() != 9 {
		t.Fatalf("removal once 8 caught up: %v", got)
	}
}

// TestControllerCancelStale: someone else's conf change cancels the
// operator at the next heartbeat.
func TestControllerCancelStale(t *testing.T) {
	c, _, _ := testController(nil)
	if err := c.AddOperator(moveOp(simStart)); err != nil {
		t.Fatal(err)
	}
	if got := c.Dispatch(regionAt(6, 7, voter(7, 1), voter(8, 2))); got != nil || c.HasOperator(1) {
		t.Fatalf("stale operator still dispatched: %v", got)
	}
	h := c.History()
	if len(h) != 1 || h[0].Status != StatusCanceled || !strings.Contains(h[0].Reason, ErrStaleOperator.Error()) {
		t.Fatalf("history %+v", h)
	}
}

// TestControllerTimeout: an operator past its timeout is retired on its
// region's heartbeat or on CheckTimeouts, whichever comes first.
func TestControllerTimeout(t *testing.T) {
	c, now, _ := testController(nil)
	r := regionAt(5, 7, voter(7, 1), voter(8, 2), voter(9, 3))
	if err := c.AddOperator(moveOp(simStart)); err != nil {
		t.Fatal(err)
	}
	lop := NewOperator("test", KindLeader, withID(regionAt(5, 7, voter(7, 1), voter(8, 2)), 2), simStart,
		TransferLeader{FromStore: 1, ToStore: 2})
	if err := c.AddOperator(lop); err != nil {
		t.Fatal(err)
	}
	*now = simStart.Add(11 * time.Second)
	c.CheckTimeouts()
	if ops := c.Operators(); len(ops) != 1 || ops[0].RegionID != 1 || ops[0].Age != "11s" {
		t.Fatalf("after 11s: %+v", ops)
	}
	*now = simStart.Add(11 * time.Minute)
	if got := c.Dispatch(r); got != nil || c.HasOperator(1) {
		t.Fatalf("timed out operator dispatched: %v", got)
	}
	h := c.History()
	if len(h) != 2 || h[0].Status != StatusTimeout || h[1].Status != StatusTimeout || h[0].Age != "11m0s" {
		t.Fatalf("history %+v", h)
	}
}

// TestControllerLimits: each kind's limit from the config, the store
// limit, one operator per region unless a higher priority one replaces
// it.
func TestControllerLimits(t *testing.T) {
	c, _, cfg := testController(func(o *Options) { o.StoreLimit = 1 })
	cfg.Schedule.LeaderScheduleLimit = 1
	cfg.Schedule.RegionScheduleLimit = 2
	cfg.Schedule.ReplicaScheduleLimit = 1
	region := func(id uint64) *meta.RegionInfo {
		return withID(regionAt(5, 7, voter(7, 1), voter(8, 2), voter(9, 3)), id)
	}
	leaderOp := func(id uint64) *Operator {
		return NewOperator("l", KindLeader, region(id), simStart, TransferLeader{FromStore: 1, ToStore: 2})
	}
	addOp := func(id uint64, kind Kind, store uint64) *Operator {
		return NewOperator("a", kind, region(id), simStart, AddLearner{ToStore: store, PeerID: 40 + id},
			PromoteLearner{ToStore: store, PeerID: 40 + id})
	}
	for i, tc := range []struct {
		op   *Operator
		want error
	}{
		{leaderOp(1), nil},
		{leaderOp(2), ErrScheduleLimit},
		{leaderOp(1), ErrOperatorExists},
		{addOp(3, KindRegion, 4), nil},
		{addOp(4, KindRegion, 4), ErrStoreLimit},
		{addOp(4, KindRegion, 5), nil},
		{addOp(5, KindRegion, 6), ErrScheduleLimit},
		{addOp(5, KindReplica, 6), nil},
		{addOp(6, KindReplica, 7), ErrScheduleLimit},
		{addOp(7, KindAdmin, 4), nil}, // admins pass every limit
		// A repair would replace region 4's balance operator, but the
		// replica limit is reached; a balance operator never replaces.
		{addOp(4, KindReplica, 8), ErrScheduleLimit},
		{addOp(5, KindRegion, 9), ErrOperatorExists},
		{NewOperator("empty", KindAdmin, region(9), simStart), ErrInvalidOperator},
	} {
		if err := c.AddOperator(tc.op); !errors.Is(err, tc.want) {
			t.Fatalf("operator %d (%v): %v, want %v", i, tc.op, err, tc.want)
		}
	}
	cfg.Schedule.ReplicaScheduleLimit = 2
	if err := c.AddOperator(addOp(4, KindReplica, 8)); err != nil {
		t.Fatal(err)
	}
	h := c.History()
	if len(h) != 1 || h[0].RegionID != 4 || h[0].Status != StatusReplaced {
		t.Fatalf("history %+v", h)
	}
	// The replaced operator's store receives nothing any more; the
	// replacement's store does until it is cancelled.
	if err := c.AddOperator(addOp(8, KindRegion, 5)); err != nil {
		t.Fatal(err)
	}
	cfg.Schedule.ReplicaScheduleLimit = 10
	if err := c.AddOperator(addOp(9, KindAdmin, 8)); err != nil {
		t.Fatal(err)
	}
	if err := c.AddOperator(addOp(10, KindReplica, 8)); !errors.Is(err, ErrStoreLimit) {
		t.Fatalf("store 8 receives two: %v", err)
	}
	if !c.Cancel(4, "test") || c.Cancel(4, "test") || !c.Cancel(9, "test") {
		t.Fatal("Cancel")
	}
	if err := c.AddOperator(addOp(10, KindReplica, 8)); err != nil {
		t.Fatal(err)
	}
}

func TestControllerHistoryBounded(t *testing.T) {
	c, _, _ := testController(func(o *Options) { o.HistorySize = 3 })
	for id := uint64(1); id <= 5; id++ {
		r := withID(regionAt(5, 7, voter(7, 1), voter(8, 2)), id)
		if err := c.AddOperator(NewOperator("t", KindAdmin, r, simStart, TransferLeader{FromStore: 1, ToStore: 2})); err != nil {
			t.Fatal(err)
		}
		c.Cancel(id, "by test")
	}
	h := c.History()
	if len(h) != 3 || h[0].RegionID != 5 || h[2].RegionID != 3 || h[0].Reason != "by test" {
		t.Fatalf("history %+v", h)
	}
}

// TestControllerLostTarget: an operator whose new peer's store is lost
// is cancelled instead of waiting for its timeout.
func TestControllerLostTarget(t *testing.T) {
	c, _, _ := testController(nil)
	c.lost = func(id uint64) bool { return id == 4 }
	if err := c.AddOperator(moveOp(simStart)); err != nil {
		t.Fatal(err)
	}
	if got := c.Dispatch(regionAt(5, 7, voter(7, 1), voter(8, 2), voter(9, 3))); got != nil || c.HasOperator(1) {
		t.Fatalf("operator to a lost store: %v", got)
	}
	if h := c.History(); len(h) != 1 || h[0].Status != StatusCanceled {
		t.Fatalf("history %+v", h)
	}
}

func TestOperatorViewJSON(t *testing.T) {
	c, now, _ := testController(nil)
	if err := c.AddOperator(moveOp(simStart)); err != nil {
		t.Fatal(err)
	}
	*now = simStart.Add(90 * time.Second)
	b, err := json.Marshal(c.Operators())
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"region_id":1,"name":"test-move","kind":"balance-region",` +
		`"desc":"add learner peer 42 on store 4, promote, transfer leader from store 1 to store 4, remove peer 7 on store 1",` +
		`"step":0,"steps":4,"status":"running","created":"2025-01-01T00:00:00Z","age":"1m30s"}]`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
}
