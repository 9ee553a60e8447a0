package txnclient

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

var errLost = errors.New("connection lost")

// faultStore wraps a StoreAPI: it counts calls, can lose replies (the
// request runs, the answer never arrives) and can answer region errors.
type faultStore struct {
	rpc.StoreAPI
	mu                 sync.Mutex
	calls              map[string]int
	losePrewriteReply  bool
	loseCommitReply    bool
	regionErrPrewrite  int // answer this many prewrites with EpochNotMatch
	regionErrCommit    int // answer this many commits with NotLeader
	expireCommit       int // answer this many commits with CommitTsExpired
	expiredMin         uint64
	region             *kvrpcpb.Region
	prewriteOnePCAsked bool
}

func (f *faultStore) count(name string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls == nil {
		f.calls = map[string]int{}
	}
	f.calls[name]++
}

func (f *faultStore) n(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[name]
}

func (f *faultStore) KvPrewrite(ctx context.Context, req *kvrpcpb.PrewriteRequest) (*kvrpcpb.PrewriteResponse, error) {
	f.count("prewrite")
	f.mu.Lock()
	f.prewriteOnePCAsked = f.prewriteOnePCAsked || req.TryOnePc
	if f.regionErrPrewrite > 0 {
		f.regionErrPrewrite--
		f.mu.Unlock()
		return &kvrpcpb.PrewriteResponse{RegionError: &kvrpcpb.RegionError{
			EpochNotMatch: &kvrpcpb.EpochNotMatch{CurrentRegions: []*kvrpcpb.Region{f.region}}}}, nil
	}
	lose := f.losePrewriteReply
	f.mu.Unlock()
	resp, err := f.StoreAPI.KvPrewrite(ctx, req)
	if lose {
		return nil, errLost
	}
	return resp, err
}

func (f *faultStore) KvCommit(ctx context.Context, req *kvrpcpb.CommitRequest) (*kvrpcpb.CommitResponse, error) {
	f.count("commit")
	f.mu.Lock()
	if f.regionErrCommit > 0 {
		f.regionErrCommit--
		f.mu.Unlock()
		return &kvrpcpb.CommitResponse{RegionError: &kvrpcpb.RegionError{
			NotLeader: &kvrpcpb.NotLeader{RegionId: f.region.Id}}}, nil
	}
	if f.expireCommit > 0 {
		f.expireCommit--
		f.expiredMin = req.CommitVersion + 3
		f.mu.Unlock()
		return &kvrpcpb.CommitResponse{Error: &kvrpcpb.KeyError{CommitTsExpired: &kvrpcpb.CommitTsExpired{
			StartTs: req.StartVersion, AttemptedCommitTs: req.CommitVersion, Key: req.Keys[0], MinCommitTs: f.expiredMin}}}, nil
	}
	lose := f.loseCommitReply
	f.mu.Unlock()
	resp, err := f.StoreAPI.KvCommit(ctx, req)
	if lose {
		return nil, errLost
	}
	return resp, err
}

func (f *faultStore) KvGet(ctx context.Context, req *kvrpcpb.GetRequest) (*kvrpcpb.GetResponse, error) {
	f.count("read")
	return f.StoreAPI.KvGet(ctx, req)
}

func (f *faultStore) KvBatchGet(ctx context.Context, req *kvrpcpb.BatchGetRequest) (*kvrpcpb.BatchGetResponse, error) {
	f.count("read")
	return f.StoreAPI.KvBatchGet(ctx, req)
}

func (f *faultStore) KvPessimisticLock(ctx context.Context, req *kvrpcpb.PessimisticLockRequest) (*kvrpcpb.PessimisticLockResponse, error) {
	f.count("lock")
	for range req.Mutations {
		f.count("locked key")
	}
	return f.StoreAPI.KvPessimisticLock(ctx, req)
}

func (f *faultStore) KvBatchRollback(ctx context.Context, req *kvrpcpb.BatchRollbackRequest) (*kvrpcpb.BatchRollbackResponse, error) {
	f.count("rollback")
	return f.StoreAPI.KvBatchRollback(ctx, req)
}

func newFaulty(t *testing.T, opts Options) (*cluster, *faultStore, *Client) {
	cl := newCluster(t)
	f := &faultStore{StoreAPI: cl.store, region: cl.region}
	return cl, f, cl.clientVia(f, opts)
}

func commitPQ(t *testing.T, c *Client) (*Txn, error) {
	tx := begin(t, c)
	_ = tx.Set(kv.Key("p"), []byte("p1"))
	_ = tx.Set(kv.Key("q"), []byte("q1"))
	return tx, tx.Commit(context.Background())
}

