package mvcc

import (
	"encoding/binary"
	"fmt"

	"github.com/strata-db/strata/internal/kv"
)

// WriteType is the kind of a write record.
type WriteType byte

// Write record types (reference §1.3).
const (
	WriteTypePut      WriteType = 'P'
	WriteTypeDelete   WriteType = 'D'
	WriteTypeLock     WriteType = 'L'
	WriteTypeRollback WriteType = 'R'
)

// Write is a commit or rollback record: the value of a write-space entry.
type Write struct {
	Type    WriteType
	StartTS uint64
	// ShortValue is the inline value of a Put (<= 255 bytes); HasValue
	// false on a Put means the value is in the data space at StartTS.
	// A Rollback whose short value is "p" is protected.
	ShortValue            []byte
	HasValue              bool
	HasOverlappedRollback bool
	GCFence               uint64
}

// Write record tags (reference §1.3).
const (
	writeTagShortValue = 'v'
	writeTagOverlapped = 'R'
	writeTagGCFence    = 'F'
)

// protectedRollbackValue marks a protected rollback.
var protectedRollbackValue = []byte("p")

// IsProtectedRollback reports whether w is a protected Rollback.
func (w *Write) IsProtectedRollback() bool {
	return w.Type == WriteTypeRollback && w.HasValue && string(w.ShortValue) == "p"
}

// IsRollbackOf reports whether w records a rollback of a txn: a Rollback,
// or an overlapped rollback kept on another txn's commit record.
func (w *Write) isRollbackRecord() bool {
	return w.Type == WriteTypeRollback || w.HasOverlappedRollback
}

// Encode appends the write record to dst.
func (w *Write) Encode(dst []byte) []byte {
	dst = append(dst, byte(w.Type))
	dst = binary.AppendUvarint(dst, w.StartTS)
	if w.HasValue {
		dst = append(dst, writeTagShortValue, byte(len(w.ShortValue)))
		dst = append(dst, w.ShortValue...)
	}
	if w.HasOverlappedRollback {
		dst = append(dst, writeTagOverlapped)
	}
	if w.GCFence != 0 {
		dst = append(dst, writeTagGCFence)
		dst = binary.BigEndian.AppendUint64(dst, w.GCFence)
	}
	return dst
}

// DecodeWrite parses a write record; slices alias b. Unknown tags end the
// parse.
func DecodeWrite(b []byte) (*Write, error) {
	w := &Write{}
	if err := decodeWriteInto(w, b); err != nil {
		return nil, err
	}
	return w, nil
}

func decodeWriteInto(w *Write, b []byte) error {
	if len(b) < 1 {
		return errBadRecord
	}
	w.Type = WriteType(b[0])
	switch w.Type {
	case WriteTypePut, WriteTypeDelete, WriteTypeLock, WriteTypeRollback:
	default:
		return fmt.Errorf("%w: write type %q", errBadRecord, b[0])
	}
	r := recordReader{b: b[1:]}
	w.StartTS = r.uvarint()
	for r.err == nil && len(r.b) > 0 {
		tag := r.b[0]
		r.b = r.b[1:]
		switch tag {
		case writeTagShortValue:
			n := int(r.byte())
			w.ShortValue = r.bytes(n)
			w.HasValue = true
		case writeTagOverlapped:
			w.HasOverlappedRollback = true
		case writeTagGCFence:
			w.GCFence = r.u64()
		default:
			return nil
		}
	}
	return r.err
}

func writeTypeFromLock(t kv.LockType) WriteType {
	switch t {
	case kv.LockTypePut:
		return WriteTypePut
	case kv.LockTypeDelete:
		return WriteTypeDelete
	default:
		return WriteTypeLock
	}
}
