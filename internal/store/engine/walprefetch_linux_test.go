package engine

import (
	"os"
	"path/filepath"
	"testing"
	"time"
	"unsafe"

	"github.com/cockroachdb/pebble/v2/vfs"
	"golang.org/x/sys/unix"
)

// resident counts the pages of name's first n bytes in the page cache.
func resident(t *testing.T, name string, n int) int {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := unix.Mmap(int(f.Fd()), 0, n, unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(m)
	vec := make([]byte, (n+os.Getpagesize()-1)/os.Getpagesize())
	if _, _, e := unix.Syscall(unix.SYS_MINCORE, uintptr(unsafe.Pointer(&m[0])), uintptr(n), uintptr(unsafe.Pointer(&vec[0]))); e != 0 {
		t.Fatal(e)
	}
	c := 0
	for _, v := range vec {
		c += int(v & 1)
	}
	return c
}

// TestWALPrefetchReachesTheDisk reuses a file whose pages were dropped
// from the page cache, through the file system the engines use (the
// io_uring layer included), and waits for the pages ahead of the first
// write to be read in by the prefetch.
func TestWALPrefetchReachesTheDisk(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "000001.log")
	const size = 4 << 20
	if err := os.WriteFile(old, make([]byte, size), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(old, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	ahead := walPrefetchAhead / os.Getpagesize()
	if n := resident(t, old, walPrefetchAhead); n == ahead {
		t.Skipf("%s keeps its pages cached after FADV_DONTNEED (tmpfs?): nothing to observe", dir)
	}

	fs := Options{IOUringSync: true}.SyncFS(vfs.Default)
	name := filepath.Join(dir, "000002.log")
	w, err := fs.ReuseForWrite(old, name, vfs.WriteCategoryUnspecified)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Write([]byte("record")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := resident(t, name, walPrefetchAhead)
		if n == ahead {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of the %d pages ahead of the writer are cached 10s after its first write", n, ahead)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
