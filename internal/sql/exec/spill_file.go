package exec

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"sync/atomic"
)

// spillDir is the folder of spill files ("" = os.TempDir()).
var spillDir atomic.Pointer[string]

// SetSpillDir sets the folder where operators over the memory quota
// write their spill files (TiDB's tmp-storage-path; "" = os.TempDir()).
func SetSpillDir(dir string) { spillDir.Store(&dir) }

func spillDirectory() string {
	if p := spillDir.Load(); p != nil && *p != "" {
		return *p
	}
	return os.TempDir()
}

// spillFile is a temporary file of length-prefixed records, written
// once and then read from the start (any number of times). The file is
// unlinked as soon as it is created, so it disappears when closed or
// when the process dies; Close releases it.
type spillFile struct {
	f       *os.File
	w       *bufio.Writer
	r       *bufio.Reader
	written int64 // bytes written
	records int64
	err     error // first write error
}

// newSpillFile creates an empty spill file.
func newSpillFile() (*spillFile, error) {
	f, err := os.CreateTemp(spillDirectory(), "strata-spill-*")
	if err != nil {
		return nil, fmt.Errorf("exec: spill file: %w", err)
	}
	if err := os.Remove(f.Name()); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("exec: spill file: %w", err)
	}
	return &spillFile{f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// write appends one record (errors are kept for flush).
func (s *spillFile) write(rec []byte) {
	if s.err != nil {
		return
	}
	var hdr [binary.MaxVarintLen64]byte
	n := binary.PutUvarint(hdr[:], uint64(len(rec)))
	if _, err := s.w.Write(hdr[:n]); err != nil {
		s.err = err
		return
	}
	if _, err := s.w.Write(rec); err != nil {
		s.err = err
		return
	}
	s.written += int64(n + len(rec))
	s.records++
}

// rewind ends writing and positions the reader at the first record.
func (s *spillFile) rewind() error {
	if s.err != nil {
		return fmt.Errorf("exec: spill file: %w", s.err)
	}
	if err := s.w.Flush(); err != nil {
		return fmt.Errorf("exec: spill file: %w", err)
	}
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("exec: spill file: %w", err)
	}
	if s.r == nil {
		s.r = bufio.NewReaderSize(s.f, 64<<10)
	} else {
		s.r.Reset(s.f)
	}
	return nil
}

// next reads the next record into buf (reusing it); io.EOF at the end.
func (s *spillFile) next(buf []byte) ([]byte, error) {
	n, err := binary.ReadUvarint(s.r)
	if err == io.EOF {
		return buf, io.EOF
	}
	if err != nil {
		return buf, fmt.Errorf("%w: record length: %v", ErrSpillCorrupt, err)
	}
	if n > 1<<32 {
		return buf, fmt.Errorf("%w: record of %d bytes", ErrSpillCorrupt, n)
	}
	if uint64(cap(buf)) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(s.r, buf); err != nil {
		return buf, fmt.Errorf("%w: record: %v", ErrSpillCorrupt, err)
	}
	return buf, nil
}

// Close releases the file.
func (s *spillFile) Close() error {
	if s == nil || s.f == nil {
		return nil
	}
	err := s.f.Close()
	s.f = nil
	return err
}

// newSpillFiles creates n spill files (none when one fails).
func newSpillFiles(n int) ([]*spillFile, error) {
	fs := make([]*spillFile, 0, n)
	for i := 0; i < n; i++ {
		f, err := newSpillFile()
		if err != nil {
			closeSpillFiles(fs)
			return nil, err
		}
		fs = append(fs, f)
	}
	return fs, nil
}

// levelSeeds are a partitioning operator's hash seeds, one per level of
// partitioning (a partition partitioned again needs another hash).
type levelSeeds []maphash.Seed

// at returns level's seed, making it on first use.
func (s *levelSeeds) at(level int) maphash.Seed {
	for len(*s) <= level {
		*s = append(*s, maphash.MakeSeed())
	}
	return (*s)[level]
}

// closeSpillFiles closes every file of fs.
func closeSpillFiles(fs []*spillFile) {
	for _, f := range fs {
		_ = f.Close()
	}
}
