//go:build linux

package syncring

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// newRing returns a ring, or skips where the kernel refuses io_uring (the
// code then runs the plain system call, which other tests cover).
func newRing(t *testing.T, entries uint32) *Ring {
	t.Helper()
	r, err := New(entries)
	if err != nil {
		t.Skipf("io_uring unavailable here: %v", err)
	}
	t.Cleanup(func() {
		if err := r.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return r
}

func TestSyncThroughRing(t *testing.T) {
	r := newRing(t, 0)
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for i := 0; i < 20; i++ {
		if _, err := f.Write([]byte("durable\n")); err != nil {
			t.Fatal(err)
		}
		if err := r.Sync(f.Fd(), i%2 == 0); err != nil {
			t.Fatalf("sync %d: %v", i, err)
		}
	}
	sub, fb := r.Stats()
	if sub != 20 || fb != 0 {
		t.Fatalf("submitted %d, fell back %d; want 20 through the ring", sub, fb)
	}
}

// A completion's error reaches the caller as the system call's would.
func TestSyncErrorFromKernel(t *testing.T) {
	r := newRing(t, 0)
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	fd := f.Fd()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	err = r.Sync(fd, true) // a closed descriptor
	if !errors.Is(err, syscall.EBADF) {
		t.Fatalf("sync of a closed fd: %v, want EBADF", err)
	}
	if sub, _ := r.Stats(); sub != 1 {
		t.Fatalf("submitted %d, want the failing sync to go through the ring", sub)
	}
}

// More concurrent syncs than the ring holds: the overflow takes the
// plain system call, every sync succeeds and none is lost.
func TestSyncOverflowFallsBack(t *testing.T) {
	r := newRing(t, 2)
	dir := t.TempDir()
	const n = 64
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("f%d", i)))
			if err != nil {
				errs <- err
				return
			}
			defer f.Close()
			if _, err := f.Write([]byte("x")); err != nil {
				errs <- err
				return
			}
			errs <- r.Sync(f.Fd(), false)
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	sub, fb := r.Stats()
	if sub+fb != n {
		t.Fatalf("submitted %d + fell back %d != %d syncs", sub, fb, n)
	}
	if sub == 0 {
		t.Fatalf("no sync went through the ring")
	}
}

// Many goroutines syncing through a small ring at once, round after
// round: the reaper must hand every completion over (a missed one
// leaves its Sync waiting forever, which the deadline reports).
func TestSyncNoLostCompletion(t *testing.T) {
	r := newRing(t, 4)
	dir := t.TempDir()
	const workers, rounds = 8, 100
	errs := make(chan error, workers)
	for i := 0; i < workers; i++ {
		go func(i int) {
			f, err := os.Create(filepath.Join(dir, fmt.Sprintf("f%d", i)))
			if err != nil {
				errs <- err
				return
			}
			defer f.Close()
			for j := 0; j < rounds; j++ {
				if _, err := f.Write([]byte("x")); err != nil {
					errs <- err
					return
				}
				if err := r.Sync(f.Fd(), true); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}(i)
	}
	deadline := time.After(2 * time.Minute)
	for i := 0; i < workers; i++ {
		select {
		case err := <-errs:
			if err != nil {
				t.Fatal(err)
			}
		case <-deadline:
			t.Fatalf("%d of %d workers still wait for a sync after 2 minutes: a completion was lost", workers-i, workers)
		}
	}
	if sub, fb := r.Stats(); sub+fb != workers*rounds || sub == 0 {
		t.Fatalf("submitted %d + fell back %d, want %d with some through the ring", sub, fb, workers*rounds)
	}
}

// After Close, syncs still work, as plain system calls.
func TestSyncAfterClose(t *testing.T) {
	r, err := New(0)
	if err != nil {
		t.Skipf("io_uring unavailable here: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := r.Sync(f.Fd(), true); err != nil {
		t.Fatal(err)
	}
	if sub, fb := r.Stats(); sub != 0 || fb != 1 {
		t.Fatalf("submitted %d, fell back %d; want the plain call", sub, fb)
	}
}

// Pebble over a wrapped file system: its synced writes' WAL fsyncs go
// through the ring, and what was written reads back after a reopen.
func TestPebbleOverRingFS(t *testing.T) {
	r := newRing(t, 0)
	dir := t.TempDir()
	db, err := pebble.Open(dir, &pebble.Options{FS: WrapFS(vfs.Default, r)})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := r.Stats()
	for i := 0; i < 10; i++ {
		if err := db.Set([]byte{byte('a' + i)}, []byte("v"), pebble.Sync); err != nil {
			t.Fatal(err)
		}
	}
	after, _ := r.Stats()
	if after-before < 10 {
		t.Fatalf("%d syncs through the ring for 10 synced writes", after-before)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = pebble.Open(dir, &pebble.Options{FS: WrapFS(vfs.Default, r)})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := 0; i < 10; i++ {
		v, c, err := db.Get([]byte{byte('a' + i)})
		if err != nil {
			t.Fatalf("key %c after reopen: %v", 'a'+i, err)
		}
		if string(v) != "v" {
			t.Fatalf("key %c = %q", 'a'+i, v)
		}
		c.Close()
	}
}

// A file system without descriptors (in memory) is passed through.
func TestMemFSUnwrapped(t *testing.T) {
	r := newRing(t, 0)
	fs := WrapFS(vfs.NewMem(), r)
	f, err := fs.Create("f", vfs.WriteCategoryUnspecified)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.(*ringFile); ok {
		t.Fatalf("in-memory file wrapped")
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	if sub, fb := r.Stats(); sub+fb != 0 {
		t.Fatalf("in-memory sync reached the ring: %d, %d", sub, fb)
	}
}

// benchSync writes a 4 KiB block and syncs it, b.N times, with sync.
func benchSync(b *testing.B, sync func(fd uintptr) error) {
	f, err := os.Create(filepath.Join(b.TempDir(), "f"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := f.Write(block); err != nil {
			b.Fatal(err)
		}
		if err := sync(f.Fd()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSync compares a write and fdatasync through the ring with the
// plain system call: the ring's cost is the price of not holding a P.
func BenchmarkSync(b *testing.B) {
	b.Run("ring", func(b *testing.B) {
		r, err := New(0)
		if err != nil {
			b.Skipf("io_uring unavailable here: %v", err)
		}
		defer r.Close()
		benchSync(b, func(fd uintptr) error { return r.Sync(fd, true) })
	})
	b.Run("direct", func(b *testing.B) {
		benchSync(b, func(fd uintptr) error { return directSync(fd, true) })
	})
}

// An operation the ring refuses with EINVAL (here: fsync of a pipe) is
// retried as the system call, whose answer the caller gets.
func TestSyncEINVALRetriedDirect(t *testing.T) {
	r := newRing(t, 0)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	err = r.Sync(pw.Fd(), true)
	if !errors.Is(err, syscall.EINVAL) {
		t.Fatalf("sync of a pipe: %v, want EINVAL", err)
	}
	if sub, fb := r.Stats(); sub != 1 || fb != 1 {
		t.Fatalf("submitted %d, fell back %d; want 1 and 1", sub, fb)
	}
}
