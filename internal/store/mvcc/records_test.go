package mvcc

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/strata-db/strata/internal/kv"
)

func TestLockRoundTrip(t *testing.T) {
	locks := []*Lock{
		{Type: kv.LockTypePut, Primary: []byte("p"), StartTS: 10, TTL: 3000, ShortValue: []byte("v"), HasValue: true},
		{Type: kv.LockTypePut, Primary: []byte("p"), StartTS: 10, TTL: 3000, ShortValue: []byte{}, HasValue: true},
		{Type: kv.LockTypeDelete, Primary: []byte("p"), StartTS: 1 << 60, TTL: 1, ForUpdateTS: 11, TxnSize: 3, MinCommitTS: 12},
		{Type: kv.LockTypeLock, Primary: []byte("p"), StartTS: 10, UseAsyncCommit: true, Secondaries: [][]byte{[]byte("a"), []byte("bb")}, RollbackTS: []uint64{5, 7}},
		{Type: kv.LockTypePessimistic, Primary: []byte("p"), StartTS: 10, UseAsyncCommit: true},
	}
	for _, l := range locks {
		enc := l.Encode(nil)
		got, err := DecodeLock(enc)
		if err != nil || !reflect.DeepEqual(got, l) {
			t.Errorf("round trip of %+v: %+v %v", l, got, err)
		}
		// Unknown trailing tags are ignored (forward compatibility).
		got, err = DecodeLock(append(enc, 'z', 1, 2, 3))
		if err != nil || !reflect.DeepEqual(got, l) {
			t.Errorf("unknown tag after %+v: %+v %v", l, got, err)
		}
		// Truncations are errors or a shorter valid record, never panics.
		for i := 0; i < len(enc); i++ {
			_, _ = DecodeLock(enc[:i])
		}
	}
	if _, err := DecodeLock([]byte{'X'}); err == nil {
		t.Error("bad lock type decoded")
	}
}

func TestWriteRoundTrip(t *testing.T) {
	writes := []*Write{
		{Type: WriteTypePut, StartTS: 10, ShortValue: []byte("v"), HasValue: true},
		{Type: WriteTypePut, StartTS: 10},
		{Type: WriteTypeDelete, StartTS: 10, HasOverlappedRollback: true, GCFence: 99},
		{Type: WriteTypeRollback, StartTS: 10, ShortValue: []byte("p"), HasValue: true},
		{Type: WriteTypeLock, StartTS: 1 << 62},
	}
	for _, w := range writes {
		enc := w.Encode(nil)
		got, err := DecodeWrite(enc)
		if err != nil || !reflect.DeepEqual(got, w) {
			t.Errorf("round trip of %+v: %+v %v", w, got, err)
		}
		for i := 0; i < len(enc); i++ {
			_, _ = DecodeWrite(enc[:i])
		}
	}
	if !writes[3].IsProtectedRollback() || writes[1].IsProtectedRollback() {
		t.Error("IsProtectedRollback")
	}
}

func TestVersionedKeyOrder(t *testing.T) {
	// Newer versions sort first; all versions of a key sort before the next key.
	ks := [][]byte{
		WriteKey([]byte("a"), 20), WriteKey([]byte("a"), 10), WriteKey([]byte("a"), 0),
		WriteKey([]byte("a\x00"), 30), WriteKey([]byte("abcdefgh"), 5), WriteKey([]byte("abcdefgh\x00"), 5),
		WriteKey([]byte("b"), ^uint64(0)),
	}
	for i := 1; i < len(ks); i++ {
		if bytes.Compare(ks[i-1], ks[i]) >= 0 {
			t.Errorf("key %d %x >= key %d %x", i-1, ks[i-1], i, ks[i])
		}
	}
	pre, k, ts, err := DecodeVersionedKey(DataKey([]byte("abcdefghij"), 77))
	if err != nil || pre != prefixData || string(k) != "abcdefghij" || ts != 77 {
		t.Errorf("DecodeVersionedKey = %c %q %d %v", pre, k, ts, err)
	}
}
