package engine

import "github.com/cockroachdb/pebble/v2/vfs"

// Pebble recycles its WAL files: a new log overwrites an old one from
// the start, so that an fdatasync after each append writes only data,
// never the file's size. An append that covers part of a page whose old
// contents are no longer in the page cache makes write(2) read that
// page from disk first, and waits for it. Pages of a log written a
// minute or more ago are often gone: memory pressure, or a proactive
// reclaimer (DAMON's pageout of cold pages, as on the VMs this project
// is measured on) evicts them. Each such read stalls the WAL's flush,
// and holds the writing goroutine's P in the system call meanwhile (a
// playground's processes have one P each: everything else the process
// does waits too). On a playground (3 storage nodes, each with a raft
// and a data WAL) under 16-thread oltp_update_non_index right after
// sysbench's load, the disk reads grew from 15/s in the first minute to
// 256-323/s in the third and fourth; with the prefetch, 45-56/s there
// (larger reads, off the writer's path).
//
// walPrefetchFS therefore reads a reused file's old pages ahead of its
// writer (readahead(2), through vfs.File.Prefetch, which returns before
// the read completes), walPrefetchChunk at a time and walPrefetchAhead
// beyond the write offset, so that the writer finds them cached. Files
// Pebble creates afresh are written past their end, where no page is
// read, and are not wrapped.
const (
	walPrefetchChunk = 256 << 10
	walPrefetchAhead = 1 << 20
)

// walPrefetchFS wraps the files its FS reuses for writing.
type walPrefetchFS struct {
	vfs.FS
}

// ReuseForWrite implements vfs.FS.
func (fs walPrefetchFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	if err != nil || f == nil {
		return f, err
	}
	return &walPrefetchFile{File: f}, nil
}

// Unwrap implements vfs.FS.
func (fs walPrefetchFS) Unwrap() vfs.FS { return fs.FS }

// walPrefetchFile is a reused file written sequentially from offset 0
// (Pebble's LogWriter); it is used by one goroutine at a time.
type walPrefetchFile struct {
	vfs.File
	off     int64 // where the next Write goes
	fetched int64 // pages below this were asked for
}

// Write implements vfs.File: it asks for the old pages up to
// walPrefetchAhead past the end of this write, then writes.
func (f *walPrefetchFile) Write(p []byte) (int, error) {
	for end := f.off + int64(len(p)) + walPrefetchAhead; f.fetched < end; f.fetched += walPrefetchChunk {
		// A failed prefetch only leaves the pages to write(2) to read.
		_ = f.File.Prefetch(f.fetched, walPrefetchChunk)
	}
	n, err := f.File.Write(p)
	f.off += int64(n)
	return n, err
}
