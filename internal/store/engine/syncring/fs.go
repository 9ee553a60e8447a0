package syncring

import (
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2/vfs"
)

var (
	shared     atomic.Pointer[Ring]
	sharedErr  error
	sharedOnce sync.Once
)

// Shared returns the process's ring, set up on first use, or nil (with
// why) where io_uring is unavailable.
func Shared() (*Ring, error) {
	sharedOnce.Do(func() {
		r, err := New(0)
		sharedErr = err
		if r != nil {
			shared.Store(r)
		}
	})
	return shared.Load(), sharedErr
}

// SharedStats is Stats of the process's ring: zero when none was set up
// (io_uring unavailable or not asked for). It never sets one up.
func SharedStats() (submitted, fallbacks uint64) {
	if r := shared.Load(); r != nil {
		return r.Stats()
	}
	return 0, 0
}

// FS returns fs with every file's Sync and SyncData run through the
// process's ring, or fs itself where io_uring is unavailable (Shared
// tells why).
func FS(fs vfs.FS) vfs.FS {
	if r, _ := Shared(); r != nil {
		return WrapFS(fs, r)
	}
	return fs
}

// WrapFS returns fs with every file's Sync and SyncData run through r.
func WrapFS(fs vfs.FS, r *Ring) vfs.FS { return &ringFS{FS: fs, r: r} }

// ringFS wraps the files its FS opens.
type ringFS struct {
	vfs.FS
	r *Ring
}

func (f *ringFS) wrap(file vfs.File, err error) (vfs.File, error) {
	if err != nil || file == nil || file.Fd() == vfs.InvalidFd {
		return file, err
	}
	return &ringFile{File: file, r: f.r}, nil
}

// Create implements vfs.FS.
func (f *ringFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	return f.wrap(f.FS.Create(name, category))
}

// Open implements vfs.FS.
func (f *ringFS) Open(name string, opts ...vfs.OpenOption) (vfs.File, error) {
	return f.wrap(f.FS.Open(name, opts...))
}

// OpenReadWrite implements vfs.FS.
func (f *ringFS) OpenReadWrite(name string, category vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	return f.wrap(f.FS.OpenReadWrite(name, category, opts...))
}

// OpenDir implements vfs.FS.
func (f *ringFS) OpenDir(name string) (vfs.File, error) {
	return f.wrap(f.FS.OpenDir(name))
}

// ReuseForWrite implements vfs.FS.
func (f *ringFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	return f.wrap(f.FS.ReuseForWrite(oldname, newname, category))
}

// Unwrap implements vfs.FS.
func (f *ringFS) Unwrap() vfs.FS { return f.FS }

// ringFile syncs through the ring.
type ringFile struct {
	vfs.File
	r *Ring
}

// Sync implements vfs.File.
func (f *ringFile) Sync() error { return f.r.Sync(f.Fd(), false) }

// SyncData implements vfs.File.
func (f *ringFile) SyncData() error { return f.r.Sync(f.Fd(), true) }
