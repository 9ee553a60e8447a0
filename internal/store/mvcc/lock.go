package mvcc

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/strata-db/strata/internal/kv"
)

// Lock is a Percolator lock: the value of a key's entry in the lock space.
type Lock struct {
	Type        kv.LockType
	Primary     []byte
	StartTS     uint64
	TTL         uint64 // milliseconds after StartTS's physical part
	ForUpdateTS uint64 // non-zero: the lock belongs to a pessimistic txn
	TxnSize     uint64
	MinCommitTS uint64
	// ShortValue is the inline value of a Put lock (<= 255 bytes); a longer
	// value lives in the data space at StartTS and HasValue is false.
	ShortValue []byte
	HasValue   bool
	// UseAsyncCommit marks an async-commit lock; Secondaries are listed on
	// the primary only.
	UseAsyncCommit bool
	Secondaries    [][]byte
	// RollbackTS lists start_ts of other txns' protected rollbacks that
	// happened on this key while the lock existed (reference §2.4).
	RollbackTS []uint64
	// UseOnePC marks an in-memory 1PC lock; never persisted.
	UseOnePC bool
}

// MaxShortValueLen is the longest value stored inline in locks and writes.
const MaxShortValueLen = 255

// Lock record tags (reference §1.2).
const (
	lockTagShortValue  = 'v'
	lockTagForUpdateTS = 'f'
	lockTagTxnSize     = 't'
	lockTagMinCommitTS = 'c'
	lockTagAsyncCommit = 'a'
	lockTagRollbackTS  = 'r'
)

var errBadRecord = errors.New("mvcc: malformed record")

// Info returns the lock description reported to clients for key.
func (l *Lock) Info(key []byte) kv.LockInfo {
	return kv.LockInfo{
		Key:            key,
		Primary:        l.Primary,
		StartTS:        l.StartTS,
		TTL:            l.TTL,
		TxnSize:        l.TxnSize,
		Type:           l.Type,
		ForUpdateTS:    l.ForUpdateTS,
		UseAsyncCommit: l.UseAsyncCommit,
		MinCommitTS:    l.MinCommitTS,
		Secondaries:    l.Secondaries,
	}
}

// IsPessimistic reports whether the lock is a pessimistic placeholder.
func (l *Lock) IsPessimistic() bool { return l.Type == kv.LockTypePessimistic }

// blocksRead applies the reference §2.1 blocking rule for a read at ts.
func (l *Lock) blocksRead(key []byte, ts uint64, o *ReadOptions) bool {
	// The reader's own lock (start_ts == read ts: timestamps are unique)
	// never blocks it, as issue #2 asks; the reference leaves this to the
	// client, which serves its own writes from its buffer anyway.
	if l.StartTS >= ts {
		return false
	}
	if l.Type != kv.LockTypePut && l.Type != kv.LockTypeDelete {
		return false
	}
	if l.MinCommitTS > ts {
		return false
	}
	if ts == ^uint64(0) && !l.UseAsyncCommit && !l.UseOnePC && string(key) == string(l.Primary) {
		return false
	}
	if o != nil && containsTS(o.ResolvedLocks, l.StartTS) {
		return false
	}
	return true
}

// BlocksRead reports whether the lock on key blocks a snapshot read at ts
// with options o (reference §2.1 step 2). The txn layer uses the same rule
// for its memory lock table.
func (l *Lock) BlocksRead(key []byte, ts uint64, o *ReadOptions) bool {
	return l.blocksRead(key, ts, o)
}

func containsTS(list []uint64, ts uint64) bool {
	for _, t := range list {
		if t == ts {
			return true
		}
	}
	return false
}