func TestUndeterminedPrimaryCommit(t *testing.T) {
	cl, f, c := newFaulty(t, Options{})
	f.loseCommitReply = true
	_, err := commitPQ(t, c)
	if !errors.Is(err, kv.ErrResultUndetermined) || !errors.Is(err, locate.ErrNoReply) {
		t.Fatalf("lost primary commit reply: %v, want undetermined", err)
	}
	if n := f.n("rollback"); n != 0 {
		t.Fatalf("undetermined commit sent %d rollbacks", n)
	}
	// it did commit: a reader rolls the secondary forward
	if got := get(t, begin(t, cl.client(Options{})), "q"); got != "q1" {
		t.Fatalf("q = %s", got)
	}
}

func TestUndeterminedAsyncAnd1PCPrewrite(t *testing.T) {
	for _, m := range modes[1:] {
		t.Run(m.name, func(t *testing.T) {
			_, f, c := newFaulty(t, m.opts)
			f.losePrewriteReply = true
			_, err := commitPQ(t, c)
			if !errors.Is(err, kv.ErrResultUndetermined) {
				t.Fatalf("lost %s prewrite reply: %v, want undetermined", m.name, err)
			}
			if n := f.n("rollback"); n != 0 {
				t.Fatalf("undetermined commit sent %d rollbacks", n)
			}
		})
	}
}

func TestLost2PCPrewriteReplyCleansUp(t *testing.T) {
	cl, f, c := newFaulty(t, Options{})
	f.losePrewriteReply = true
	_, err := commitPQ(t, c)
	if err == nil || errors.Is(err, kv.ErrResultUndetermined) || !errors.Is(err, locate.ErrNoReply) {
		t.Fatalf("lost 2PC prewrite reply: %v, want a plain failure", err)
	}
	if f.n("rollback") == 0 {
		t.Fatal("no cleanup after a failed 2PC prewrite")
	}
	for _, k := range []string{"p", "q"} {
		if cl.locked(k) {
			t.Fatalf("%s still locked", k)
		}
	}
}

func TestCommitAcrossRegionErrors(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			cl, f, c := newFaulty(t, m.opts)
			f.regionErrPrewrite, f.regionErrCommit = 1, 1
			tx, err := commitPQ(t, c)
			if err != nil {
				t.Fatal(err)
			}
			_ = c.Close() // wait for background commits
			if got := get(t, begin(t, cl.client(Options{})), "q"); got != "q1" {
				t.Fatalf("q = %s", got)
			}
			if tx.CommitTS() <= tx.StartTS() {
				t.Fatalf("commit ts %d", tx.CommitTS())
			}
		})
	}
}

// TestProtocolChosen checks which RPCs each protocol sends.
func TestProtocolChosen(t *testing.T) {
	for _, tc := range []struct {
		mode       mode
		commits    int
		onePCAsked bool
	}{
		{modes[0], 1, false}, // 2PC: the primary's batch holds both keys
		{modes[1], 1, false}, // async: one background commit of all keys
		{modes[2], 0, true},  // 1PC: no commit at all
	} {
		t.Run(tc.mode.name, func(t *testing.T) {
			cl, f, c := newFaulty(t, tc.mode.opts)
			tx, err := commitPQ(t, c)
			if err != nil {
				t.Fatal(err)
			}
			_ = c.Close()
			if f.prewriteOnePCAsked != tc.onePCAsked {
				t.Errorf("try_one_pc = %v", f.prewriteOnePCAsked)
			}
			if got := f.n("commit"); got != tc.commits {
				t.Errorf("%d commit RPCs, want %d", got, tc.commits)
			}
			if tc.mode.name != "2pc" {
				// calculated commit ts: above the linearizability ts taken after start
				if tx.CommitTS() <= tx.StartTS()+1 {
					t.Errorf("commit ts %d, start %d", tx.CommitTS(), tx.StartTS())
				}
			}
			if got := get(t, begin(t, cl.client(Options{})), "p"); got != "p1" {
				t.Fatalf("p = %s", got)
			}
		})
	}
}

func TestCommitTsExpiredRetried(t *testing.T) {
	cl, f, c := newFaulty(t, Options{})
	f.expireCommit = 1
	tx, err := commitPQ(t, c)
	if err != nil {
		t.Fatal(err)
	}
	if tx.CommitTS() < f.expiredMin || f.n("commit") != 2 {
		t.Fatalf("commit ts %d after CommitTsExpired(min %d), %d commit RPCs", tx.CommitTS(), f.expiredMin, f.n("commit"))
	}
	if got := get(t, begin(t, cl.client(Options{})), "q"); got != "q1" {
		t.Fatalf("q = %s", got)
	}
}
