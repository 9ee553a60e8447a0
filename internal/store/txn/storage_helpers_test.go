package txn

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// hookEngine wraps an engine: it counts writes and, when blockWrites is
// set, parks every Write until the test releases it.
type hookEngine struct {
	engine.Engine
	writes      atomic.Int64
	blockWrites atomic.Bool
	entered     chan struct{} // a blocked Write arrived
	release     chan struct{} // let one blocked Write go on
}

func (e *hookEngine) Write(ctx context.Context, b *engine.Batch) error {
	e.writes.Add(1)
	if e.blockWrites.Load() {
		e.entered <- struct{}{}
		<-e.release
	}
	return e.Engine.Write(ctx, b)
}

func newTestStorage(t testing.TB, o Options) (*Storage, *hookEngine) {
	t.Helper()
	p, err := engine.Open("", mvcc.WithKeySplit(engine.Options{FS: vfs.NewMem()}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	he := &hookEngine{Engine: p, entered: make(chan struct{}), release: make(chan struct{})}
	return NewStorage(he, o), he
}

// engineKeys returns every engine key, printable, for "nothing written"
// checks.
func engineKeys(t testing.TB, e engine.Engine) []string {
	t.Helper()
	snap, err := e.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	it, err := snap.NewIter(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for ok := it.First(); ok; ok = it.Next() {
		out = append(out, fmt.Sprintf("%q", it.Key()))
	}
	return out
}

// fmtKeyErr prints a KeyError through its kv error, or "<nil>".
func fmtKeyErr(e *kvrpcpb.KeyError) string {
	if e == nil {
		return "<nil>"
	}
	return e.Err().Error()
}

func fmtKeyErrs(es []*kvrpcpb.KeyError) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, fmtKeyErr(e))
	}
	return strings.Join(parts, "\n")
}

var bg = context.Background()

func put(k, v string) *kvrpcpb.Mutation {
	return &kvrpcpb.Mutation{Op: kvrpcpb.Op_Put, Key: []byte(k), Value: []byte(v)}
}

func mustPrewrite(t testing.TB, s *Storage, req *kvrpcpb.PrewriteRequest) *kvrpcpb.PrewriteResponse {
	t.Helper()
	resp, err := s.KvPrewrite(bg, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Errors) > 0 {
		t.Fatalf("prewrite: %s", fmtKeyErrs(resp.Errors))
	}
	return resp
}

func mustCommit(t testing.TB, s *Storage, startTS, commitTS uint64, keys ...string) {
	t.Helper()
	resp, err := s.KvCommit(bg, &kvrpcpb.CommitRequest{StartVersion: startTS, CommitVersion: commitTS, Keys: bkeys(keys...)})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Error != nil {
		t.Fatalf("commit: %s", fmtKeyErr(resp.Error))
	}
}

func mustGet(t testing.TB, s *Storage, key string, ts uint64) string {
	t.Helper()
	resp, err := s.KvGet(bg, &kvrpcpb.GetRequest{Key: []byte(key), Version: ts})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Error != nil {
		t.Fatalf("get %s@%d: %s", key, ts, fmtKeyErr(resp.Error))
	}
	if resp.NotFound {
		return "<not found>"
	}
	return string(resp.Value)
}

func bkeys(keys ...string) [][]byte {
	out := make([][]byte, len(keys))
	for i, k := range keys {
		out[i] = []byte(k)
	}
	return out
}
