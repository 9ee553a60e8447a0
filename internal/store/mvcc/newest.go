package mvcc

import (
	"encoding/binary"

	"github.com/strata-db/strata/internal/store/engine"
)

// NewestWrites is an in-memory record, kept outside this package (the txn
// layer's), of the newest write record of some user keys: what a seek to
// the top of a key's versions would find. A Reader given one answers from
// it instead of seeking, and tells it what its seeks found.
//
// Newest must be exact: when ok, commitTS and w are the newest write
// record of the key the engine holds at the time of the call (w nil: none
// at all), and no engine write of a record of the key is under way. It
// may then reflect writes that landed after the Reader's snapshot: they
// are committed, and a read or a conflict check that sees one sees no
// less than its snapshot holds (a commit at or below a read's ts is never
// missing from its snapshot, by the lock rules of reference §2.1).
type NewestWrites interface {
	// Newest returns the newest write record of the key whose write-space
	// prefix is prefix (see WritePrefix); ok false when it is not known.
	Newest(prefix []byte) (commitTS uint64, w *Write, ok bool)
	// Offer records what a seek of the Reader's snapshot found as the
	// key's newest write record (w nil: none). token is the Reader's
	// (SetNewestWrites): the record takes the offer only if no write
	// ended since the token was taken, before the snapshot.
	Offer(token uint64, prefix []byte, commitTS uint64, w *Write)
}

// SetNewestWrites makes the Reader's point reads and newest-record lookups
// consult nw first, and offer it what they seek. token is what nw handed
// out before the Reader's snapshot was taken.
func (r *Reader) SetNewestWrites(nw NewestWrites, token uint64) {
	r.newest, r.newestToken = nw, token
}

// WritePrefix appends to dst the write-space prefix of user key key: the
// key NewestWrites knows it by.
func WritePrefix(dst, key []byte) []byte { return appendWritePrefix(dst, key) }

// WriteRecordOp reports whether op is a put or delete of a write record,
// and then the write-space prefix of its user key (aliasing op.Key) and
// its commit ts.
func WriteRecordOp(op engine.Op) (prefix []byte, commitTS uint64, ok bool) {
	k := op.Key
	if len(k) <= 1+tsLen || k[0] != prefixWrite {
		return nil, 0, false
	}
	return k[:len(k)-tsLen], ^binary.BigEndian.Uint64(k[len(k)-tsLen:]), true
}

// newestWriteCached is newestWrite through r.newest: a known key costs no
// seek; an unknown one is sought and offered.
func (r *Reader) newestWriteCached(key []byte) (commitTS uint64, w *Write, err error) {
	r.newestBuf = appendWritePrefix(r.newestBuf[:0], key)
	if cts, w, ok := r.newest.Newest(r.newestBuf); ok {
		return cts, w, nil
	}
	cts, w, err := r.seekNewestWrite(key)
	// A snapshot clamped to a region finds nothing outside it: that says
	// nothing of the key (a request routed to the wrong region).
	if p, ok := r.snap.(engine.PartialSnapshot); err == nil && (!ok || p.Covers(r.newestBuf)) {
		r.newest.Offer(r.newestToken, r.newestBuf, cts, w)
	}
	return cts, w, err
}

// newestVisible answers a point read at ts from key's newest write record
// when that record decides it: no record at all, or a Delete or a Put with
// an inline value at or below ts. decided false sends the read to the
// engine (a newer record, a long value, a Lock or Rollback record on top).
func (r *Reader) newestVisible(key []byte, ts uint64) (value []byte, found, decided bool, err error) {
	cts, w, err := r.newestWriteCached(key)
	if err != nil {
		return nil, false, true, err
	}
	if w == nil {
		return nil, false, true, nil
	}
	if cts > ts || !(w.Type == WriteTypeDelete || (w.Type == WriteTypePut && w.HasValue)) {
		return nil, false, false, nil
	}
	v, found, err := r.writeValue(w, key, ts, false)
	return v, found, true, err
}
