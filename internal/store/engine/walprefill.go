package engine

import (
	"sync"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// An fdatasync after an append that gave the file a new block must also
// write the file's inode (its size and block map), a second write the
// device completes before the cache flush: on ext4 that is one more
// synchronous request per sync. A raft log syncs after every append of
// a few KiB, so most of its appends reach a new block. Pebble recycles
// WAL files (the appends then overwrite blocks the file has, see
// walprefetch.go), but a store's first two WALs are new files, and at
// about 1 MiB of raft log per second under sysbench updates a 64 MiB WAL
// lasts a minute: every benchmark on a fresh store ran on new ones.
// Measured on a playground under oltp_update_non_index (perf, the
// ext4_sync_file_enter/exit and block_rq_issue tracepoints): every sync
// of a store's new raft WAL wrote the inode, and such syncs took 503-663
// µs against 296-330 µs for the syncs that did not.
//
// walPrefillFS therefore writes zeros ahead of the writer of a WAL, in
// walPrefillChunk pieces from a goroutine of its own, and syncs them,
// so that the writer's appends land in blocks the file already has and
// most of its syncs carry data only (a write that changes the file's
// modification time still dirties the inode, at most once per clock
// tick). A fill starts when less than walPrefillLow of prefilled space
// is left ahead of the writer; a write that would reach a range being
// filled waits for that fill (it never overwrites data). A writer past
// the prefilled space (a new file) gets walPrefillLow of room before the
// fill it starts, so that it does not wait for it. A fill that fails
// stops the prefilling of that file; the writer goes on as without it.
//
// Pebble reads past a WAL's last record into the zeros: its reader takes
// a zeroed chunk followed by nothing valid as an unclean end, which it
// accepts for the newest WAL; an older WAL ends in an EOF trailer, which
// Pebble writes and syncs when it closes the WAL at rotation, before the
// zeros. (Pebble's own preallocation keeps the file size, so a reader
// never met zeros from it; a recycled WAL's tail holds old records.)
const (
	walPrefillChunk = 1 << 20
	walPrefillLow   = 512 << 10
)

// walCategory is the category Pebble creates and reuses WAL files with.
const walCategory vfs.DiskWriteCategory = "pebble-wal"

// walPrefillFS prefills the WAL files its FS creates or reuses.
type walPrefillFS struct {
	vfs.FS
	chunk, low int64 // 0: walPrefillChunk, walPrefillLow
}

// Create implements vfs.FS.
func (fs walPrefillFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
	if err != nil || f == nil || category != walCategory {
		return f, err
	}
	return fs.wrap(name, f, 0), nil
}

// ReuseForWrite implements vfs.FS: a recycled WAL has blocks up to its
// old size; the prefilling starts there.
func (fs walPrefillFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	if err != nil || f == nil || category != walCategory {
		return f, err
	}
	st, err := f.Stat()
	if err != nil {
		return f, nil // not prefilled: the writer extends it itself
	}
	return fs.wrap(newname, f, st.Size()), nil
}

// Unwrap implements vfs.FS.
func (fs walPrefillFS) Unwrap() vfs.FS { return fs.FS }

func (fs walPrefillFS) wrap(name string, f vfs.File, filled int64) *walPrefillFile {
	chunk, low := fs.chunk, fs.low
	if chunk <= 0 {
		chunk, low = walPrefillChunk, walPrefillLow
	}
	pf := &walPrefillFile{File: f, fs: fs.FS, name: name, chunk: chunk, low: low, filled: filled, fillFrom: -1}
	pf.cond.L = &pf.mu
	return pf
}

// walPrefillFile is a WAL written sequentially from offset 0 by one
// goroutine at a time, prefilled by fill goroutines, one at a time.
type walPrefillFile struct {
	vfs.File
	fs         vfs.FS
	name       string
	chunk, low int64
	// fh is the fill's own handle, opened by the first fill; only fills
	// use it, and Close waits for the running one.
	fh vfs.File

	mu   sync.Mutex
	cond sync.Cond // signalled when a fill ends
	off  int64     // where the next Write lands
	// filled: [0, filled) has its blocks (written by the writer, or
	// filled with zeros and synced), but for the room a fill left a
	// writer past the prefilled space: the writer fills that itself.
	filled int64
	// fillFrom is where the running fill starts (-1: none runs); it
	// fills [fillFrom, fillFrom+chunk).
	fillFrom int64
	// stopped: closed, or a fill failed; no more fills. A fill running
	// when Close sets it stops writing and does not sync what it wrote
	// (no one writes to the file any more).
	stopped bool
}

// Write implements vfs.File.
func (f *walPrefillFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	end := f.off + int64(len(p))
	for f.fillFrom >= 0 && end > f.fillFrom {
		f.cond.Wait()
	}
	if f.fillFrom < 0 && !f.stopped && f.filled-end < f.low {
		from := f.filled
		if from < end {
			from = end + f.low
		}
		f.fillFrom = from
		go f.fill(from)
	}
	// Counted before the write, under the one lock: a short write fails
	// the WAL (Pebble stops on it), and an offset counted too far only
	// moves later fills further out.
	f.off = end
	f.mu.Unlock()
	return f.File.Write(p)
}

// fill writes zeros to [from, from+chunk) and syncs them.
func (f *walPrefillFile) fill(from int64) {
	ok := f.writeZeros(from)
	f.mu.Lock()
	if ok {
		f.filled = from + f.chunk
	} else {
		f.stopped = true
	}
	f.fillFrom = -1
	f.cond.Broadcast()
	f.mu.Unlock()
}

// walPrefillPiece is how much of a fill one WriteAt writes.
const walPrefillPiece = 64 << 10

func (f *walPrefillFile) writeZeros(from int64) bool {
	if f.fh == nil {
		// By name: Pebble neither renames nor removes a WAL it has open.
		fh, err := f.fs.OpenReadWrite(f.name, walCategory)
		if err != nil {
			return false
		}
		f.fh = fh
	}
	// A buffer of the fill's own, cleared before each piece: a file may
	// change what it is given to write (vfs.File allows it of Write).
	zeros := make([]byte, walPrefillPiece)
	for off, end := from, from+f.chunk; off < end; {
		if f.closed() {
			return false
		}
		n := min(int64(len(zeros)), end-off)
		clear(zeros)
		if _, err := f.fh.WriteAt(zeros[:n], off); err != nil {
			return false
		}
		off += n
	}
	return !f.closed() && f.fh.SyncData() == nil
}

// closed reports whether Close has begun (a fill's own failure sets
// stopped only after it ends).
func (f *walPrefillFile) closed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stopped
}

// Close implements vfs.File: it stops a running fill and waits for it.
func (f *walPrefillFile) Close() error {
	f.mu.Lock()
	f.stopped = true
	for f.fillFrom >= 0 {
		f.cond.Wait()
	}
	f.mu.Unlock()
	if f.fh != nil {
		_ = f.fh.Close()
	}
	return f.File.Close()
}
