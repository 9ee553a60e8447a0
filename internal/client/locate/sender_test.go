package locate

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// fakeStore answers KvGet from a script of region errors, then succeeds;
// it records the Context of every request it saw.
type fakeStore struct {
	rpc.StoreAPI
	addr   string
	script []*kvrpcpb.RegionError // consumed one per call; nil entry = success
	always *kvrpcpb.RegionError   // when the script is empty
	rpcErr error
	seen   []*kvrpcpb.Context
	value  []byte
}

func (f *fakeStore) KvGet(_ context.Context, req *kvrpcpb.GetRequest) (*kvrpcpb.GetResponse, error) {
	f.seen = append(f.seen, cloneCtx(req.GetContext()))
	if f.rpcErr != nil {
		return nil, f.rpcErr
	}
	var e *kvrpcpb.RegionError
	if len(f.script) > 0 {
		e, f.script = f.script[0], f.script[1:]
	} else {
		e = f.always
	}
	if e != nil {
		return &kvrpcpb.GetResponse{RegionError: e}, nil
	}
	return &kvrpcpb.GetResponse{Value: f.value}, nil
}

func cloneCtx(c *kvrpcpb.Context) *kvrpcpb.Context {
	return &kvrpcpb.Context{RegionId: c.GetRegionId(), RegionEpoch: c.GetRegionEpoch(), Peer: c.GetPeer(), IsRetryRequest: c.GetIsRetryRequest()}
}

// multiClient serves fake stores by address.
type multiClient map[string]*fakeStore

func (m multiClient) Store(addr string) (rpc.StoreAPI, error) {
	if s, ok := m[addr]; ok {
		return s, nil
	}
	return nil, fmt.Errorf("no store %q", addr)
}
func (m multiClient) Close() error { return nil }

// recordSleeper records waits instead of sleeping.
type recordSleeper struct{ waits []time.Duration }

func (r *recordSleeper) sleep(_ context.Context, d time.Duration) error {
	r.waits = append(r.waits, d)
	return nil
}

// twoStoreSource: one region, peers on stores 1 and 2.
type twoStoreSource struct {
	region *kvrpcpb.Region
	leader *kvrpcpb.Peer
	loads  int
}

func (s *twoStoreSource) RegionByKey(_ context.Context, key []byte) (*RegionInfo, error) {
	s.loads++
	return &RegionInfo{Region: s.region, Leader: s.leader, Addr: fmt.Sprintf("store%d", s.leader.StoreId)}, nil
}
func (s *twoStoreSource) RegionBeforeKey(ctx context.Context, key []byte) (*RegionInfo, error) {
	return s.RegionByKey(ctx, key)
}
func (s *twoStoreSource) StoreAddr(_ context.Context, id uint64) (string, error) {
	return fmt.Sprintf("store%d", id), nil
}

func newTwoStores() (*twoStoreSource, multiClient) {
	region := &kvrpcpb.Region{Id: 7, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 1},
		Peers: []*kvrpcpb.Peer{{Id: 71, StoreId: 1}, {Id: 72, StoreId: 2}}}
	src := &twoStoreSource{region: region, leader: region.Peers[0]}
	cl := multiClient{"store1": {addr: "store1", value: []byte("v1")}, "store2": {addr: "store2", value: []byte("v2")}}
	return src, cl
}

func get(t *testing.T, s *RegionRequestSender, bo *Backoffer) (*kvrpcpb.GetResponse, error) {
	t.Helper()
	return SendKey(s, bo, []byte("k"), &kvrpcpb.GetRequest{Key: []byte("k"), Version: 10}, rpc.StoreAPI.KvGet)
}

func TestSendFillsContext(t *testing.T) {
	src, cl := newTwoStores()
	s := NewRegionRequestSender(NewRegionCache(src), cl)
	resp, err := get(t, s, NewBackoffer(context.Background(), 100))
	if err != nil || string(resp.Value) != "v1" {
		t.Fatalf("got %v, %v", resp, err)
	}
	c := cl["store1"].seen[0]
	if c.RegionId != 7 || c.RegionEpoch.Version != 1 || c.Peer.Id != 71 || c.IsRetryRequest {
		t.Fatalf("context %v", c)
	}
}

func TestNotLeaderFollowsHint(t *testing.T) {
	src, cl := newTwoStores()
	cl["store1"].script = []*kvrpcpb.RegionError{{NotLeader: &kvrpcpb.NotLeader{RegionId: 7, Leader: &kvrpcpb.Peer{Id: 72, StoreId: 2}}}}
	sl := &recordSleeper{}
	s := NewRegionRequestSender(NewRegionCache(src), cl)
	resp, err := get(t, s, NewBackofferWithSleeper(context.Background(), 100, sl.sleep))
	if err != nil || string(resp.Value) != "v2" {
		t.Fatalf("got %v, %v", resp, err)
	}
	if len(sl.waits) != 0 {
		t.Fatalf("a leader hint should be followed without sleeping, slept %v", sl.waits)
	}
	if c := cl["store2"].seen[0]; c.Peer.Id != 72 || !c.IsRetryRequest {
		t.Fatalf("retry context %v", c)
	}
	if loc := s.Cache().LocateRegionByID(7); loc.Addr != "store2" {
		t.Fatalf("cache leader not updated: %v", loc)
	}
}

