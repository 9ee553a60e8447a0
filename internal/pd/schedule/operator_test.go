package schedule

import (
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/pd/meta"
	"google.golang.org/protobuf/proto"
)

func voter(id, store uint64) *kvrpcpb.Peer {
	return &kvrpcpb.Peer{Id: id, StoreId: store, Role: kvrpcpb.PeerRole_Voter}
}

func learner(id, store uint64) *kvrpcpb.Peer {
	return &kvrpcpb.Peer{Id: id, StoreId: store, Role: kvrpcpb.PeerRole_Learner}
}

// regionAt builds region 1 at conf_ver conf, version 1, led by the peer
// with id leader.
func regionAt(conf, leader uint64, peers ...*kvrpcpb.Peer) *meta.RegionInfo {
	r := &meta.RegionInfo{Meta: &kvrpcpb.Region{Id: 1, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: conf, Version: 1}}}
	for _, p := range peers {
		r.Meta.Peers = append(r.Meta.Peers, proto.Clone(p).(*kvrpcpb.Peer))
	}
	for _, p := range r.Meta.Peers {
		if p.GetId() == leader {
			r.Leader = p
		}
	}
	return r
}

func pending(r *meta.RegionInfo, ids ...uint64) *meta.RegionInfo {
	for _, id := range ids {
		r.PendingPeers = append(r.PendingPeers, findPeer(r, id))
	}
	return r
}

// moveOp moves region 1's leader peer 7 on store 1 to store 4 as peer 42.
func moveOp(now time.Time) *Operator {
	return NewOperator("test-move", KindRegion, regionAt(5, 7, voter(7, 1), voter(8, 2), voter(9, 3)), now,
		AddLearner{ToStore: 4, PeerID: 42}, PromoteLearner{ToStore: 4, PeerID: 42},
		TransferLeader{FromStore: 1, ToStore: 4}, RemovePeer{FromStore: 1, PeerID: 7})
}

// TestOperatorProgress feeds an operator the regions a store would report
// as each step applies: each step is done only once the region shows it.
func TestOperatorProgress(t *testing.T) {
	op := moveOp(simStart)
	if got, want := op.Desc(), "add learner peer 42 on store 4, promote, transfer leader from store 1 to store 4, remove peer 7 on store 1"; got != want {
		t.Fatalf("desc %q, want %q", got, want)
	}
	if op.Timeout() != DefaultPeerMoveTimeout {
		t.Fatalf("timeout %v", op.Timeout())
	}
	for i, tc := range []struct {
		region *meta.RegionInfo
		step   Step
		status Status
		index  int
	}{
		{regionAt(5, 7, voter(7, 1), voter(8, 2), voter(9, 3)),
			AddLearner{4, 42}, StatusRunning, 0},
		// The learner is there but still catching up.
		{pending(regionAt(6, 7, voter(7, 1), voter(8, 2), voter(9, 3), learner(42, 4)), 42),
			AddLearner{4, 42}, StatusRunning, 0},
		{regionAt(6, 7, voter(7, 1), voter(8, 2), voter(9, 3), learner(42, 4)),
			PromoteLearner{4, 42}, StatusRunning, 1},
		{regionAt(7, 7, voter(7, 1), voter(8, 2), voter(9, 3), voter(42, 4)),
			TransferLeader{1, 4}, StatusRunning, 2},
		{regionAt(7, 42, voter(7, 1), voter(8, 2), voter(9, 3), voter(42, 4)),
			RemovePeer{1, 7}, StatusRunning, 3},
		{regionAt(8, 42, voter(8, 2), voter(9, 3), voter(42, 4)),
			nil, StatusFinished, 4},
	} {
		step := op.Check(tc.region)
		if step != tc.step || op.Status() != tc.status || op.StepIndex() != tc.index {
			t.Fatalf("heartbeat %d: step %v status %v index %d, want %v %v %d (%s)", i, step, op.Status(),
				op.StepIndex(), tc.step, tc.status, tc.index, op.Reason())
		}
	}
}

