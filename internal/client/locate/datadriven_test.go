package locate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"google.golang.org/protobuf/proto"
)

// scriptStore answers KvGet from a script of outcomes, logging each
// request to a shared trace.
type scriptStore struct {
	rpc.StoreAPI
	id     uint64
	script []string // consumed one per call; then always
	always string   // "" = ok
	trace  *[]string
	region func() *kvrpcpb.Region
}

func (s *scriptStore) KvGet(_ context.Context, req *kvrpcpb.GetRequest) (*kvrpcpb.GetResponse, error) {
	outcome := s.always
	if len(s.script) > 0 {
		outcome, s.script = s.script[0], s.script[1:]
	}
	c := req.GetContext()
	line := fmt.Sprintf("-> store%d region=%d epoch=%d/%d peer=%d retry=%v: %s", s.id, c.GetRegionId(),
		c.GetRegionEpoch().GetConfVer(), c.GetRegionEpoch().GetVersion(), c.GetPeer().GetId(), c.GetIsRetryRequest(), orOK(outcome))
	*s.trace = append(*s.trace, line)
	fields := strings.Fields(outcome)
	if len(fields) == 0 {
		return &kvrpcpb.GetResponse{Value: []byte(fmt.Sprintf("v%d", s.id))}, nil
	}
	arg := func(name string) uint64 {
		for _, f := range fields[1:] {
			if k, v, ok := strings.Cut(f, "="); ok && k == name {
				n, _ := strconv.ParseUint(v, 10, 64)
				return n
			}
		}
		return 0
	}
	e := &kvrpcpb.RegionError{}
	switch fields[0] {
	case "not-leader":
		e.NotLeader = &kvrpcpb.NotLeader{RegionId: 7}
		if st := arg("leader"); st != 0 {
			e.NotLeader.Leader = &kvrpcpb.Peer{Id: 70 + st, StoreId: st}
		}
	case "epoch-not-match":
		e.EpochNotMatch = &kvrpcpb.EpochNotMatch{}
		if v := arg("version"); v != 0 {
			r := s.region()
			r.RegionEpoch = &kvrpcpb.RegionEpoch{ConfVer: 1, Version: v}
			e.EpochNotMatch.CurrentRegions = []*kvrpcpb.Region{r}
		}
	case "region-not-found":
		e.RegionNotFound = &kvrpcpb.RegionNotFound{RegionId: 7}
	case "key-not-in-region":
		e.KeyNotInRegion = &kvrpcpb.KeyNotInRegion{Key: req.Key, RegionId: 7}
	case "server-busy":
		e.ServerIsBusy = &kvrpcpb.ServerIsBusy{Reason: "test"}
	case "max-ts-not-synced":
		e.MaxTimestampNotSynced = &kvrpcpb.MaxTimestampNotSynced{}
	case "rpc-error":
		return nil, errors.New("connection reset")
	default:
		return nil, fmt.Errorf("bad outcome %q", outcome)
	}
	return &kvrpcpb.GetResponse{RegionError: e}, nil
}

func orOK(s string) string {
	if s == "" {
		return "ok"
	}
	return s
}

// TestSenderScripts replays testdata/retry: scripted region errors from
// stores 1 and 2 (region 7 has a peer on each), the requests the sender
// makes in answer, and how it ends.
func TestSenderScripts(t *testing.T) {
	var (
		trace  []string
		src    *twoStoreSource
		stores map[uint64]*scriptStore
		cache  *RegionCache
	)
	reset := func(leader uint64) {
		trace = nil
		region := &kvrpcpb.Region{Id: 7, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 1},
			Peers: []*kvrpcpb.Peer{{Id: 71, StoreId: 1}, {Id: 72, StoreId: 2}}}
		src = &twoStoreSource{region: region, leader: region.Peers[leader-1]}
		stores = map[uint64]*scriptStore{}
		for id := uint64(1); id <= 2; id++ {
			stores[id] = &scriptStore{id: id, trace: &trace, region: func() *kvrpcpb.Region { return cloneRegion(src.region) }}
		}
		cache = NewRegionCache(src)
	}
	reset(1)
	datadriven.RunTest(t, "testdata/retry", func(t *testing.T, d *datadriven.TestData) string {
		store := func() *scriptStore {
			var id uint64 = 1
			if d.HasArg("store") {
				d.ScanArgs(t, "store", &id)
			}
			return stores[id]
		}
		switch d.Cmd {
		case "reset":
			var leader uint64 = 1
			if d.HasArg("leader") {
				d.ScanArgs(t, "leader", &leader)
			}
			reset(leader)
			return ""
		case "script":
			s := store()
			s.script = nil
			for _, l := range strings.Split(strings.TrimSpace(d.Input), "\n") {
				s.script = append(s.script, strings.TrimSpace(l))
			}
			return ""
		case "always":
			store().always = strings.TrimSpace(d.Input)
			return ""
		case "get":
			budget := 1000
			if d.HasArg("budget") {
				d.ScanArgs(t, "budget", &budget)
			}
			trace = nil
			sl := &recordSleeper{}
			sender := NewRegionRequestSender(cache, storeClient(stores))
			resp, err := SendKey(sender, NewBackofferWithSleeper(context.Background(), budget, sl.sleep),
				[]byte("k"), &kvrpcpb.GetRequest{Key: []byte("k"), Version: 1}, rpc.StoreAPI.KvGet)
			var total time.Duration
			for _, w := range sl.waits {
				total += w
			}
			var b strings.Builder
			for _, l := range trace {
				b.WriteString(l + "\n")
			}
			switch {
			case err != nil:
				fmt.Fprintf(&b, "error: %s\n", classify(err))
			default:
				fmt.Fprintf(&b, "value: %s\n", resp.Value)
			}
			fmt.Fprintf(&b, "sleeps: %d, within budget: %v, source loads: %d\n", len(sl.waits), total <= time.Duration(budget)*time.Millisecond, src.loads)
			if loc := cache.LocateRegionByID(7); loc != nil {
				fmt.Fprintf(&b, "cache: region 7 epoch %d/%d leader %d at %s\n", loc.Epoch.ConfVer, loc.Epoch.Version, loc.Leader.Id, loc.Addr)
			} else {
				b.WriteString("cache: region 7 not cached\n")
			}
			return b.String()
		default:
			t.Fatalf("unknown command %s", d.Cmd)
			return ""
		}
	})
}

func cloneRegion(r *kvrpcpb.Region) *kvrpcpb.Region { return proto.Clone(r).(*kvrpcpb.Region) }

// storeClient serves the script stores by address.
type storeClient map[uint64]*scriptStore

func (s storeClient) Store(addr string) (rpc.StoreAPI, error) {
	var id uint64
	if _, err := fmt.Sscanf(addr, "store%d", &id); err == nil && s[id] != nil {
		return s[id], nil
	}
	return nil, fmt.Errorf("no store %q", addr)
}
func (s storeClient) Close() error { return nil }

// classify names an error by the identities callers test.
func classify(err error) string {
	var parts []string
	for _, c := range []struct {
		name string
		err  error
	}{{"region-unavailable", errRegionUnavailable}, {"no-reply", ErrNoReply}, {"budget-exhausted", ErrBackoffExhausted}} {
		if errors.Is(err, c.err) {
			parts = append(parts, c.name)
		}
	}
	return strings.Join(parts, ",")
}

var errRegionUnavailable = kv.ErrRegionUnavailable
