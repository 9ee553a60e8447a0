package meta

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// regionFromArgs builds a region from the args of a datadriven command:
//
//	id=N [start=K] [end=K] [ver=N] [conf=N] stores=(S,...) [leader=S] [term=N]
//
// Peer ids are id*100+store.
func regionFromArgs(t *testing.T, args []datadriven.CmdArg) (*RegionInfo, error) {
	t.Helper()
	r := &kvrpcpb.Region{RegionEpoch: &kvrpcpb.RegionEpoch{}}
	info := &RegionInfo{Meta: r}
	var leader uint64
	for _, a := range args {
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
		case "id":
			r.Id = num()
		case "start":
			r.StartKey = []byte(val)
		case "end":
			r.EndKey = []byte(val)
		case "ver":
			r.RegionEpoch.Version = num()
		case "conf":
			r.RegionEpoch.ConfVer = num()
		case "term":
			info.Term = num()
		case "leader":
			leader = num()
		case "stores":
			for _, v := range a.Vals {
				s, err := strconv.ParseUint(v, 10, 64)
				if err != nil {
					t.Fatal(err)
				}
				r.Peers = append(r.Peers, &kvrpcpb.Peer{Id: r.Id*100 + s, StoreId: s})
			}
		default:
			return nil, fmt.Errorf("unknown arg %q", a.Key)
		}
	}
	if leader != 0 {
		info.Leader = info.PeerOnStore(leader)
	}
	return info, nil
}

func fmtRegion(r *RegionInfo) string {
	if r == nil {
		return "<none>"
	}
	var stores []string
	for _, p := range r.Meta.GetPeers() {
		stores = append(stores, strconv.FormatUint(p.GetStoreId(), 10))
	}
	s := fmt.Sprintf("r%d [%s, %s) v%d c%d stores=%s", r.ID(), r.StartKey(), r.EndKey(),
		r.Epoch().GetVersion(), r.Epoch().GetConfVer(), strings.Join(stores, ","))
	if r.Leader != nil {
		s += fmt.Sprintf(" leader=%d", r.Leader.GetStoreId())
	}
	return s
}

func fmtRegions(rs []*RegionInfo) string {
	if len(rs) == 0 {
		return "<none>"
	}
	var b strings.Builder
	for _, r := range rs {
		b.WriteString(fmtRegion(r) + "\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func keyArg(td *datadriven.TestData, name string) []byte {
	for _, a := range td.CmdArgs {
		if a.Key == name && len(a.Vals) > 0 {
			return []byte(a.Vals[0])
		}
	}
	return nil
}

// TestClusterRegions drives a Cluster over a MemStorage through
// testdata/regions:
//
//	put <region args>        a heartbeat; prints removed regions or the error
//	report-split             one region per input line (ReportSplit)
//	check-split <region args>
//	get key=K | prev [key=K] | byid id=N | scan [start=K] [end=K] [limit=N]
//	regions                  the whole tree
//	storage                  what was persisted
//	reload                   a new Cluster loaded from the same storage
func TestClusterRegions(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		st := NewMemStorage()
		c := NewCluster(st)
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			switch td.Cmd {
			case "put":
				r, err := regionFromArgs(t, td.CmdArgs)
				if err != nil {
					return "error: " + err.Error()
				}
				removed, err := c.PutRegion(r)
				if err != nil {
					return "error: " + err.Error()
				}
				if len(removed) == 0 {
					return "ok"
				}
				return "removed:\n" + fmtRegions(removed)
			case "report-split":
				var regions []*kvrpcpb.Region
				for _, line := range strings.Split(strings.TrimSpace(td.Input), "\n") {
					_, args, err := datadriven.ParseLine("x " + line)
					if err != nil {
						t.Fatal(err)
					}
					r, err := regionFromArgs(t, args)
					if err != nil {
						return "error: " + err.Error()
					}
					regions = append(regions, r.Meta)
				}
				if err := c.ReportSplit(regions); err != nil {
					return "error: " + err.Error()
				}
				return "ok"
			case "check-split":
				r, err := regionFromArgs(t, td.CmdArgs)
				if err != nil {
					return "error: " + err.Error()
				}
				if err := c.CheckSplit(r.Meta); err != nil {
					return "error: " + err.Error()
				}
				return "ok"
			case "get":
				return fmtRegion(c.RegionByKey(keyArg(td, "key")))
			case "prev":
				return fmtRegion(c.RegionBefore(keyArg(td, "key")))
			case "byid":
				var id uint64
				td.ScanArgs(t, "id", &id)
				return fmtRegion(c.Region(id))
			case "scan":
				limit := 0
				td.MaybeScanArgs(t, "limit", &limit)
				return fmtRegions(c.ScanRegions(keyArg(td, "start"), keyArg(td, "end"), limit))
			case "regions":
				return fmtRegions(c.Regions())
			case "storage":
				var rs []*RegionInfo
				for _, id := range st.RegionIDs() {
					rs = append(rs, &RegionInfo{Meta: st.Region(id)})
				}
				return fmtRegions(rs)
			case "reload":
				c = NewCluster(st)
				if err := c.Load(); err != nil {
					return "error: " + err.Error()
				}
				return fmtRegions(c.Regions())
			default:
				t.Fatalf("unknown command %q", td.Cmd)
				return ""
			}
		})
	})
}
