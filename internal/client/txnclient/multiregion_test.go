package txnclient

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// splitStore pretends the single-region node is split into several
// regions: it checks each request's region, epoch and keys the way a
// multi-region store would (EpochNotMatch, KeyNotInRegion), then forwards
// it to the node as region 1. It is also the RegionSource of the client.
type splitStore struct {
	rpc.StoreAPI
	node    *kvrpcpb.Context
	mu      sync.Mutex
	regions []*kvrpcpb.Region
	epochs  int // region errors answered
	// scanLimits lists the page size of every KvScan the store served.
	scanLimits []uint32
}

// split re-cuts the key space at splits; every region gets a new version.
func (s *splitStore) split(version uint64, splits ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.regions = nil
	start := ""
	for i := 0; i <= len(splits); i++ {
		end := ""
		if i < len(splits) {
			end = splits[i]
		}
		s.regions = append(s.regions, &kvrpcpb.Region{Id: uint64(100 + i), StartKey: []byte(start), EndKey: []byte(end),
			RegionEpoch: &kvrpcpb.RegionEpoch{ConfVer: 1, Version: version}, Peers: []*kvrpcpb.Peer{{Id: 1, StoreId: 1}}})
		start = end
	}
}

func inRegion(r *kvrpcpb.Region, k []byte) bool {
	return bytes.Compare(k, r.StartKey) >= 0 && (len(r.EndKey) == 0 || bytes.Compare(k, r.EndKey) < 0)
}

// check validates a request for keys against its Context.
func (s *splitStore) check(c *kvrpcpb.Context, keys ...[]byte) *kvrpcpb.RegionError {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.regions {
		if r.Id != c.GetRegionId() {
			continue
		}
		if r.RegionEpoch.Version != c.GetRegionEpoch().GetVersion() {
			s.epochs++
			return &kvrpcpb.RegionError{EpochNotMatch: &kvrpcpb.EpochNotMatch{CurrentRegions: append([]*kvrpcpb.Region(nil), s.regions...)}}
		}
		for _, k := range keys {
			if !inRegion(r, k) {
				return &kvrpcpb.RegionError{KeyNotInRegion: &kvrpcpb.KeyNotInRegion{Key: k, RegionId: r.Id}}
			}
		}
		return nil
	}
	s.epochs++
	return &kvrpcpb.RegionError{EpochNotMatch: &kvrpcpb.EpochNotMatch{CurrentRegions: append([]*kvrpcpb.Region(nil), s.regions...)}}
}

// forward rewrites the request's routing to the node's one region.
func (s *splitStore) forward(c *kvrpcpb.Context) {
	c.RegionId, c.RegionEpoch, c.Peer = s.node.RegionId, s.node.RegionEpoch, s.node.Peer
}

func mutKeys(ms []*kvrpcpb.Mutation) [][]byte {
	var out [][]byte
	for _, m := range ms {
		out = append(out, m.Key)
	}
	return out
}

func (s *splitStore) KvGet(ctx context.Context, r *kvrpcpb.GetRequest) (*kvrpcpb.GetResponse, error) {
	if e := s.check(r.Context, r.Key); e != nil {
		return &kvrpcpb.GetResponse{RegionError: e}, nil
	}
	s.forward(r.Context)
	return s.StoreAPI.KvGet(ctx, r)
}

func (s *splitStore) KvBatchGet(ctx context.Context, r *kvrpcpb.BatchGetRequest) (*kvrpcpb.BatchGetResponse, error) {
	if e := s.check(r.Context, r.Keys...); e != nil {
		return &kvrpcpb.BatchGetResponse{RegionError: e}, nil
	}
	s.forward(r.Context)
	return s.StoreAPI.KvBatchGet(ctx, r)
}

