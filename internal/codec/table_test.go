package codec

import (
	"bytes"
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/strata-db/strata/internal/types"
)

func TestRecordKeys(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	ids := []int64{math.MinInt64, -1, 0, 1, 42, math.MaxInt64}
	for i := 0; i < 2000; i++ {
		tid, h1, h2 := ids[rng.Intn(len(ids))], rng.Int63n(200)-100, rng.Int63n(200)-100
		k1, k2 := TableRecordKey(tid, h1), TableRecordKey(tid, h2)
		if sign(bytes.Compare(k1, k2)) != sign(int(h1-h2)) {
			t.Fatalf("handles %d, %d out of order", h1, h2)
		}
		gt, gh, err := DecodeRecordKey(k1)
		if err != nil || gt != tid || gh != h1 || !IsRecordKey(k1) {
			t.Fatalf("DecodeRecordKey: %d %d %v", gt, gh, err)
		}
		if !bytes.HasPrefix(k1, TableRecordPrefix(tid)) || !bytes.HasPrefix(k1, TablePrefix(tid)) {
			t.Fatal("prefix")
		}
		if end := PrefixEnd(TableRecordPrefix(tid)); bytes.Compare(k1, end) >= 0 {
			t.Fatalf("%x not below PrefixEnd %x", k1, end)
		}
		if !bytes.Equal(AppendTableRecordKey(nil, tid, h1), k1) {
			t.Fatal("AppendTableRecordKey")
		}
	}
	// Rows of table 1 sort before rows of table 2 and after its indexes.
	if bytes.Compare(TableRecordKey(1, math.MaxInt64), TableRecordKey(2, math.MinInt64)) >= 0 {
		t.Fatal("tables out of order")
	}
	if bytes.Compare(TableIndexKey(1, math.MaxInt64, nil), TableRecordKey(1, math.MinInt64)) >= 0 {
		t.Fatal("'_i' should sort before '_r'")
	}
	if _, _, err := DecodeRecordKey([]byte("t12345")); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("short record key: %v", err)
	}
}

func TestIndexKeys(t *testing.T) {
	vals := EncodeKey(nil, types.NewIntDatum(7), types.NewStringDatum("abc"))
	k := TableIndexKeyWithHandle(5, 2, vals, -9)
	tid, iid, rest, err := DecodeIndexKey(k)
	if err != nil || tid != 5 || iid != 2 {
		t.Fatalf("DecodeIndexKey: %d %d %v", tid, iid, err)
	}
	h, err := DecodeIndexHandle(rest, 2)
	if err != nil || h != -9 {
		t.Fatalf("DecodeIndexHandle = %d, %v", h, err)
	}
	head, _, err := CutDatums(rest, 2)
	if err != nil || !bytes.Equal(head, vals) {
		t.Fatalf("CutDatums: %x %v", head, err)
	}
	if !bytes.HasPrefix(k, IndexPrefix(5, 2)) || !bytes.Equal(TableIndexKey(5, 2, vals), k[:len(k)-9]) {
		t.Fatal("index prefix")
	}
	// A range scan of value 7 covers every handle.
	lo := TableIndexKey(5, 2, EncodeKey(nil, types.NewIntDatum(7)))
	hi := PrefixEnd(lo)
	if bytes.Compare(k, lo) < 0 || bytes.Compare(k, hi) >= 0 {
		t.Fatal("index entry outside its value's range")
	}
	if _, _, _, err := DecodeIndexKey(TableRecordKey(5, 1)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("record key decoded as index key: %v", err)
	}
}

func TestMetaKeys(t *testing.T) {
	k := MetaHashKey([]byte("DB:1"), []byte("Table:7"))
	name, field, err := DecodeMetaHashKey(k)
	if err != nil || string(name) != "DB:1" || string(field) != "Table:7" {
		t.Fatalf("DecodeMetaHashKey: %q %q %v", name, field, err)
	}
	if !bytes.HasPrefix(k, MetaHashPrefix([]byte("DB:1"))) || bytes.HasPrefix(k, MetaHashPrefix([]byte("DB:10"))) {
		t.Fatal("hash prefix")
	}
	if bytes.Compare(MetaKey([]byte("zzz")), TablePrefix(math.MinInt64)) >= 0 {
		t.Fatal("meta keys must sort below table keys")
	}
	if _, _, err := DecodeMetaHashKey(MetaKey([]byte("x"))); err == nil {
		t.Fatal("string key decoded as hash key")
	}
	if PrefixEnd([]byte{0xFF, 0xFF}) != nil || !bytes.Equal(PrefixEnd([]byte{1, 0xFF}), []byte{2}) {
		t.Fatal("PrefixEnd")
	}
}