func TestRegionErrorsRetried(t *testing.T) {
	newer := &kvrpcpb.Region{Id: 7, RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: 2},
		Peers: []*kvrpcpb.Peer{{Id: 71, StoreId: 1}}}
	for _, tc := range []struct {
		name      string
		errs      []*kvrpcpb.RegionError
		wantWaits int
		wantLoads int
	}{
		{"not-leader-no-hint", []*kvrpcpb.RegionError{{NotLeader: &kvrpcpb.NotLeader{RegionId: 7}}}, 1, 2},
		{"epoch-refresh", []*kvrpcpb.RegionError{{EpochNotMatch: &kvrpcpb.EpochNotMatch{CurrentRegions: []*kvrpcpb.Region{newer}}}}, 0, 1},
		{"epoch-no-regions", []*kvrpcpb.RegionError{{EpochNotMatch: &kvrpcpb.EpochNotMatch{}}}, 1, 2},
		{"region-not-found", []*kvrpcpb.RegionError{{RegionNotFound: &kvrpcpb.RegionNotFound{RegionId: 7}}}, 1, 2},
		{"key-not-in-region", []*kvrpcpb.RegionError{{KeyNotInRegion: &kvrpcpb.KeyNotInRegion{Key: []byte("k"), RegionId: 7}}}, 1, 2},
		{"server-busy-twice", []*kvrpcpb.RegionError{{ServerIsBusy: &kvrpcpb.ServerIsBusy{}}, {ServerIsBusy: &kvrpcpb.ServerIsBusy{}}}, 2, 1},
		{"max-ts-not-synced", []*kvrpcpb.RegionError{{MaxTimestampNotSynced: &kvrpcpb.MaxTimestampNotSynced{}}}, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, cl := newTwoStores()
			cl["store1"].script = tc.errs
			sl := &recordSleeper{}
			s := NewRegionRequestSender(NewRegionCache(src), cl)
			resp, err := get(t, s, NewBackofferWithSleeper(context.Background(), 10000, sl.sleep))
			if err != nil || string(resp.Value) != "v1" {
				t.Fatalf("got %v, %v", resp, err)
			}
			if len(sl.waits) != tc.wantWaits {
				t.Errorf("waits %v, want %d", sl.waits, tc.wantWaits)
			}
			if src.loads != tc.wantLoads {
				t.Errorf("source loads %d, want %d", src.loads, tc.wantLoads)
			}
			if tc.name == "epoch-refresh" {
				if last := cl["store1"].seen[len(cl["store1"].seen)-1]; last.RegionEpoch.Version != 2 {
					t.Errorf("retry used epoch %v", last.RegionEpoch)
				}
			}
		})
	}
}

func TestBudgetExhausted(t *testing.T) {
	src, cl := newTwoStores()
	cl["store1"].always = &kvrpcpb.RegionError{ServerIsBusy: &kvrpcpb.ServerIsBusy{Reason: "busy"}}
	sl := &recordSleeper{}
	s := NewRegionRequestSender(NewRegionCache(src), cl)
	_, err := get(t, s, NewBackofferWithSleeper(context.Background(), 500, sl.sleep))
	if !errors.Is(err, kv.ErrRegionUnavailable) || !errors.Is(err, ErrBackoffExhausted) {
		t.Fatalf("err = %v, want region unavailable", err)
	}
	var total time.Duration
	for _, w := range sl.waits {
		total += w
	}
	if total > 500*time.Millisecond || total < 400*time.Millisecond {
		t.Fatalf("slept %v in %d waits, want about the 500ms budget", total, len(sl.waits))
	}
}

func TestNoSleepWhenContextDone(t *testing.T) {
	src, cl := newTwoStores()
	cl["store1"].always = &kvrpcpb.RegionError{ServerIsBusy: &kvrpcpb.ServerIsBusy{}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sl := &recordSleeper{}
	s := NewRegionRequestSender(NewRegionCache(src), cl)
	_, err := get(t, s, NewBackofferWithSleeper(ctx, 500, sl.sleep))
	if !errors.Is(err, context.Canceled) || errors.Is(err, kv.ErrRegionUnavailable) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(sl.waits) != 0 {
		t.Fatalf("slept %v with a done context", sl.waits)
	}
}

func TestRPCErrorIsNoReply(t *testing.T) {
	src, cl := newTwoStores()
	boom := errors.New("connection reset")
	cl["store1"].rpcErr = boom
	s := NewRegionRequestSender(NewRegionCache(src), cl)
	_, err := get(t, s, NewBackoffer(context.Background(), 100))
	var se *SendError
	if !errors.Is(err, ErrNoReply) || !errors.Is(err, boom) || !errors.As(err, &se) || se.Addr != "store1" {
		t.Fatalf("err = %v, want *SendError wrapping the transport error", err)
	}
}

func TestStoreUnreachableRelocates(t *testing.T) {
	src, cl := newTwoStores()
	src.leader = &kvrpcpb.Peer{Id: 79, StoreId: 9} // no such store
	sl := &recordSleeper{}
	s := NewRegionRequestSender(NewRegionCache(src), cl)
	_, err := get(t, s, NewBackofferWithSleeper(context.Background(), 50, sl.sleep))
	if !errors.Is(err, kv.ErrRegionUnavailable) {
		t.Fatalf("err = %v", err)
	}
	if src.loads < 2 {
		t.Fatalf("region reloaded %d times, want a reload after each unreachable store", src.loads)
	}
}
