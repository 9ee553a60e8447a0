package tso

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// FileWindowStore is a WindowStore in one file: the limit as 8 big-endian
// bytes, replaced atomically (write temp, fsync, rename, fsync directory).
type FileWindowStore struct {
	path string
}

// NewFileWindowStore returns a store that keeps the limit at path.
func NewFileWindowStore(path string) *FileWindowStore { return &FileWindowStore{path: path} }

// Load reads the saved limit; a missing file is 0.
func (s *FileWindowStore) Load() (uint64, error) {
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if len(b) != 8 {
		return 0, fmt.Errorf("tso: window file %s: corrupt (%d bytes)", s.path, len(b))
	}
	return binary.BigEndian.Uint64(b), nil
}

// Save durably replaces the saved limit.
func (s *FileWindowStore) Save(limit uint64) error {
	var buf [8]byte
	binary.BigEndian.PutUint64(buf[:], limit)
	tmp := s.path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(buf[:]); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, s.path); err != nil {
		return err
	}
	dir, err := os.Open(filepath.Dir(s.path))
	if err != nil {
		return err
	}
	defer dir.Close()
	return dir.Sync()
}

// MemWindowStore is an in-memory WindowStore for tests and for processes
// that do not need timestamps to survive a restart (a client's local TSO in
// front of a standalone `strata kv`). It is not safe for concurrent use on
// its own; an Allocator calls it under its lock.
type MemWindowStore struct {
	// Limit is the saved value.
	Limit uint64
	// Saves counts calls to Save.
	Saves int
	// Err, when set, fails Load and Save.
	Err error
}

// Load returns Limit.
func (m *MemWindowStore) Load() (uint64, error) { return m.Limit, m.Err }

// Save records limit.
func (m *MemWindowStore) Save(limit uint64) error {
	if m.Err != nil {
		return m.Err
	}
	m.Limit = limit
	m.Saves++
	return nil
}
