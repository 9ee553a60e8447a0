package txn

import (
	"bytes"
	"errors"
	"testing"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// TestBadInput sends malformed requests: each answers a KeyError with the
// right identity and writes nothing.
func TestBadInput(t *testing.T) {
	s, e := newTestStorage(t, Options{})
	big := bytes.Repeat([]byte("k"), kv.MaxKeySize+1)
	type tc struct {
		name string
		call func() (*kvrpcpb.KeyError, error)
		want error
	}
	one := func(es []*kvrpcpb.KeyError) *kvrpcpb.KeyError {
		if len(es) != 1 {
			t.Fatalf("want one error, got %d", len(es))
		}
		return es[0]
	}
	cases := []tc{
		{"get empty key", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvGet(bg, &kvrpcpb.GetRequest{Version: 10})
			return r.GetError(), err
		}, kv.ErrInvalidKey},
		{"batch get oversized key", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvBatchGet(bg, &kvrpcpb.BatchGetRequest{Keys: [][]byte{[]byte("a"), big}, Version: 10})
			return r.GetError(), err
		}, kv.ErrInvalidKey},
		{"scan start > end", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvScan(bg, &kvrpcpb.ScanRequest{StartKey: []byte("z"), EndKey: []byte("a"), Limit: 10, Version: 10})
			return r.GetError(), err
		}, kv.ErrInvalidRange},
		{"reverse scan start < end", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvScan(bg, &kvrpcpb.ScanRequest{StartKey: []byte("a"), EndKey: []byte("z"), Limit: 10, Version: 10, Reverse: true})
			return r.GetError(), err
		}, kv.ErrInvalidRange},
		{"scan lock start > end", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvScanLock(bg, &kvrpcpb.ScanLockRequest{StartKey: []byte("z"), EndKey: []byte("a"), MaxVersion: 10})
			return r.GetError(), err
		}, kv.ErrInvalidRange},
		{"prewrite without mutations", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{PrimaryLock: []byte("a"), StartVersion: 10})
			return one(r.GetErrors()), err
		}, kv.ErrInvalidArgument},
		{"prewrite without primary", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("a", "1")}, StartVersion: 10})
			return one(r.GetErrors()), err
		}, kv.ErrInvalidArgument},
		{"prewrite with one empty key", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("a", "1"), put("", "2")}, PrimaryLock: []byte("a"), StartVersion: 10})
			return one(r.GetErrors()), err
		}, kv.ErrInvalidKey},
		{"prewrite with oversized value", func() (*kvrpcpb.KeyError, error) {
			m := put("b", "")
			m.Value = make([]byte, kv.MaxValueSize+1)
			r, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("a", "1"), m}, PrimaryLock: []byte("a"), StartVersion: 10})
			return one(r.GetErrors()), err
		}, kv.ErrInvalidArgument},
		{"prewrite with rollback op", func() (*kvrpcpb.KeyError, error) {
			m := put("b", "")
			m.Op = kvrpcpb.Op_Rollback
			r, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{Mutations: []*kvrpcpb.Mutation{put("a", "1"), m}, PrimaryLock: []byte("a"), StartVersion: 10})
			return one(r.GetErrors()), err
		}, kv.ErrInvalidArgument},
		{"commit ts equal start ts", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvCommit(bg, &kvrpcpb.CommitRequest{Keys: bkeys("a"), StartVersion: 10, CommitVersion: 10})
			return r.GetError(), err
		}, kv.ErrInvalidTxnTso},
		{"commit with empty key", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvCommit(bg, &kvrpcpb.CommitRequest{Keys: bkeys("a", ""), StartVersion: 10, CommitVersion: 11})
			return r.GetError(), err
		}, kv.ErrInvalidKey},
		{"resolve lock commit below start", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvResolveLock(bg, &kvrpcpb.ResolveLockRequest{StartVersion: 10, CommitVersion: 5})
			return r.GetError(), err
		}, kv.ErrInvalidTxnTso},
		{"batch rollback empty key", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvBatchRollback(bg, &kvrpcpb.BatchRollbackRequest{Keys: bkeys(""), StartVersion: 10})
			return r.GetError(), err
		}, kv.ErrInvalidKey},
		{"cleanup empty key", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvCleanup(bg, &kvrpcpb.CleanupRequest{StartVersion: 10})
			return r.GetError(), err
		}, kv.ErrInvalidKey},
		{"check txn status empty primary", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvCheckTxnStatus(bg, &kvrpcpb.CheckTxnStatusRequest{LockTs: 10})
			return r.GetError(), err
		}, kv.ErrInvalidKey},
		{"check secondary locks empty key", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvCheckSecondaryLocks(bg, &kvrpcpb.CheckSecondaryLocksRequest{Keys: bkeys("a", ""), StartVersion: 10})
			return r.GetError(), err
		}, kv.ErrInvalidKey},
		{"heartbeat oversized primary", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvTxnHeartBeat(bg, &kvrpcpb.TxnHeartBeatRequest{PrimaryLock: big, StartVersion: 10})
			return r.GetError(), err
		}, kv.ErrInvalidKey},
		{"pessimistic lock without mutations", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvPessimisticLock(bg, &kvrpcpb.PessimisticLockRequest{PrimaryLock: []byte("a"), StartVersion: 10, ForUpdateTs: 10})
			return one(r.GetErrors()), err
		}, kv.ErrInvalidArgument},
		{"pessimistic lock with a put", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvPessimisticLock(bg, &kvrpcpb.PessimisticLockRequest{PrimaryLock: []byte("a"), StartVersion: 10, ForUpdateTs: 10,
				Mutations: []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: []byte("a")}}})
			return one(r.GetErrors()), err
		}, kv.ErrInvalidArgument},
		{"pessimistic lock for_update_ts below start", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvPessimisticLock(bg, &kvrpcpb.PessimisticLockRequest{PrimaryLock: []byte("a"), StartVersion: 10, ForUpdateTs: 9,
				Mutations: []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_PessimisticLock, Key: []byte("a")}}})
			return one(r.GetErrors()), err
		}, kv.ErrInvalidArgument},
		{"pessimistic lock oversized key", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvPessimisticLock(bg, &kvrpcpb.PessimisticLockRequest{PrimaryLock: []byte("a"), StartVersion: 10, ForUpdateTs: 10,
				Mutations: []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_PessimisticLock, Key: []byte("a")}, {Op: kvrpcpb.Op_PessimisticLock, Key: big}}})
			return one(r.GetErrors()), err
		}, kv.ErrInvalidKey},
		{"pessimistic rollback without keys", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvPessimisticRollback(bg, &kvrpcpb.PessimisticRollbackRequest{StartVersion: 10, ForUpdateTs: 10})
			return one(r.GetErrors()), err
		}, kv.ErrInvalidArgument},
		{"pessimistic prewrite flags mismatch", func() (*kvrpcpb.KeyError, error) {
			r, err := s.KvPrewrite(bg, &kvrpcpb.PrewriteRequest{PrimaryLock: []byte("a"), StartVersion: 10, ForUpdateTs: 10,
				Mutations: []*kvrpcpb.Mutation{{Op: kvrpcpb.Op_Put, Key: []byte("a")}}, IsPessimisticLock: []bool{true, true}})
			return one(r.GetErrors()), err
		}, kv.ErrInvalidArgument},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ke, err := c.call()
			if err != nil {
				t.Fatalf("Go error %v; key errors belong in the response", err)
			}
			if got := ke.Err(); !errors.Is(got, c.want) {
				t.Fatalf("error %v, want %v", got, c.want)
			}
		})
	}
	if n := e.writes.Load(); n != 0 {
		t.Fatalf("bad input wrote %d batches", n)
	}
	if keys := engineKeys(t, e); len(keys) != 0 {
		t.Fatalf("bad input left keys %v", keys)
	}
	if r, _ := s.Coprocessor(bg, &kvrpcpb.CoprocessorRequest{}); r.GetOtherError() == "" {
		t.Fatal("coprocessor answered without other_error")
	}
}

func TestClosedStorage(t *testing.T) {
	s, _ := newTestStorage(t, Options{})
	s.Close()
	if _, err := s.KvGet(bg, &kvrpcpb.GetRequest{Key: []byte("a"), Version: 1}); !errors.Is(err, ErrShuttingDown) {
		t.Fatalf("err = %v", err)
	}
}
