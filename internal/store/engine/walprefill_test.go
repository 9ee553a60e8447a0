package engine

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// TestWALPrefillKeepsData writes a log in pieces of random sizes through
// a prefilling file whose fills are small and frequent, so that writes
// keep meeting fills in progress: every byte written must read back, the
// file must end in zeros, and it must have been filled ahead of the
// writer.
func TestWALPrefillKeepsData(t *testing.T) {
	for _, tc := range []struct {
		name string
		fs   vfs.FS
		dir  string
	}{
		{"mem", vfs.NewMem(), ""},
		{"disk", vfs.Default, t.TempDir()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pfs := walPrefillFS{FS: tc.fs, chunk: 16 << 10, low: 8 << 10}
			name := filepath.Join(tc.dir, "000001.log")
			f, err := pfs.Create(name, walCategory)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := f.(*walPrefillFile); !ok {
				t.Fatalf("a WAL was not wrapped: %T", f)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			var want bytes.Buffer
			for i := 0; i < 2000; i++ {
				p := make([]byte, 1+rng.IntN(3000))
				for j := range p {
					p[j] = byte(1 + rng.IntN(255)) // never zero: a zero would hide a lost byte
				}
				// Before the write: vfs.File.Write may change p (Pebble's
				// MemFS does under -race).
				want.Write(p)
				if n, err := f.Write(p); err != nil || n != len(p) {
					t.Fatalf("write %d: %d, %v", i, n, err)
				}
				if i%50 == 0 {
					if err := f.Sync(); err != nil {
						t.Fatal(err)
					}
				}
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			got := readAll(t, tc.fs, name)
			if len(got) <= want.Len() {
				t.Fatalf("file has %d bytes for %d written: not prefilled ahead", len(got), want.Len())
			}
			if !bytes.Equal(got[:want.Len()], want.Bytes()) {
				t.Fatalf("the written bytes did not read back (first difference at %d)", firstDiff(got, want.Bytes()))
			}
			if i := bytes.IndexFunc(got[want.Len():], func(r rune) bool { return r != 0 }); i >= 0 {
				t.Fatalf("non-zero byte %d past the end of the log", want.Len()+i)
			}
		})
	}
}

// TestWALPrefillOnlyWALs: files of other categories are left as they are.
func TestWALPrefillOnlyWALs(t *testing.T) {
	pfs := walPrefillFS{FS: vfs.NewMem()}
	f, err := pfs.Create("000002.sst", vfs.WriteCategoryUnspecified)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, ok := f.(*walPrefillFile); ok {
		t.Fatal("a table file was wrapped as a WAL")
	}
}

// TestWALPrefillReused: a recycled WAL is prefilled from its old end on,
// never over it.
func TestWALPrefillReused(t *testing.T) {
	g := newFillGate()
	close(g.release)
	old, err := g.Create("000001.log", walCategory)
	if err != nil {
		t.Fatal(err)
	}
	oldData := bytes.Repeat([]byte{7}, 40<<10)
	if _, err := old.Write(bytes.Clone(oldData)); err != nil {
		t.Fatal(err)
	}
	old.Close()
	pfs := walPrefillFS{FS: g, chunk: 16 << 10, low: 8 << 10}
	f, err := pfs.ReuseForWrite("000001.log", "000003.log", walCategory)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.(*walPrefillFile); !ok {
		t.Fatalf("reused WAL: %T, want a prefilling file", f)
	}
	// Up to within low of the old end: the first fill starts there.
	p := bytes.Repeat([]byte{9}, len(oldData)-4<<10)
	want := bytes.Clone(p)
	if _, err := f.Write(p); err != nil {
		t.Fatal(err)
	}
	if got := <-g.entered; got != int64(len(oldData)) {
		t.Fatalf("the first fill of a reused WAL started at %d, want its old end %d", got, len(oldData))
	}
	f.Close()
	got := readAll(t, g, "000003.log")
	if !bytes.Equal(got[:len(want)], want) || !bytes.Equal(got[len(want):len(oldData)], oldData[len(want):]) {
		t.Fatal("reused WAL: the written bytes or the old ones past them did not read back")
	}
}

// TestWALPrefillWaitsForFill holds a fill inside its first write of
// zeros: a new file's first fill leaves the writer low bytes of room; a
// write below the fill goes on, a write that reaches it waits until the
// fill is synced, and Close waits for the fill to stop. It runs in a
// synctest bubble: synctest.Wait returns once every other goroutine is
// blocked (the fill on its gate, a writer or Close on the file's
// condition), so a write or Close that did not wait has returned by then.
func TestWALPrefillWaitsForFill(t *testing.T) {
	synctest.Test(t, testWALPrefillWaitsForFill)
}

func testWALPrefillWaitsForFill(t *testing.T) {
	g := newFillGate()
	const low, chunk = 8 << 10, 32 << 10
	inner, err := g.Create("000001.log", walCategory)
	if err != nil {
		t.Fatal(err)
	}
	cf := &overlapCheckFile{File: inner}
	f := walPrefillFS{FS: g, chunk: chunk, low: low}.wrap("000001.log", cf, 0)
	cf.pf = f
	write := func(n int) {
		if _, err := f.Write(bytes.Repeat([]byte{5}, n)); err != nil {
			t.Error(err)
		}
	}
	write(1000)
	if got := <-g.entered; got != 1000+low {
		t.Fatalf("a new file's first fill started at %d, want %d (the end of the write plus low)", got, 1000+low)
	}
	write(low - 1) // ends just below the fill: does not wait for it
	done := make(chan struct{})
	go func() {
		defer close(done)
		write(2) // reaches the fill
	}()
	synctest.Wait()
	select {
	case <-done:
		close(g.release) // let the fill end, so that only the failure is reported
		t.Fatal("a write reaching the range being filled did not wait for the fill")
	default:
	}
	close(g.release)
	<-done
	if cf.overlaps.Load() != 0 {
		t.Fatalf("%d writes touched a range while it was being filled", cf.overlaps.Load())
	}
	// The next fill, held again, and Close while it runs.
	g.release = make(chan struct{})
	write(chunk) // within low of the filled end: starts the next fill
	<-g.entered
	closed := make(chan error)
	go func() { closed <- f.Close() }()
	synctest.Wait()
	select {
	case <-closed:
		// Not released: the fill would write to the closed file.
		t.Fatal("Close returned while a fill was still writing")
	default:
	}
	close(g.release)
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
}

// fillGate is a MemFS whose files opened with OpenReadWrite (the
// prefill's fill handles) report each WriteAt's offset on entered and
// then wait for release to be closed.
type fillGate struct {
	vfs.FS
	entered chan int64
	release chan struct{}
}

func newFillGate() *fillGate {
	return &fillGate{FS: vfs.NewMem(), entered: make(chan int64, 1<<10), release: make(chan struct{})}
}

func (g *fillGate) OpenReadWrite(name string, category vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := g.FS.OpenReadWrite(name, category, opts...)
	if err != nil {
		return nil, err
	}
	return &gatedFile{File: f, g: g}, nil
}

type gatedFile struct {
	vfs.File
	g     *fillGate
	calls int
}

func (f *gatedFile) WriteAt(p []byte, off int64) (int, error) {
	if f.calls == 0 {
		f.g.entered <- off
	}
	f.calls++
	<-f.g.release
	return f.File.WriteAt(p, off)
}

func (f *gatedFile) SyncData() error {
	f.calls = 0 // the next WriteAt starts another fill
	return f.File.SyncData()
}

// overlapCheckFile counts the writes that reach the range a fill of pf
// is writing.
type overlapCheckFile struct {
	vfs.File
	pf       *walPrefillFile
	off      int64
	overlaps atomic.Int64
}

func (c *overlapCheckFile) Write(p []byte) (int, error) {
	c.pf.mu.Lock()
	if c.pf.fillFrom >= 0 && c.off+int64(len(p)) > c.pf.fillFrom {
		c.overlaps.Add(1)
	}
	c.pf.mu.Unlock()
	n, err := c.File.Write(p)
	c.off += int64(n)
	return n, err
}

// TestPebbleOverPrefilledWAL: Pebble creates its WALs with the category
// the prefill looks for; a database whose WAL is prefilled keeps every
// synced write across a crash (only synced data survives CrashClone),
// and reopens over the zeroed tail.
func TestPebbleOverPrefilledWAL(t *testing.T) {
	mem := vfs.NewCrashableMem()
	var prefilled atomic.Int64
	open := func(fs vfs.FS) *pebble.DB {
		t.Helper()
		fs = createdFS{FS: fs, created: func(f vfs.File) {
			if _, ok := f.(*walPrefillFile); ok {
				prefilled.Add(1)
			}
		}}
		db, err := pebble.Open("db", &pebble.Options{FS: fs, MemTableSize: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
	db := open(walPrefillFS{FS: mem, chunk: 32 << 10, low: 16 << 10})
	const n = 3000
	for i := 0; i < n; i++ {
		if err := db.Set(fmt.Appendf(nil, "k%05d", i), bytes.Repeat([]byte{byte(i)}, 200), pebble.Sync); err != nil {
			t.Fatal(err)
		}
	}
	if prefilled.Load() == 0 {
		t.Fatal("Pebble created no WAL the prefill wrapped: has its WAL category changed?")
	}
	crashed := mem.CrashClone(vfs.CrashCloneCfg{})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(walPrefillFS{FS: crashed, chunk: 32 << 10, low: 16 << 10})
	defer db.Close()
	for i := 0; i < n; i++ {
		v, c, err := db.Get(fmt.Appendf(nil, "k%05d", i))
		if err != nil {
			t.Fatalf("synced key %d lost after the crash: %v", i, err)
		}
		if !bytes.Equal(v, bytes.Repeat([]byte{byte(i)}, 200)) {
			t.Fatalf("key %d: wrong value after the crash", i)
		}
		c.Close()
	}
}

// createdFS reports every file its FS creates or reuses for writing.
type createdFS struct {
	vfs.FS
	created func(vfs.File)
}

func (fs createdFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
	if err == nil {
		fs.created(f)
	}
	return f, err
}

func (fs createdFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	if err == nil {
		fs.created(f)
	}
	return f, err
}

func readAll(t *testing.T, fs vfs.FS, name string) []byte {
	t.Helper()
	f, err := fs.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestSyncFSPrefillOption: only PrefillWAL puts the prefill in SyncFS.
func TestSyncFSPrefillOption(t *testing.T) {
	if _, ok := (Options{PrefillWAL: true}).SyncFS(vfs.NewMem()).(walPrefillFS); !ok {
		t.Error("PrefillWAL: SyncFS has no WAL prefill")
	}
	if _, ok := (Options{}).SyncFS(vfs.NewMem()).(walPrefillFS); ok {
		t.Error("without PrefillWAL: SyncFS prefills the WAL")
	}
}
