package kv

import "bytes"

// Key is a user key: any non-empty byte string. Order is bytewise.
type Key []byte

// Clone returns a copy of k that does not alias k's backing array.
func (k Key) Clone() Key {
	if k == nil {
		return nil
	}
	c := make(Key, len(k))
	copy(c, k)
	return c
}

// Next returns the smallest key greater than k: k followed by 0x00.
func (k Key) Next() Key {
	n := make(Key, len(k)+1)
	copy(n, k)
	return n
}

// Cmp compares k and o bytewise.
func (k Key) Cmp(o Key) int { return bytes.Compare(k, o) }

// MaxKeySize is the largest key Strata accepts (TiKV's limit is 4 KiB for
// row keys; we allow more for wide index keys).
const MaxKeySize = 8 << 10

// MaxValueSize is the largest single value Strata accepts: 8 MiB, TiDB's
// txn-entry-size-limit default is 6 MiB.
const MaxValueSize = 8 << 20

// ValidateKey reports ErrInvalidKey for an empty or oversized key.
func ValidateKey(k []byte) error {
	if len(k) == 0 {
		return &InvalidKeyError{Reason: "empty key"}
	}
	if len(k) > MaxKeySize {
		return &InvalidKeyError{Key: k[:32], Reason: "key too large"}
	}
	return nil
}

// ValidateRange reports ErrInvalidRange when a bounded range has start > end.
// An empty end means +infinity.
func ValidateRange(start, end []byte) error {
	if len(end) > 0 && bytes.Compare(start, end) > 0 {
		return &InvalidRangeError{Start: start, End: end}
	}
	return nil
}
