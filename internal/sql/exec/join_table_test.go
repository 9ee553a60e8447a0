package exec

import (
	"fmt"
	"slices"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// TestJoinTable checks the join hash table against a map of slices: every
// key's refs come back, in the order they were added, and nothing else.
func TestJoinTable(t *testing.T) {
	var jt joinTable
	for round := 0; round < 2; round++ { // the second round reuses the table
		jt.reset()
		want := map[string][]rowRef{}
		for i := 0; i < 5000; i++ {
			k := []byte(fmt.Sprintf("k%d", i*7%1300))
			if i%11 == 0 {
				k = nil // the empty key is a key too
			}
			ref := rowRef{c: int32(i / 1024), i: int32(i % 1024)}
			jt.add(k, ref)
			want[string(k)] = append(want[string(k)], ref)
		}
		for k, refs := range want {
			if got := jt.lookup([]byte(k)); !slices.Equal(got, refs) {
				t.Fatalf("key %q: %v, want %v", k, got, refs)
			}
		}
		if got := jt.lookup([]byte("missing")); len(got) != 0 {
			t.Fatalf("missing key: %v", got)
		}
		// Rows added after lookups join the groups.
		jt.add([]byte("k0"), rowRef{c: 99})
		jt.add([]byte("new"), rowRef{c: 98})
		want["k0"] = append(want["k0"], rowRef{c: 99})
		want["new"] = []rowRef{{c: 98}}
		for k, refs := range want {
			if got := jt.lookup([]byte(k)); !slices.Equal(got, refs) {
				t.Fatalf("after more adds, key %q: %v, want %v", k, got, refs)
			}
		}
	}
}

// TestRowStoreAt: a row store's i-th row, across its chunks, is the i-th
// row added (materialize, CTE reads and windows read rows by position).
func TestRowStoreAt(t *testing.T) {
	fts := []*types.FieldType{types.NewFieldType(mysql.TypeLonglong)}
	src := chunk.New(fts, 1)
	s := rowStore{fts: fts}
	const n = 2*storeChunkRows + 7
	for i := 0; i < n; i++ {
		src.Reset()
		src.AppendInt64(0, int64(i))
		if ref := s.add(src.GetRow(0)); s.get(ref).GetInt64(0) != int64(i) {
			t.Fatalf("row %d by ref: %d", i, s.get(ref).GetInt64(0))
		}
	}
	for i := 0; i < n; i++ {
		if got := s.at(i).GetInt64(0); got != int64(i) {
			t.Fatalf("row %d by position: %d", i, got)
		}
	}
}
