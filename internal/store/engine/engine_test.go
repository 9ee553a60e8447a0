package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
)

func openMem(t *testing.T, sync bool) *Pebble {
	t.Helper()
	e, err := Open("db", Options{FS: vfs.NewMem(), Sync: sync, CacheSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

func TestWriteSnapshotIterate(t *testing.T) {
	ctx := context.Background()
	e := openMem(t, true)
	var b Batch
	b.Put([]byte("a"), []byte("1"))
	b.Put([]byte("b"), []byte("2"))
	b.Put([]byte("c"), []byte("3"))
	b.Delete([]byte("b"))
	if b.Len() != 4 || b.Empty() {
		t.Fatalf("Len=%d Empty=%v", b.Len(), b.Empty())
	}
	if err := e.Write(ctx, &b); err != nil {
		t.Fatal(err)
	}
	snap, err := e.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()

	// A later write is invisible to the earlier snapshot.
	var b2 Batch
	b2.Put([]byte("d"), []byte("4"))
	if err := e.Write(ctx, &b2); err != nil {
		t.Fatal(err)
	}

	if v, err := snap.Get([]byte("a")); err != nil || string(v) != "1" {
		t.Fatalf("Get(a) = %q, %v", v, err)
	}
	for _, k := range []string{"b", "d"} {
		if _, err := snap.Get([]byte(k)); !errors.Is(err, ErrNotFound) {
			t.Fatalf("Get(%s) err = %v, want ErrNotFound", k, err)
		}
	}
	it, err := snap.NewIter([]byte("a"), []byte("z"))
	if err != nil {
		t.Fatal(err)
	}
	var got string
	for ok := it.First(); ok; ok = it.Next() {
		got += fmt.Sprintf("%s=%s ", it.Key(), it.Value())
	}
	for ok := it.Last(); ok; ok = it.Prev() {
		got += fmt.Sprintf("%s ", it.Key())
	}
	if it.SeekGE([]byte("b")) {
		got += fmt.Sprintf("ge:%s ", it.Key())
	}
	if it.SeekLT([]byte("c")) {
		got += fmt.Sprintf("lt:%s", it.Key())
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if want := "a=1 c=3 c a ge:c lt:a"; got != want {
		t.Fatalf("iteration = %q, want %q", got, want)
	}
}

func TestConcurrentWrites(t *testing.T) {
	ctx := context.Background()
	e := openMem(t, true)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				var b Batch
				b.Put([]byte(fmt.Sprintf("k%d-%03d", g, i)), []byte("v"))
				if err := e.Write(ctx, &b); err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	snap, _ := e.Snapshot(ctx)
	defer snap.Close()
	it, _ := snap.NewIter(nil, nil)
	n := 0
	for ok := it.First(); ok; ok = it.Next() {
		n++
	}
	_ = it.Close()
	if n != 400 {
		t.Fatalf("found %d keys, want 400", n)
	}
}

func TestCanceledContext(t *testing.T) {
	e := openMem(t, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var b Batch
	b.Put([]byte("a"), nil)
	if err := e.Write(ctx, &b); !errors.Is(err, context.Canceled) {
		t.Fatalf("Write err = %v", err)
	}
	if _, err := e.Snapshot(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Snapshot err = %v", err)
	}
}
