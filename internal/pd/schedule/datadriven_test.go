package schedule

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/strata-db/strata/internal/config"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
)

// TestScheduleScripts runs the scripts in testdata against the simulator.
// Commands:
//
//	init stores=N [catch-up=N] [store-limit=N]   new cluster of N heartbeating stores
//	store id=N [labels=(zone=a,host=h)]          register another store
//	region id=N [start=K] [end=K] stores=(S,...) [learners=(S,...)] leader=S
//	config [max-replicas=N] [leader-limit=N] [region-limit=N] [replica-limit=N]
//	       [max-store-down-time=D] [location-labels=(L,...)]
//	stop store=N / start store=N                 a store stops (resumes) heartbeating
//	advance d=DURATION                           move the clock (running stores heartbeat)
//	tick                                         one Coordinator tick; prints the operators
//	heartbeat region=N                           one region heartbeat; prints PD's answer
//	round                                        one round (see sim.round); prints the steps
//	run [max=N]                                  rounds to a fixed point; prints the steps
//	regions / loads / operators / history        print state
//
// Broken invariants (sim.applyResp) fail the test.
func TestScheduleScripts(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		var s *sim
		nStores := 0
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if s != nil {
				s.t = t
			}
			defer func() {
				if s != nil {
					s.checkViolations()
				}
			}()
			switch d.Cmd {
			case "init":
				d.ScanArgs(t, "stores", &nStores)
				catchUp, storeLimit := 1, 0
				if d.HasArg("catch-up") {
					d.ScanArgs(t, "catch-up", &catchUp)
				}
				if d.HasArg("store-limit") {
					d.ScanArgs(t, "store-limit", &storeLimit)
				}
				s = newSim(t, nStores, func(o *Options) { o.StoreLimit = storeLimit })
				s.catchUp = catchUp
				return ""
			case "store":
				var id uint64
				d.ScanArgs(t, "id", &id)
				var labels []string
				if d.HasArg("labels") {
					d.ScanArgs(t, "labels", &labels)
				}
				s.addStore(id, labels...)
				nStores = max(nStores, int(id))
				return ""
			case "region":
				return cmdRegion(t, s, d)
			case "config":
				return cmdConfig(t, s, d)
			case "stop", "start":
				var id uint64
				d.ScanArgs(t, "store", &id)
				s.stopped[id] = d.Cmd == "stop"
				return ""
			case "advance":
				var ds string
				d.ScanArgs(t, "d", &ds)
				dur, err := time.ParseDuration(ds)
				if err != nil {
					t.Fatal(err)
				}
				s.advance(dur)
				return ""
			case "tick":
				s.coord.Tick()
				return fmtOperators(s.coord.Controller().Operators())
			case "heartbeat":
				var id uint64
				d.ScanArgs(t, "region", &id)
				resp := s.heartbeat(id)
				s.takeLog()
				return fmtResponse(resp)
			case "round":
				s.round()
				return fmtLog(s.takeLog())
			case "run":
				maxRounds := 200
				if d.HasArg("max") {
					d.ScanArgs(t, "max", &maxRounds)
				}
				s.run(maxRounds)
				return fmtLog(s.takeLog())
			case "regions":
				var b strings.Builder
				for _, r := range s.sortedRegions() {
					fmt.Fprintf(&b, "r%d c%d: %s\n", r.meta.GetId(), r.meta.GetRegionEpoch().GetConfVer(), s.stores(r.meta.GetId()))
				}
				return b.String()
			case "loads":
				return s.loads(nStores) + "\n"
			case "operators":
				return fmtOperators(s.coord.Controller().Operators())
			case "history":
				return fmtOperators(s.coord.Controller().History())
			}
			t.Fatalf("unknown command %q", d.Cmd)
			return ""
		})
	})
}

