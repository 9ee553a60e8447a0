package cluster

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/cluster/pdctl"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/tests/testproc"
)

// Leader transfers under a bank workload: round after round, every
// region's leadership moves to another voter (`strata ctl operator add
// transfer-leader`, an admin operator of PD) while transfers run. A
// leader about to transfer hands its in-memory pessimistic locks over
// through raft; a hand-off written after a prewrite that replaced one of
// them once put the pessimistic lock back over the prewrite, and the
// acknowledged transfer's commit then wrote nothing. No transfer may be
// lost or half-applied.
func TestLeaderTransfersUnderLoad(t *testing.T) {
	c, b, _, stop := bankUnderLoad(t, clusterOpts{kv: 3, sql: 1})
	b.progress(c, 50, "before the leader transfers")
	pc := c.pdClient()
	bin, err := testproc.Binary()
	if err != nil {
		t.Fatal(err)
	}
	const rounds = 20
	moved := 0
	for round := range rounds {
		rs, err := scanRegions(pc)
		if err != nil {
			t.Fatal(err)
		}
		want := map[uint64]uint64{} // region -> store asked to lead it
		for _, r := range rs {
			var voters []uint64
			for _, p := range r.GetRegion().GetPeers() {
				if p.GetRole() == kvrpcpb.PeerRole_Voter && p.GetStoreId() != r.GetLeader().GetStoreId() {
					voters = append(voters, p.GetStoreId())
				}
			}
			if len(voters) == 0 {
				continue
			}
			id, to := r.GetRegion().GetId(), voters[round%len(voters)]
			out, err := exec.Command(bin, "ctl", "--pd", c.pdAddr, "operator", "add", "transfer-leader",
				fmt.Sprint(id), fmt.Sprint(to)).CombinedOutput()
			var exit *exec.ExitError
			switch {
			case err == nil:
				want[id] = to
			case errors.As(err, &exit) && exit.ExitCode() == 1:
				// PD refused (the region changed since the scan, or our
				// last operator on it still runs): this round skips it.
				t.Logf("round %d: transfer of region %d to store %d refused: %s", round, id, to, strings.TrimSpace(string(out)))
			default:
				t.Fatalf("strata ctl operator add transfer-leader %d %d: %v\n%s", id, to, err, out)
			}
		}
		// Each operator ends: the leader moved, or the transfer was
		// refused by the leader (a follower too far behind) and the
		// operator timed out.
		c.waitFor(fmt.Sprintf("round %d's transfers to end", round), 60*time.Second, func() (bool, string) {
			rs, err := scanRegions(pc)
			if err != nil {
				return false, err.Error()
			}
			running := 0
			for _, r := range rs {
				if to, ok := want[r.GetRegion().GetId()]; ok && r.GetLeader().GetStoreId() == to {
					moved++
					delete(want, r.GetRegion().GetId())
				}
			}
			for id := range want {
				if c.operatorRunning(id) {
					running++
				} else {
					delete(want, id)
				}
			}
			return running == 0, fmt.Sprintf("%d transfers pending", running)
		})
		b.progress(c, 10, fmt.Sprintf("after transfer round %d", round))
	}
	// No node fails here: neither a leader transfer nor a split (the
	// bank's log table splits as it grows) may surface as an error to a
	// SQL client, so no transfer may fail before the workload stops.
	b.mu.Lock()
	failed := slices.Clone(b.errored)
	b.mu.Unlock()
	stop()
	if len(failed) > 0 {
		t.Errorf("%d transfers failed while leaders moved, the first: %+v", len(failed), failed[0])
	}
	if moved < rounds {
		t.Fatalf("only %d leaders moved in %d rounds", moved, rounds)
	}
	t.Logf("%d leaders moved in %d rounds", moved, rounds)
	b.check()
}

// operatorRunning reports whether PD runs an operator on region id (any
// error counts as running: the caller asks again).
func (c *cluster) operatorRunning(id uint64) bool {
	pc, err := pdctl.New(c.pdAddr, 5*time.Second)
	if err != nil {
		c.t.Fatal(err)
	}
	raw, err := pc.Get(context.Background(), "/pd/api/v1/operators", nil)
	if err != nil {
		return true
	}
	ops, err := pdctl.DecodeOperators(raw)
	return err != nil || slices.ContainsFunc(ops, func(op pdctl.Operator) bool { return op.RegionID == id })
}
