//go:build !linux

package syncring

import "errors"

// Ring is io_uring's, which only Linux has: New always fails here.
type Ring struct{}

// New fails: io_uring is Linux's.
func New(entries uint32) (*Ring, error) {
	return nil, errors.New("syncring: io_uring is Linux only")
}

// Sync is never called on a nil Ring's platform (New fails).
func (r *Ring) Sync(fd uintptr, datasync bool) error {
	return errors.New("syncring: io_uring is Linux only")
}

// Stats reports nothing.
func (r *Ring) Stats() (submitted, fallbacks uint64) { return 0, 0 }

// Close does nothing.
func (r *Ring) Close() error { return nil }
