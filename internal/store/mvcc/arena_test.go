package mvcc

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/strata-db/strata/internal/codec"
)

// TestArenaSlicesStayIntact checks that the slices an arena hands out keep
// their contents across block changes and that appending to one does not
// write into the next.
func TestArenaSlicesStayIntact(t *testing.T) {
	var a arena
	var got, want [][]byte
	for i := 0; i < 5000; i++ {
		v := bytes.Repeat([]byte{byte(i)}, i%300)
		if i%2 == 0 {
			want = append(want, v)
			got = append(got, a.copy(v))
			continue
		}
		k := []byte(fmt.Sprintf("key-%d", i))
		rest, dec, err := a.decodeBytes(append(codec.EncodeBytes(nil, k), 1, 2))
		if err != nil || !bytes.Equal(rest, []byte{1, 2}) {
			t.Fatalf("decodeBytes %q: rest %v, %v", k, rest, err)
		}
		want = append(want, k)
		got = append(got, dec)
	}
	for _, g := range got {
		_ = append(g, 0xEE) // must not land in the next slice
	}
	for i := range got {
		if !bytes.Equal(got[i], want[i]) {
			t.Fatalf("slice %d = %v, want %v", i, got[i], want[i])
		}
	}
	if a.copy(nil) != nil {
		t.Fatal("copy(nil) is not nil")
	}
	if _, _, err := a.decodeBytes([]byte{1, 2}); err == nil {
		t.Fatal("decodeBytes of a truncated encoding succeeded")
	}
}
