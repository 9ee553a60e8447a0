package kvrpcpb

import (
	"errors"
	"fmt"
	"testing"

	"github.com/strata-db/strata/internal/kv"
)

// TestKeyErrorRoundTrip checks that every error kind keeps its identity
// across the wire form.
func TestKeyErrorRoundTrip(t *testing.T) {
	cases := []struct {
		err  error
		want error
	}{
		{&kv.LockedError{Lock: kv.LockInfo{Key: []byte("k"), Primary: []byte("p"), StartTS: 5, Type: kv.LockTypeDelete}}, kv.ErrKeyIsLocked},
		{&kv.WriteConflictError{StartTS: 1, ConflictStartTS: 2, ConflictCommitTS: 3, Key: []byte("k")}, kv.ErrWriteConflict},
		{&kv.AlreadyExistError{Key: []byte("k")}, kv.ErrAlreadyExist},
		{&kv.TxnNotFoundError{StartTS: 1}, kv.ErrTxnNotFound},
		{&kv.CommitTsExpiredError{StartTS: 1, MinCommitTS: 9}, kv.ErrCommitTsExpired},
		{&kv.CommitTsTooLargeError{CommitTS: 9}, kv.ErrCommitTsTooLarge},
		{&kv.TxnLockNotFoundError{Key: []byte("k")}, kv.ErrTxnLockNotFound},
		{&kv.InvalidTxnTsoError{StartTS: 2, CommitTS: 1}, kv.ErrInvalidTxnTso},
		{kv.ValidateKey(nil), kv.ErrInvalidKey},
		{kv.ValidateRange([]byte("b"), []byte("a")), kv.ErrInvalidRange},
		{kv.InvalidArgumentf("no mutations"), kv.ErrInvalidArgument},
		{kv.ErrNotSupported, kv.ErrNotSupported},
		{&kv.DeadlockError{LockTS: 3, LockKey: []byte("k")}, kv.ErrDeadlock},
		{fmt.Errorf("%w: key=\"k\"", kv.ErrPessimisticLockNotFound), kv.ErrPessimisticLockNotFound},
	}
	for _, c := range cases {
		got := KeyErrorFrom(c.err).Err()
		if !errors.Is(got, c.want) {
			t.Errorf("%v: round trip gave %v, not %v", c.err, got, c.want)
		}
	}
	var le *kv.LockedError
	if !errors.As(KeyErrorFrom(cases[0].err).Err(), &le) || le.Lock.StartTS != 5 || le.Lock.Type != kv.LockTypeDelete || string(le.Lock.Primary) != "p" {
		t.Errorf("lock details lost: %+v", le)
	}
	if KeyErrorFrom(nil) != nil || (*KeyError)(nil).Err() != nil {
		t.Error("nil must map to nil")
	}
}
