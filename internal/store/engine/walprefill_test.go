package engine

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"sync/atomic"
	"testing"

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
	fs := vfs.NewMem()
	old, err := fs.Create("000001.log", walCategory)
	if err != nil {
		t.Fatal(err)
	}
	oldData := bytes.Repeat([]byte{7}, 40<<10)
	if _, err := old.Write(bytes.Clone(oldData)); err != nil {
		t.Fatal(err)
	}
	old.Close()
	pfs := walPrefillFS{FS: fs, chunk: 16 << 10, low: 8 << 10}
	f, err := pfs.ReuseForWrite("000001.log", "000003.log", walCategory)
	if err != nil {
		t.Fatal(err)
	}
	pf, ok := f.(*walPrefillFile)
	if !ok || pf.filled != int64(len(oldData)) {
		t.Fatalf("reused WAL: %T, want a prefilling file starting at %d", f, len(oldData))
	}
	p := bytes.Repeat([]byte{9}, 1000)
	want := append(append([]byte{}, p...), oldData[len(p):]...)
	if _, err := f.Write(p); err != nil {
		t.Fatal(err)
	}
	f.Close()
	got := readAll(t, fs, "000003.log")
	if !bytes.Equal(got[:len(want)], want) {
		t.Fatalf("reused WAL changed where no one wrote (first difference at %d)", firstDiff(got, want))
	}
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
