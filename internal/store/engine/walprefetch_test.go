package engine

import (
	"bytes"
	"io"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// prefetchLog records how far a file was prefetched at each Write, and
// prefetches that did not start where the previous one ended.
type prefetchLog struct {
	vfs.File
	gaps int
	// fetched[i] is the end of the prefetched range when write i came.
	fetched []int64
	end     int64
}

func (l *prefetchLog) Prefetch(off, n int64) error {
	if off != l.end {
		l.gaps++
	}
	l.end = off + n
	return nil
}

func (l *prefetchLog) Write(p []byte) (int, error) {
	l.fetched = append(l.fetched, l.end)
	return l.File.Write(p)
}

func TestWALPrefetchAheadOfWriter(t *testing.T) {
	fs := vfs.NewMem()
	inner, err := fs.Create("log", vfs.WriteCategoryUnspecified)
	if err != nil {
		t.Fatal(err)
	}
	log := &prefetchLog{File: inner}
	f := &walPrefetchFile{File: log}
	var want bytes.Buffer
	off := int64(0)
	for i, n := range []int{100, 4096, 1, 300 << 10, 3 << 20, 7} {
		p := bytes.Repeat([]byte{byte(i + 1)}, n)
		if w, err := f.Write(p); err != nil || w != n {
			t.Fatalf("write %d: %d, %v", i, w, err)
		}
		want.Write(p)
		off += int64(n)
		got := log.fetched[i]
		if got < off+walPrefetchAhead {
			t.Fatalf("write %d ending at %d: prefetched only to %d, want %d ahead", i, off, got, walPrefetchAhead)
		}
		if got >= off+walPrefetchAhead+walPrefetchChunk {
			t.Fatalf("write %d ending at %d: prefetched to %d, more than a chunk past %d ahead", i, off, got, walPrefetchAhead)
		}
	}
	if log.gaps != 0 {
		t.Fatalf("%d prefetches did not start where the previous one ended", log.gaps)
	}
	r, err := fs.Open("log")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("file holds %d bytes (%v), want the %d written", len(got), err, want.Len())
	}
}

func TestWALPrefetchWrapsOnlyReusedFiles(t *testing.T) {
	fs := Options{}.SyncFS(vfs.NewMem())
	f, err := fs.Create("old", vfs.WriteCategoryUnspecified)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.(*walPrefetchFile); ok {
		t.Fatal("a created file is wrapped: it is written past its end, where no page is read")
	}
	_ = f.Close()
	g, err := fs.ReuseForWrite("old", "new", vfs.WriteCategoryUnspecified)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, ok := g.(*walPrefetchFile); !ok {
		t.Fatalf("a reused file is %T, want *walPrefetchFile", g)
	}
}
