package txnclient

import (
	"fmt"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/kv"
)

// sliceIter is a kv.Iterator over fixed pairs.
type sliceIter struct {
	pairs [][2]string
	i     int
}

func (s *sliceIter) Valid() bool   { return s.i < len(s.pairs) }
func (s *sliceIter) Key() kv.Key   { return kv.Key(s.pairs[s.i][0]) }
func (s *sliceIter) Value() []byte { return []byte(s.pairs[s.i][1]) }
func (s *sliceIter) Next() error   { s.i++; return nil }
func (s *sliceIter) Close()        {}

func drain(t *testing.T, it kv.Iterator) string {
	t.Helper()
	var out []string
	for it.Valid() {
		out = append(out, fmt.Sprintf("%s=%s", it.Key(), it.Value()))
		if err := it.Next(); err != nil {
			t.Fatal(err)
		}
	}
	it.Close()
	return strings.Join(out, " ")
}

func TestUnionIter(t *testing.T) {
	buf := newMemBuffer()
	buf.set([]byte("b"), []byte("B2")) // overrides the snapshot
	buf.delete([]byte("c"))            // hides the snapshot's c
	buf.set([]byte("d"), []byte("D"))  // new key
	buf.delete([]byte("z"))            // delete of an absent key
	buf.set([]byte("0"), []byte("Z"))  // before the snapshot's keys
	snap := [][2]string{{"a", "A"}, {"b", "B"}, {"c", "C"}, {"e", "E"}}

	fwd, err := newUnionIter(&sliceIter{pairs: snap}, buf, buf.rangeKeys(nil, nil), false)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := drain(t, fwd), "0=Z a=A b=B2 d=D e=E"; got != want {
		t.Errorf("forward: got %q, want %q", got, want)
	}
	rev := make([][2]string, len(snap))
	for i := range snap {
		rev[i] = snap[len(snap)-1-i]
	}
	bwd, err := newUnionIter(&sliceIter{pairs: rev}, buf, buf.rangeKeys(nil, nil), true)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := drain(t, bwd), "e=E d=D b=B2 a=A 0=Z"; got != want {
		t.Errorf("reverse: got %q, want %q", got, want)
	}
	if got := buf.rangeKeys([]byte("b"), []byte("d")); fmt.Sprint(got) != "[b c]" {
		t.Errorf("rangeKeys(b, d) = %v", got)
	}
}

func TestMemBufferSize(t *testing.T) {
	buf := newMemBuffer()
	buf.set([]byte("k"), []byte("12345"))
	buf.set([]byte("k"), []byte("12"))
	buf.delete([]byte("j"))
	if buf.len() != 2 || buf.size() != 4 {
		t.Fatalf("len %d size %d, want 2 and 4", buf.len(), buf.size())
	}
	if fmt.Sprint(buf.sorted()) != "[j k]" {
		t.Fatalf("sorted %v", buf.sorted())
	}
}
