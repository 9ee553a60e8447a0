package txn

import (
	"errors"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
)

// TestLockIndex: point reads that skip the lock lookup for keys the index
// says are unlocked still meet every persisted lock: one just prewritten,
// one found by a Storage opened later over the same engine (a restart),
// and none after the commit.
func TestLockIndex(t *testing.T) {
	p, err := engine.Open("", mvcc.WithKeySplit(engine.Options{FS: vfs.NewMem()}))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s := NewStorage(p, Options{})
	get := func(s *Storage, key string, ts uint64) (*kvrpcpb.GetResponse, error) {
		t.Helper()
		resp, err := s.KvGet(bg, &kvrpcpb.GetRequest{Key: []byte(key), Version: ts})
		if err != nil {
			t.Fatal(err)
		}
		return resp, resp.GetError().Err()
	}
	mustPrewrite(t, s, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("a", "1"), put("b", "2")},
		PrimaryLock: []byte("a"), StartVersion: 10, LockTtl: 3000})
	for _, k := range []string{"a", "b"} {
		if _, err := get(s, k, 20); !errors.Is(err, kv.ErrKeyIsLocked) {
			t.Errorf("read of %s over a fresh lock: %v, want locked", k, err)
		}
	}
	if _, err := get(s, "c", 20); err != nil {
		t.Errorf("read of an unlocked key: %v", err)
	}
	// Scans look for locks only on the keys the index lists.
	if keys, ok := s.locks.keysIn([]byte("a"), []byte("b\x00")); !ok || len(keys) != 2 {
		t.Errorf("keys in [a, b\\x00): %q %v", keys, ok)
	}
	if keys, _ := s.locks.keysIn([]byte("b"), nil); len(keys) != 1 || string(keys[0]) != "b" {
		t.Errorf("keys from b: %q", keys)
	}
	sc, err := s.KvScan(bg, &kvrpcpb.ScanRequest{StartKey: []byte("0"), Limit: 10, Version: 20})
	if err != nil || len(sc.Pairs) != 2 || sc.Pairs[0].Error.GetLocked() == nil || sc.Pairs[1].Error.GetLocked() == nil {
		t.Errorf("scan over two locks: %v %v", sc, err)
	}
	bg2, err := s.KvBatchGet(bg, &kvrpcpb.BatchGetRequest{Keys: [][]byte{[]byte("a"), []byte("c")}, Version: 20})
	if err != nil || len(bg2.Pairs) != 1 || bg2.Pairs[0].Error.GetLocked() == nil {
		t.Errorf("batch get over a lock: %v %v", bg2, err)
	}

	// A restart: a new Storage over the same engine loads the locks.
	s2 := NewStorage(p, Options{})
	if _, err := get(s2, "b", 20); !errors.Is(err, kv.ErrKeyIsLocked) {
		t.Errorf("read after restart: %v, want locked", err)
	}
	cm, err := s2.KvCommit(bg, &kvrpcpb.CommitRequest{StartVersion: 10, CommitVersion: 15, Keys: [][]byte{[]byte("a"), []byte("b")}})
	if err != nil || cm.Error != nil {
		t.Fatalf("commit: %v %v", cm, err)
	}
	for _, k := range []string{"a", "b"} {
		if resp, err := get(s2, k, 20); err != nil || resp.NotFound {
			t.Errorf("read of %s after commit: %v %v", k, resp, err)
		}
	}
	if !s2.locks.ready || len(s2.locks.keys) != 0 || s2.locks.sorted.Len() != 0 {
		t.Errorf("index after commit: ready=%v keys=%v", s2.locks.ready, s2.locks.keys)
	}
}