func (s *splitStore) KvScan(ctx context.Context, r *kvrpcpb.ScanRequest) (*kvrpcpb.ScanResponse, error) {
	lo, hi := r.StartKey, r.EndKey // forward: [start, end)
	if r.Reverse {
		lo, hi = r.EndKey, r.StartKey
	}
	keys := [][]byte{lo}
	if len(hi) > 0 { // hi is exclusive: check a key just below it
		keys = append(keys, prevKeyForCheck(hi))
	}
	if e := s.check(r.Context, keys...); e != nil {
		return &kvrpcpb.ScanResponse{RegionError: e}, nil
	}
	if len(hi) == 0 {
		s.mu.Lock()
		for _, reg := range s.regions {
			if reg.Id == r.Context.RegionId && len(reg.EndKey) > 0 {
				s.mu.Unlock()
				return &kvrpcpb.ScanResponse{RegionError: &kvrpcpb.RegionError{KeyNotInRegion: &kvrpcpb.KeyNotInRegion{RegionId: reg.Id}}}, nil
			}
		}
		s.mu.Unlock()
	}
	s.forward(r.Context)
	s.mu.Lock()
	s.scanLimits = append(s.scanLimits, r.Limit)
	s.mu.Unlock()
	return s.StoreAPI.KvScan(ctx, r)
}

// prevKeyForCheck returns a key inside [.., hi) close to hi for the range
// check (hi minus its last byte works for the test's single-letter splits).
func prevKeyForCheck(hi []byte) []byte {
	if hi[len(hi)-1] == 0 {
		return hi[:len(hi)-1]
	}
	p := append([]byte{}, hi...)
	p[len(p)-1]--
	return append(p, 0xff)
}

func (s *splitStore) KvPrewrite(ctx context.Context, r *kvrpcpb.PrewriteRequest) (*kvrpcpb.PrewriteResponse, error) {
	if e := s.check(r.Context, mutKeys(r.Mutations)...); e != nil {
		return &kvrpcpb.PrewriteResponse{RegionError: e}, nil
	}
	s.forward(r.Context)
	return s.StoreAPI.KvPrewrite(ctx, r)
}

func (s *splitStore) KvCommit(ctx context.Context, r *kvrpcpb.CommitRequest) (*kvrpcpb.CommitResponse, error) {
	if e := s.check(r.Context, r.Keys...); e != nil {
		return &kvrpcpb.CommitResponse{RegionError: e}, nil
	}
	s.forward(r.Context)
	return s.StoreAPI.KvCommit(ctx, r)
}

func (s *splitStore) KvBatchRollback(ctx context.Context, r *kvrpcpb.BatchRollbackRequest) (*kvrpcpb.BatchRollbackResponse, error) {
	if e := s.check(r.Context, r.Keys...); e != nil {
		return &kvrpcpb.BatchRollbackResponse{RegionError: e}, nil
	}
	s.forward(r.Context)
	return s.StoreAPI.KvBatchRollback(ctx, r)
}

func (s *splitStore) KvCheckTxnStatus(ctx context.Context, r *kvrpcpb.CheckTxnStatusRequest) (*kvrpcpb.CheckTxnStatusResponse, error) {
	if e := s.check(r.Context, r.PrimaryKey); e != nil {
		return &kvrpcpb.CheckTxnStatusResponse{RegionError: e}, nil
	}
	s.forward(r.Context)
	return s.StoreAPI.KvCheckTxnStatus(ctx, r)
}

func (s *splitStore) KvCheckSecondaryLocks(ctx context.Context, r *kvrpcpb.CheckSecondaryLocksRequest) (*kvrpcpb.CheckSecondaryLocksResponse, error) {
	if e := s.check(r.Context, r.Keys...); e != nil {
		return &kvrpcpb.CheckSecondaryLocksResponse{RegionError: e}, nil
	}
	s.forward(r.Context)
	return s.StoreAPI.KvCheckSecondaryLocks(ctx, r)
}

func (s *splitStore) KvResolveLock(ctx context.Context, r *kvrpcpb.ResolveLockRequest) (*kvrpcpb.ResolveLockResponse, error) {
	if e := s.check(r.Context, r.Keys...); e != nil {
		return &kvrpcpb.ResolveLockResponse{RegionError: e}, nil
	}
	s.forward(r.Context)
	return s.StoreAPI.KvResolveLock(ctx, r)
}

func (s *splitStore) KvTxnHeartBeat(ctx context.Context, r *kvrpcpb.TxnHeartBeatRequest) (*kvrpcpb.TxnHeartBeatResponse, error) {
	if e := s.check(r.Context, r.PrimaryLock); e != nil {
		return &kvrpcpb.TxnHeartBeatResponse{RegionError: e}, nil
	}
	s.forward(r.Context)
	return s.StoreAPI.KvTxnHeartBeat(ctx, r)
}

// RegionSource over the current split.