// Encode appends the lock record to dst (reference §1.2).
func (l *Lock) Encode(dst []byte) []byte {
	dst = append(dst, byte(l.Type))
	dst = appendCompactBytes(dst, l.Primary)
	dst = binary.AppendUvarint(dst, l.StartTS)
	dst = binary.AppendUvarint(dst, l.TTL)
	if l.HasValue {
		dst = append(dst, lockTagShortValue, byte(len(l.ShortValue)))
		dst = append(dst, l.ShortValue...)
	}
	if l.ForUpdateTS != 0 {
		dst = append(dst, lockTagForUpdateTS)
		dst = binary.BigEndian.AppendUint64(dst, l.ForUpdateTS)
	}
	if l.TxnSize != 0 {
		dst = append(dst, lockTagTxnSize)
		dst = binary.BigEndian.AppendUint64(dst, l.TxnSize)
	}
	if l.MinCommitTS != 0 {
		dst = append(dst, lockTagMinCommitTS)
		dst = binary.BigEndian.AppendUint64(dst, l.MinCommitTS)
	}
	if l.UseAsyncCommit {
		dst = append(dst, lockTagAsyncCommit)
		dst = binary.AppendUvarint(dst, uint64(len(l.Secondaries)))
		for _, s := range l.Secondaries {
			dst = appendCompactBytes(dst, s)
		}
	}
	if len(l.RollbackTS) > 0 {
		dst = append(dst, lockTagRollbackTS)
		dst = binary.AppendUvarint(dst, uint64(len(l.RollbackTS)))
		for _, ts := range l.RollbackTS {
			dst = binary.BigEndian.AppendUint64(dst, ts)
		}
	}
	return dst
}

// IsPessimisticRecord reports whether an encoded lock record is a
// pessimistic lock, from its type byte alone (no decode).
func IsPessimisticRecord(b []byte) bool {
	return len(b) > 0 && kv.LockType(b[0]) == kv.LockTypePessimistic
}

// DecodeLock parses a lock record. Unknown tags end the parse (forward
// compatibility). Slices alias b.
func DecodeLock(b []byte) (*Lock, error) {
	l := &Lock{}
	if err := decodeLockInto(l, b); err != nil {
		return nil, err
	}
	return l, nil
}

func decodeLockInto(l *Lock, b []byte) error {
	if len(b) < 1 {
		return errBadRecord
	}
	l.Type = kv.LockType(b[0])
	switch l.Type {
	case kv.LockTypePut, kv.LockTypeDelete, kv.LockTypeLock, kv.LockTypePessimistic:
	default:
		return fmt.Errorf("%w: lock type %q", errBadRecord, b[0])
	}
	r := recordReader{b: b[1:]}
	l.Primary = r.compactBytes()
	l.StartTS = r.uvarint()
	l.TTL = r.uvarint()
	for r.err == nil && len(r.b) > 0 {
		tag := r.b[0]
		r.b = r.b[1:]
		switch tag {
		case lockTagShortValue:
			n := int(r.byte())
			l.ShortValue = r.bytes(n)
			l.HasValue = true
		case lockTagForUpdateTS:
			l.ForUpdateTS = r.u64()
		case lockTagTxnSize:
			l.TxnSize = r.u64()
		case lockTagMinCommitTS:
			l.MinCommitTS = r.u64()
		case lockTagAsyncCommit:
			l.UseAsyncCommit = true
			n := r.uvarint()
			if n > uint64(len(r.b)) {
				r.err = errBadRecord
				break
			}
			if n > 0 {
				l.Secondaries = make([][]byte, 0, n)
			}
			for i := uint64(0); i < n && r.err == nil; i++ {
				l.Secondaries = append(l.Secondaries, r.compactBytes())
			}
		case lockTagRollbackTS:
			n := r.uvarint()
			if n > uint64(len(r.b)) {
				r.err = errBadRecord
				break
			}
			for i := uint64(0); i < n && r.err == nil; i++ {
				l.RollbackTS = append(l.RollbackTS, r.u64())
			}
		default:
			return nil // unknown tag: stop, keep what was parsed
		}
	}
	return r.err
}

// recordReader parses record fields, remembering the first error.
type recordReader struct {
	b   []byte
	err error
}

func (r *recordReader) byte() byte {
	if r.err != nil || len(r.b) < 1 {
		r.err = errBadRecord
		return 0
	}
	c := r.b[0]
	r.b = r.b[1:]
	return c
}

func (r *recordReader) bytes(n int) []byte {
	if r.err != nil || len(r.b) < n {
		r.err = errBadRecord
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

func (r *recordReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errBadRecord
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *recordReader) u64() uint64 {
	if r.err != nil || len(r.b) < 8 {
		r.err = errBadRecord
		return 0
	}
	v := binary.BigEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

func (r *recordReader) compactBytes() []byte {
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b)) {
		r.err = errBadRecord
		return nil
	}
	return r.bytes(int(n))
}

func appendCompactBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}