// TestOperatorStale: an operator is cancelled when the region's epoch
// moved further than its applied steps explain, or a step became
// impossible.
func TestOperatorStale(t *testing.T) {
	for _, tc := range []struct {
		name   string
		region *meta.RegionInfo
		want   error // nil: still running
	}{
		{"nothing changed", regionAt(5, 7, voter(7, 1), voter(8, 2), voter(9, 3)), nil},
		{"own learner", regionAt(6, 7, voter(7, 1), voter(8, 2), voter(9, 3), learner(42, 4)), nil},
		{"own learner, already a voter", regionAt(7, 7, voter(7, 1), voter(8, 2), voter(9, 3), voter(42, 4)), nil},
		{"someone else removed a peer", regionAt(6, 7, voter(7, 1), voter(8, 2)), ErrStaleOperator},
		{"own learner plus another change", regionAt(7, 7, voter(7, 1), voter(8, 2), voter(9, 3), learner(42, 4), learner(50, 5)),
			ErrStaleOperator},
		{"another learner on the target store", regionAt(6, 7, voter(7, 1), voter(8, 2), voter(9, 3), learner(50, 4)),
			ErrStaleOperator},
		{"split", func() *meta.RegionInfo {
			r := regionAt(5, 7, voter(7, 1), voter(8, 2), voter(9, 3))
			r.Meta.RegionEpoch.Version = 2
			return r
		}(), ErrStaleOperator},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op := moveOp(simStart)
			op.Check(tc.region)
			if tc.want == nil {
				if op.Status() != StatusRunning {
					t.Fatalf("status %v (%s), want running", op.Status(), op.Reason())
				}
				return
			}
			if op.Status() != StatusCanceled || !strings.Contains(op.Reason(), tc.want.Error()) {
				t.Fatalf("status %v reason %q, want canceled: %v", op.Status(), op.Reason(), tc.want)
			}
		})
	}
}

// TestOperatorConflict: a step that became impossible cancels the
// operator even when the epoch is explained.
func TestOperatorConflict(t *testing.T) {
	r := regionAt(5, 7, voter(7, 1), voter(8, 2), voter(9, 3))
	op := NewOperator("test", KindAdmin, r, simStart, PromoteLearner{ToStore: 4, PeerID: 42})
	if op.Check(r) != nil || op.Status() != StatusCanceled ||
		!strings.Contains(op.Reason(), ErrStepConflict.Error()) {
		t.Fatalf("status %v reason %q", op.Status(), op.Reason())
	}
	// A stopped operator stays stopped.
	if op.Check(regionAt(6, 7, voter(7, 1), voter(8, 2), voter(9, 3), learner(42, 4))) != nil || op.Status() != StatusCanceled {
		t.Fatal("a cancelled operator came back")
	}
}

func TestOperatorTimeout(t *testing.T) {
	op := moveOp(simStart)
	if op.CheckTimeout(simStart.Add(DefaultPeerMoveTimeout)) {
		t.Fatal("timed out at its timeout")
	}
	if !op.CheckTimeout(simStart.Add(DefaultPeerMoveTimeout+time.Nanosecond)) || op.Status() != StatusTimeout {
		t.Fatalf("status %v", op.Status())
	}
	r := regionAt(5, 7, voter(7, 1), voter(8, 2))
	lop := NewOperator("test", KindLeader, r, simStart, TransferLeader{FromStore: 1, ToStore: 2})
	if lop.Timeout() != DefaultLeaderTransferTimeout {
		t.Fatalf("leader transfer timeout %v", lop.Timeout())
	}
	if !lop.CheckTimeout(simStart.Add(11 * time.Second)) {
		t.Fatal("leader transfer not timed out after 11s")
	}
	if lop.Check(r) != nil {
		t.Fatal("a timed out operator returned a step")
	}
}

func TestKindStatusNames(t *testing.T) {
	for _, tc := range []struct {
		got  interface{ MarshalText() ([]byte, error) }
		want string
	}{
		{KindReplica, "replica"}, {KindLeader, "balance-leader"}, {KindRegion, "balance-region"}, {KindAdmin, "admin"},
		{StatusRunning, "running"}, {StatusFinished, "finished"}, {StatusTimeout, "timeout"},
		{StatusCanceled, "canceled"}, {StatusReplaced, "replaced"},
		{StoreUp, "up"}, {StoreDisconnected, "disconnected"}, {StoreDown, "down"},
	} {
		b, err := tc.got.MarshalText()
		if err != nil || string(b) != tc.want {
			t.Errorf("%v: %q %v, want %q", tc.got, b, err, tc.want)
		}
	}
}