func (s *splitStore) RegionByKey(_ context.Context, key []byte) (*locate.RegionInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.regions {
		if inRegion(r, key) {
			return &locate.RegionInfo{Region: r, Leader: r.Peers[0], Addr: storeAddr}, nil
		}
	}
	return nil, fmt.Errorf("no region for %q", key)
}

func (s *splitStore) RegionBeforeKey(_ context.Context, key []byte) (*locate.RegionInfo, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.regions {
		last := len(r.EndKey) == 0
		if len(key) == 0 && last || len(key) > 0 && bytes.Compare(r.StartKey, key) < 0 && (last || bytes.Compare(key, r.EndKey) <= 0) {
			return &locate.RegionInfo{Region: r, Leader: r.Peers[0], Addr: storeAddr}, nil
		}
	}
	return nil, fmt.Errorf("no region before %q", key)
}

func (s *splitStore) StoreAddr(context.Context, uint64) (string, error) { return storeAddr, nil }

func newSplitCluster(t *testing.T, opts Options, splits ...string) (*cluster, *splitStore, *Client) {
	cl := newCluster(t)
	s := &splitStore{StoreAPI: cl.store, node: cl.ctx()}
	s.split(1, splits...)
	c := New(rpc.NewDirect(storeAddr, s), s, cl.oracle, opts)
	t.Cleanup(func() { _ = c.Close() })
	return cl, s, c
}

func TestMultiRegion(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			opts := m.opts
			opts.ScanBatchSize = 3
			_, _, c := newSplitCluster(t, opts, "g", "p")
			var kvs []string
			for _, k := range strings.Split("a b f g h o p q z", " ") {
				kvs = append(kvs, k, strings.ToUpper(k))
			}
			put(t, c, kvs...)
			_ = c.Close()
			r := begin(t, c)
			if got := iterString(t, r, "", "", false); got != "a=A b=B f=F g=G h=H o=O p=P q=Q z=Z" {
				t.Fatalf("forward scan: %s", got)
			}
			if got := iterString(t, r, "b", "q", true); got != "p=P o=O h=H g=G f=F b=B" {
				t.Fatalf("reverse scan: %s", got)
			}
			keys := []kv.Key{kv.Key("z"), kv.Key("a"), kv.Key("h"), kv.Key("x")}
			got, err := r.BatchGet(context.Background(), keys)
			if err != nil || len(got) != 3 || string(got["h"]) != "H" {
				t.Fatalf("BatchGet: %q %v", got, err)
			}
		})
	}
}

// TestSplitDuringCommit: the client cached one region; before the commit
// the region splits in three. Prewrite meets EpochNotMatch, regroups the
// batch by the new regions (1PC no longer possible) and commits.
func TestSplitDuringCommit(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			_, s, c := newSplitCluster(t, m.opts)
			put(t, c, "a", "0") // caches the single region
			s.split(2, "g", "p")
			put(t, c, "b", "1", "h", "1", "q", "1")
			_ = c.Close()
			if s.epochs == 0 {
				t.Fatal("no EpochNotMatch was answered")
			}
			r := begin(t, c)
			if got := iterString(t, r, "", "", false); got != "a=0 b=1 h=1 q=1" {
				t.Fatalf("after split: %s", got)
			}
		})
	}
}

// TestMultiRegionResolve: async-commit recovery and roll-forward with the
// keys spread over regions.
func TestMultiRegionResolve(t *testing.T) {
	cl, s, c := newSplitCluster(t, Options{AsyncCommit: true}, "g", "p")
	c.hooks.skipSecondaries = true
	entered, release := make(chan struct{}), make(chan struct{})
	c.hooks.afterPrewrite = func() { close(entered); <-release }
	tx := begin(t, c)
	for _, k := range []string{"a", "h", "q"} {
		_ = tx.Set(kv.Key(k), []byte("v"))
	}
	done := make(chan error, 1)
	go func() { done <- tx.Commit(context.Background()) }()
	<-entered
	// prewrites are done: the txn is committed; the coordinator "dies"
	// before committing any key, and the locks expire.
	cl.oracle.advance(10_000)
	other := New(rpc.NewDirect(storeAddr, s), s, cl.oracle, Options{})
	r := begin(t, other)
	if got := iterString(t, r, "", "", false); got != "a=v h=v q=v" {
		t.Fatalf("recovered: %s", got)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "h", "q"} {
		if cl.locked(k) {
			t.Fatalf("%s still locked", k)
		}
	}
}
