package txnclient

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestScanPagesGrowAndPrefetch: a scan over three regions asks for pages
// that double from ScanBatchSize up to MaxScanBatchSize, reads ahead in
// the background from its second page on, and still returns every pair
// once and in order, forward and reverse; a scan closed with a page read
// ahead returns cleanly.
func TestScanPagesGrowAndPrefetch(t *testing.T) {
	opts := Options{ScanBatchSize: 2, MaxScanBatchSize: 8}
	_, s, c := newSplitCluster(t, opts, "k040", "k120")
	var kvs, want []string
	for i := 0; i < 200; i++ {
		k := fmt.Sprintf("k%03d", i)
		kvs = append(kvs, k, "v"+k)
		want = append(want, k+"=v"+k)
	}
	put(t, c, kvs...)
	r := begin(t, c)

	s.mu.Lock()
	s.scanLimits = nil
	s.mu.Unlock()
	if got := iterString(t, r, "", "", false); got != strings.Join(want, " ") {
		t.Fatalf("forward scan: %s", got)
	}
	s.mu.Lock()
	limits := slices.Clone(s.scanLimits)
	s.mu.Unlock()
	if len(limits) < 4 || limits[0] != 2 || limits[1] != 4 || limits[2] != 8 || slices.Max(limits) != 8 {
		t.Fatalf("page sizes %v: want 2, 4, 8, then at most 8", limits)
	}
	// 200 pairs: 2+4+8 then pages of 8, plus the region ends.
	if len(limits) > 2+200/8+3 {
		t.Fatalf("%d pages for 200 pairs: %v", len(limits), limits)
	}

	slices.Reverse(want)
	if got := iterString(t, r, "", "", true); got != strings.Join(want, " ") {
		t.Fatalf("reverse scan: %s", got)
	}

	// The first page is read on demand; from the second on, the next
	// page is already on its way when the caller gets one.
	sc, err := newScanner(context.Background(), r.snap, []byte("k000"), nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if sc.pending != nil {
		t.Fatal("the first page started a read ahead")
	}
	for i := 0; i < 2; i++ {
		if err := sc.Next(); err != nil {
			t.Fatal(err)
		}
	}
	if string(sc.Key()) != "k002" || sc.pending == nil {
		t.Fatalf("on the second page (%s): no read ahead", sc.Key())
	}
	sc.Close()

	// Close with a page in flight, many times over (run with -race).
	for i := 0; i < 50; i++ {
		it, err := r.Iter(context.Background(), []byte("k000"), nil)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < 2+4+i%5 && it.Valid(); n++ {
			if err := it.Next(); err != nil {
				t.Fatal(err)
			}
		}
		if !it.Valid() || string(it.Key()) != fmt.Sprintf("k%03d", 6+i%5) {
			t.Fatalf("after %d steps: valid %v", 6+i%5, it.Valid())
		}
		it.Close()
	}
}