func cmdRegion(t *testing.T, s *sim, d *datadriven.TestData) string {
	var id, leader uint64
	var start, end string
	var stores, learners []string
	d.ScanArgs(t, "id", &id)
	d.ScanArgs(t, "leader", &leader)
	if d.HasArg("start") {
		d.ScanArgs(t, "start", &start)
	}
	if d.HasArg("end") {
		d.ScanArgs(t, "end", &end)
	}
	d.ScanArgs(t, "stores", &stores)
	if d.HasArg("learners") {
		d.ScanArgs(t, "learners", &learners)
	}
	ids := func(vals []string) []uint64 {
		var out []uint64
		for _, v := range vals {
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, n)
		}
		return out
	}
	s.addRegion(id, start, end, append(ids(stores), ids(learners)...), leader)
	r := s.regions[id]
	for _, l := range ids(learners) {
		r.meta.Peers[indexOf(r.meta.Peers, l)].Role = kvrpcpb.PeerRole_Learner
	}
	if _, err := s.cluster.PutRegion(s.info(r)); err != nil {
		t.Fatal(err)
	}
	return ""
}

// indexOf returns the index of the peer on store.
func indexOf(peers []*kvrpcpb.Peer, store uint64) int {
	for i, p := range peers {
		if p.GetStoreId() == store {
			return i
		}
	}
	return -1
}

func cmdConfig(t *testing.T, s *sim, d *datadriven.TestData) string {
	for _, a := range d.CmdArgs {
		val := ""
		if len(a.Vals) > 0 {
			val = a.Vals[0]
		}
		num := func() uint64 {
			n, err := strconv.ParseUint(val, 10, 64)
			if err != nil {
				t.Fatalf("%s: %v", a.Key, err)
			}
			return n
		}
		switch a.Key {
		case "max-replicas":
			s.cfg.Replication.MaxReplicas = num()
		case "leader-limit":
			s.cfg.Schedule.LeaderScheduleLimit = num()
		case "region-limit":
			s.cfg.Schedule.RegionScheduleLimit = num()
		case "replica-limit":
			s.cfg.Schedule.ReplicaScheduleLimit = num()
		case "max-store-down-time":
			dur, err := time.ParseDuration(val)
			if err != nil {
				t.Fatal(err)
			}
			s.cfg.Schedule.MaxStoreDownTime = config.Duration(dur)
		case "location-labels":
			s.cfg.Replication.LocationLabels = a.Vals
		default:
			t.Fatalf("unknown config %q", a.Key)
		}
	}
	return ""
}

func fmtLog(lines []string) string {
	if len(lines) == 0 {
		return "(nothing)\n"
	}
	return strings.Join(lines, "\n") + "\n"
}

func fmtOperators(ops []OperatorView) string {
	if len(ops) == 0 {
		return "(none)\n"
	}
	var b strings.Builder
	for _, op := range ops {
		fmt.Fprintf(&b, "region %d %s (%s) %s: %s [step %d/%d, age %s]", op.RegionID, op.Name, op.Kind,
			op.Status, op.Desc, op.Step, op.Steps, op.Age)
		if op.Reason != "" {
			fmt.Fprintf(&b, " reason: %s", op.Reason)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func fmtResponse(resp *pdpb.RegionHeartbeatResponse) string {
	if resp == nil {
		return "(no step)\n"
	}
	e := resp.GetRegionEpoch()
	head := fmt.Sprintf("region %d c%d v%d to peer %d: ", resp.GetRegionId(), e.GetConfVer(), e.GetVersion(),
		resp.GetTargetPeer().GetId())
	if tl := resp.GetTransferLeader(); tl != nil {
		return head + fmt.Sprintf("transfer leader to peer %d on store %d\n", tl.GetPeer().GetId(), tl.GetPeer().GetStoreId())
	}
	cp := resp.GetChangePeer()
	return head + fmt.Sprintf("%s peer %d on store %d (%s)\n", cp.GetChangeType(), cp.GetPeer().GetId(),
		cp.GetPeer().GetStoreId(), cp.GetPeer().GetRole())
}
