package mvcc

import (
	"bytes"
	"encoding/binary"
	"errors"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/store/engine"
)

// ReadOptions are the per-request options of a snapshot read.
type ReadOptions struct {
	// ResolvedLocks: start_ts of txns whose locks the reader may skip.
	ResolvedLocks []uint64
	// CommittedLocks: start_ts of txns committed at or below the read ts,
	// whose locks are read through.
	CommittedLocks []uint64
	// IsolationRC: read committed; locks are not checked.
	IsolationRC bool
	// KeyOnly: scans return keys without values.
	KeyOnly bool
	// SkipLockCheck: point reads do not look for a lock: the caller knows
	// the key has none that could block this read (the txn layer's lock
	// index).
	SkipLockCheck bool
	// LockCandidatesKnown: a scan looks for locks only on LockCandidates,
	// the sorted user keys of its range that may have a lock, as the txn
	// layer's lock index listed them before the snapshot was taken (the
	// same argument as SkipLockCheck's), instead of iterating the range
	// of the lock space.
	LockCandidatesKnown bool
	LockCandidates      [][]byte
}

// Pair is one scan result; Err is a *kv.LockedError for a locked key.
type Pair struct {
	Key   []byte
	Value []byte
	Err   error
}

// Reader reads the three key spaces of one engine snapshot. It keeps one
// write-space iterator and re-bounds it per call when the engine allows.
// A Reader is not safe for concurrent use; Close releases its iterators but
// not the snapshot, which belongs to the caller.
type Reader struct {
	snap engine.Snapshot

	writeIter engine.Iterator
	keyBuf    []byte // lock / seek key scratch
	valBuf    []byte // short value scratch of a reverse scan
	lockUpper []byte // upper bound of a lock lookup
	lowerBuf  []byte
	upperBuf  []byte

	// mayBeLocked, when set, tells keys that certainly have no lock in
	// the snapshot: LoadLock answers nil for them without a lookup.
	mayBeLocked func(key []byte) bool
	// overlay, when set, holds locks kept outside the engine (the txn
	// layer's in-memory pessimistic locks): LoadLock answers from it for
	// a key with no lock in the snapshot.
	overlay func(key []byte) (*Lock, error)
	// prefixSeeks: the engine splits keys with EngineKeySplit, so point
	// lookups seek by prefix and skip sstables by bloom filter.
	prefixSeeks bool
	// arena, during a scan, holds the copies of the keys and values the
	// scan returns.
	arena *arena
	// newest, when set, answers newest-record lookups and point reads of
	// the keys it knows (SetNewestWrites); newestToken goes with it.
	newest      NewestWrites
	newestToken uint64
	newestBuf   []byte // write prefix scratch
}

// clone copies a value the Reader returns out of iterator memory.
func (r *Reader) clone(v []byte) []byte {
	if r.arena != nil {
		return r.arena.copy(v)
	}
	return bytes.Clone(v)
}

// NewReader returns a Reader over snap.
func NewReader(snap engine.Snapshot) *Reader {
	ps, ok := snap.(engine.PrefixSnapshot)
	return &Reader{snap: snap, prefixSeeks: ok && ps.PrefixSeeks()}
}

// seekPoint positions it at the first key >= ek among the keys with ek's
// prefix (EngineKeySplit): by prefix when the engine allows, which lets
// bloom filters skip the sstables without that user key.
func (r *Reader) seekPoint(it engine.Iterator, ek []byte) bool {
	if r.prefixSeeks {
		if ps, ok := it.(engine.PrefixSeeker); ok {
			return ps.SeekPrefixGE(ek)
		}
	}
	return it.SeekGE(ek)
}

// SetLockFilter makes LoadLock trust f: a key for which f is false has no
// lock in the snapshot. The txn layer passes its lock index to commands
// that hold the latches of every key they load the lock of, so no lock
// can appear on those keys between the index check and the snapshot.
func (r *Reader) SetLockFilter(f func(key []byte) bool) { r.mayBeLocked = f }

// SetLockOverlay makes LoadLock consult f for a key whose lock is not in
// the snapshot. Write commands pass the in-memory pessimistic locks of the
// region they run on; reads never see them (a pessimistic lock does not
// block a read).
func (r *Reader) SetLockOverlay(f func(key []byte) (*Lock, error)) { r.overlay = f }

// Close releases the Reader's iterators.
func (r *Reader) Close() {
	if r.writeIter != nil {
		_ = r.writeIter.Close()
		r.writeIter = nil
	}
}

// Snapshot returns the snapshot the Reader reads.
func (r *Reader) Snapshot() engine.Snapshot { return r.snap }

// LoadLock returns key's lock, or nil, nil when there is none.
//
// It seeks the Reader's one iterator, re-bounded to the lock key, rather
// than calling the snapshot's Get: a point read then costs one iterator
// and two seeks (lock, then write versions) instead of a Get iterator
// built per call plus the write iterator. It must not be called while a
// scan holds the iterator (scans read locks through their own iterator).
func (r *Reader) LoadLock(key []byte) (*Lock, error) {
	l, err := r.loadEngineLock(key)
	if l != nil || err != nil || r.overlay == nil {
		return l, err
	}
	return r.overlay(key)
}

// loadEngineLock is LoadLock without the overlay.
func (r *Reader) loadEngineLock(key []byte) (*Lock, error) {
	if r.mayBeLocked != nil && !r.mayBeLocked(key) {
		return nil, nil
	}
	r.keyBuf = appendLockKey(r.keyBuf[:0], key)
	r.lockUpper = append(append(r.lockUpper[:0], r.keyBuf...), 0)
	it, err := r.iterFor(r.keyBuf, r.lockUpper)
	if err != nil {
		return nil, err
	}
	if !r.seekPoint(it, r.keyBuf) {
		return nil, it.Error()
	}
	return DecodeLock(bytes.Clone(it.Value()))
}

// iterFor returns the Reader's write iterator bounded to [lower, upper).
// The bounds are the Reader's own buffers or fresh slices.
func (r *Reader) iterFor(lower, upper []byte) (engine.Iterator, error) {
	if r.writeIter != nil {
		if bs, ok := r.writeIter.(engine.BoundsSetter); ok {
			bs.SetBounds(lower, upper)
			return r.writeIter, nil
		}
		_ = r.writeIter.Close()
		r.writeIter = nil
	}
	// The engine may keep the bound slices: give it copies.
	it, err := r.snap.NewIter(bytes.Clone(lower), bytes.Clone(upper))
	if err != nil {
		return nil, err
	}
	r.writeIter = it
	return it, nil
}

// keyWriteIter returns the write iterator bounded to key's versions.
func (r *Reader) keyWriteIter(key []byte) (engine.Iterator, error) {
	r.lowerBuf = appendWritePrefix(r.lowerBuf[:0], key)
	r.upperBuf = append(r.upperBuf[:0], r.lowerBuf...)
	r.upperBuf[len(r.upperBuf)-1]++ // the final marker is < 0xFF: no carry
	return r.iterFor(r.lowerBuf, r.upperBuf)
}

// Get returns key's value visible at ts under the SI rules of reference
// §2.1. A blocking lock gives a *kv.LockedError.
func (r *Reader) Get(key []byte, ts uint64, o *ReadOptions) (value []byte, found bool, err error) {
	l, err := r.readThroughLock(key, ts, o)
	if err != nil {
		return nil, false, err
	}
	if l != nil {
		return r.lockValue(key, l, false)
	}
	return r.valueAt(key, ts)
}

// readThroughLock applies key's lock to a read at ts: a *kv.LockedError
// when it blocks the read, the lock when it is of a txn known committed
// (the read answers its value), nil when the read ignores it.
func (r *Reader) readThroughLock(key []byte, ts uint64, o *ReadOptions) (*Lock, error) {
	if o != nil && (o.IsolationRC || o.SkipLockCheck) {
		return nil, nil
	}
	l, err := r.LoadLock(key)
	if err != nil || l == nil || !l.blocksRead(key, ts, o) {
		return nil, err
	}
	if o != nil && containsTS(o.CommittedLocks, l.StartTS) {
		return l, nil
	}
	return nil, &kv.LockedError{Lock: l.Info(bytes.Clone(key))}
}

// GetNewest is Get at the newest version (ts MaxUint64) that also returns
// newestTS, the commit ts of key's newest commit record (Put, Delete or
// Lock; 0: none), taken with the answer: a prewrite that names it
// (Mutation.NewestSeen) fails if the key has a newer commit record by
// then, so nothing the answer missed can be overwritten unseen. Rollback
// records are passed over: kept at the start ts of the txn they roll
// back, they bound no commit to come below them.
//
// The newest-write record may hold a record newer than the snapshot;
// only a Put with its value inline or a Delete is answered from it, as
// the record alone decides those. Anything else (a long value, a Lock or
// Rollback record on top) is answered from the snapshot alone. A lock of
// a txn known committed is read through; its value then has no write
// record yet, and newestTS is the lock's start ts, which the commit
// record will be newer than, failing the prewrite.
func (r *Reader) GetNewest(key []byte, o *ReadOptions) (value []byte, found bool, newestTS uint64, err error) {
	l, err := r.readThroughLock(key, maxTS, o)
	if err != nil {
		return nil, false, 0, err
	}
	if l != nil {
		v, found, err := r.lockValue(key, l, false)
		return v, found, l.StartTS, err
	}
	if r.newest != nil {
		cts, w, err := r.newestWriteCached(key)
		switch {
		case err != nil:
			return nil, false, 0, err
		case w == nil:
			return nil, false, 0, nil
		case w.Type == WriteTypeDelete || (w.Type == WriteTypePut && w.HasValue):
			v, found, err := r.writeValue(w, key, maxTS, false)
			return v, found, cts, err
		}
	}
	cts, it, err := r.newestCommitRecord(key, maxTS)
	if err != nil || cts == 0 {
		return nil, false, 0, err
	}
	v, found, err := r.versionsFrom(it, key, cts, false) // it is on that record
	return v, found, cts, err
}

// newestCommitRecord is the commit ts of key's newest Put, Delete or Lock
// record at or below ts (0: none), and the write iterator left on it (for
// versionsFrom): Rollback records are keyed by a start ts, which says
// nothing of commits still to come below it.
func (r *Reader) newestCommitRecord(key []byte, ts uint64) (uint64, engine.Iterator, error) {
	it, err := r.keyWriteIter(key)
	if err != nil {
		return 0, nil, err
	}
	r.keyBuf = appendVersionedKey(r.keyBuf[:0], prefixWrite, key, ts)
	var w Write
	for ok := r.seekPoint(it, r.keyBuf); ok; ok = it.Next() {
		w = Write{}
		if err := decodeWriteInto(&w, it.Value()); err != nil {
			return 0, nil, err
		}
		if w.Type != WriteTypeRollback {
			return versionTS(it.Key()), it, nil
		}
	}
	return 0, nil, it.Error()
}

// valueAt returns key's value visible at ts, locks aside: from the newest
// write record when r.newest knows it and it decides, else by a seek.
func (r *Reader) valueAt(key []byte, ts uint64) ([]byte, bool, error) {
	if r.newest != nil {
		if v, found, decided, err := r.newestVisible(key, ts); decided || err != nil {
			return v, found, err
		}
	}
	it, err := r.keyWriteIter(key)
	if err != nil {
		return nil, false, err
	}
	return r.visibleValue(it, key, ts, false)
}

// lockValue reads through a lock of a txn known to be committed.
func (r *Reader) lockValue(key []byte, l *Lock, keyOnly bool) ([]byte, bool, error) {
	if l.Type == kv.LockTypeDelete {
		return nil, false, nil
	}
	if keyOnly {
		return nil, true, nil
	}
	if l.HasValue {
		return bytes.Clone(l.ShortValue), true, nil
	}
	return r.dataValue(key, l.StartTS)
}

func (r *Reader) dataValue(key []byte, startTS uint64) ([]byte, bool, error) {
	v, err := r.snap.Get(DataKey(key, startTS))
	if errors.Is(err, engine.ErrNotFound) {
		return nil, false, &missingDataError{key: bytes.Clone(key), startTS: startTS}
	}
	if err != nil {
		return nil, false, err
	}
	return v, true, nil
}

// visibleValue finds, on an iterator over the write space that includes
// key's versions, the newest Put/Delete of key with commit_ts <= ts,
// skipping Lock and Rollback records and applying the gc_fence rule. Its
// one seek lands on the newest record at or below ts, so the versions
// newer than ts cost nothing: an old read ts is as cheap as the newest.
func (r *Reader) visibleValue(it engine.Iterator, key []byte, ts uint64, keyOnly bool) ([]byte, bool, error) {
	r.keyBuf = appendVersionedKey(r.keyBuf[:0], prefixWrite, key, ts)
	r.seekPoint(it, r.keyBuf)
	return r.versionsFrom(it, key, ts, keyOnly)
}

// seekBound is how many Next (Prev) calls a scan spends stepping over
// versions it does not need before it seeks past them instead (TiKV's
// SEEK_BOUND). A key rarely has more versions than this, and stepping is
// several times cheaper than a seek; a hot key with hundreds of versions
// costs seekBound steps and one seek instead of a walk over all of them.
const seekBound = 4

// visibleValueNear is visibleValue for a forward scan, whose iterator is on
// the newest version of the key whose encoded write prefix is prefix. It
// steps over up to seekBound versions newer than ts, then seeks to key@ts.
// It leaves the iterator at or after key's visible version, possibly on
// the next key.
func (r *Reader) visibleValueNear(it engine.Iterator, prefix, key []byte, ts uint64, keyOnly bool) ([]byte, bool, error) {
	if it.Valid() {
		// Most often the newest version is visible and a Put or a
		// Delete: decide from it without building the seek key.
		if ek := it.Key(); hasVersionPrefix(ek, prefix) && versionTS(ek) <= ts {
			var w Write
			if err := decodeWriteInto(&w, it.Value()); err != nil {
				return nil, false, err
			}
			if w.Type == WriteTypePut || w.Type == WriteTypeDelete {
				return r.writeValue(&w, key, ts, keyOnly)
			}
		}
	}
	r.keyBuf = binary.BigEndian.AppendUint64(append(r.keyBuf[:0], prefix...), ^ts)
	for i := 0; ; i++ {
		if !it.Valid() || !hasVersionPrefix(it.Key(), prefix) {
			return nil, false, it.Error() // every version is newer than ts
		}
		if bytes.Compare(it.Key(), r.keyBuf) >= 0 { // commit_ts <= ts: versions sort newest first
			return r.versionsFrom(it, key, ts, keyOnly)
		}
		if i == seekBound {
			it.SeekGE(r.keyBuf)
			return r.versionsFrom(it, key, ts, keyOnly)
		}
		it.Next()
	}
}

// visibleValueBack is visibleValue for a reverse scan, whose iterator is on
// the oldest version of the key whose encoded write prefix is prefix. It
// steps back over the versions with commit_ts <= ts, remembering the newest
// Put or Delete; after seekBound of them it seeks to key@ts and reads
// forward instead. It leaves the iterator on a version of key (one newer
// than ts, or the visible one after a seek) or before key (on the previous
// key, or exhausted), never after it.
func (r *Reader) visibleValueBack(it engine.Iterator, prefix, key []byte, ts uint64, keyOnly bool) ([]byte, bool, error) {
	var w, last Write
	seen := false
	for i := 0; it.Valid(); i++ {
		ek := it.Key()
		if !hasVersionPrefix(ek, prefix) || versionTS(ek) > ts {
			break
		}
		if i == seekBound {
			r.keyBuf = binary.BigEndian.AppendUint64(append(r.keyBuf[:0], prefix...), ^ts)
			it.SeekGE(r.keyBuf)
			v, found, err := r.versionsFrom(it, key, ts, keyOnly)
			if err == nil && (!it.Valid() || !hasVersionPrefix(it.Key(), prefix)) {
				// No Put or Delete at or below ts: versionsFrom walked
				// forward off key, past where the scan has been.
				it.SeekLT(prefix)
				err = it.Error()
			}
			return v, found, err
		}
		w = Write{}
		if err := decodeWriteInto(&w, it.Value()); err != nil {
			return nil, false, err
		}
		if w.Type == WriteTypePut || w.Type == WriteTypeDelete {
			// The value aliases iterator memory: keep a copy.
			r.valBuf = append(r.valBuf[:0], w.ShortValue...)
			last, seen = w, true
			last.ShortValue = r.valBuf
		}
		it.Prev()
	}
	if err := it.Error(); err != nil || !seen {
		return nil, false, err
	}
	return r.writeValue(&last, key, ts, keyOnly)
}

// versionsFrom walks key's write records from the iterator's position (at
// or after key@ts, r.keyBuf holding that seek key) to the first that
// decides the value.
func (r *Reader) versionsFrom(it engine.Iterator, key []byte, ts uint64, keyOnly bool) ([]byte, bool, error) {
	prefix := r.keyBuf[:len(r.keyBuf)-tsLen]
	var w Write
	for ok := it.Valid(); ok; ok = it.Next() {
		ek := it.Key()
		if len(ek) != len(r.keyBuf) || !bytes.HasPrefix(ek, prefix) {
			break
		}
		w = Write{}
		if err := decodeWriteInto(&w, it.Value()); err != nil {
			return nil, false, err
		}
		if w.Type == WriteTypePut || w.Type == WriteTypeDelete {
			return r.writeValue(&w, key, ts, keyOnly)
		}
	}
	return nil, false, it.Error()
}

// writeValue returns the value that key's Put or Delete record w, the
// newest at or below ts, makes visible at ts; a Put whose gc_fence is at
// or below ts hides its value.
func (r *Reader) writeValue(w *Write, key []byte, ts uint64, keyOnly bool) ([]byte, bool, error) {
	switch {
	case w.Type == WriteTypeDelete:
		return nil, false, nil
	case w.GCFence != 0 && w.GCFence <= ts:
		return nil, false, nil
	case keyOnly:
		return nil, true, nil
	case w.HasValue:
		return r.clone(w.ShortValue), true, nil
	}
	return r.dataValue(key, w.StartTS)
}

// missingDataError reports a Put whose long value is absent: corruption.
type missingDataError struct {
	key     []byte
	startTS uint64
}

func (e *missingDataError) Error() string {
	return "mvcc: missing data for key " + string(e.key)
}

// FindCommitRecord looks for the txn startTS's own commit or rollback record
// on key: a record with StartTS == startTS at commit_ts >= startTS, or an
// overlapped rollback at exactly startTS. w == nil means none.
func (r *Reader) FindCommitRecord(key []byte, startTS uint64) (commitTS uint64, w *Write, err error) {
	it, err := r.keyWriteIter(key)
	if err != nil {
		return 0, nil, err
	}
	for ok := it.First(); ok; ok = it.Next() {
		cts := versionTS(it.Key())
		if cts < startTS {
			break
		}
		rec, err := DecodeWrite(it.Value())
		if err != nil {
			return 0, nil, err
		}
		if rec.StartTS == startTS {
			return cts, cloneWrite(rec), nil
		}
		if cts == startTS && rec.HasOverlappedRollback {
			return cts, &Write{Type: WriteTypeRollback, StartTS: startTS}, nil
		}
	}
	return 0, nil, it.Error()
}

// newestWrite returns key's newest write record of any type and its
// commit ts; w == nil when the key has none.
func (r *Reader) newestWrite(key []byte) (commitTS uint64, w *Write, err error) {
	if r.newest != nil {
		return r.newestWriteCached(key)
	}
	return r.seekNewestWrite(key)
}

// seekNewestWrite is newestWrite by a seek of the snapshot.
func (r *Reader) seekNewestWrite(key []byte) (commitTS uint64, w *Write, err error) {
	it, err := r.keyWriteIter(key)
	if err != nil {
		return 0, nil, err
	}
	r.keyBuf = appendVersionedKey(r.keyBuf[:0], prefixWrite, key, ^uint64(0)) // sorts first
	if !r.seekPoint(it, r.keyBuf) {
		return 0, nil, it.Error()
	}
	rec, err := DecodeWrite(it.Value())
	if err != nil {
		return 0, nil, err
	}
	return versionTS(it.Key()), cloneWrite(rec), nil
}

// writeAt returns key's write record at exactly ts, or nil.
func (r *Reader) writeAt(key []byte, ts uint64) (*Write, error) {
	r.keyBuf = appendVersionedKey(r.keyBuf[:0], prefixWrite, key, ts)
	v, err := r.snap.Get(r.keyBuf)
	if errors.Is(err, engine.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return DecodeWrite(v)
}

// newestWriteAtOrBelow returns key's newest record with commit_ts <= ts.
func (r *Reader) newestWriteAtOrBelow(key []byte, ts uint64) (commitTS uint64, w *Write, err error) {
	it, err := r.keyWriteIter(key)
	if err != nil {
		return 0, nil, err
	}
	r.keyBuf = appendVersionedKey(r.keyBuf[:0], prefixWrite, key, ts)
	if !it.SeekGE(r.keyBuf) {
		return 0, nil, it.Error()
	}
	rec, err := DecodeWrite(it.Value())
	if err != nil {
		return 0, nil, err
	}
	return versionTS(it.Key()), cloneWrite(rec), nil
}

// newerPutDeleteAbove returns the commit ts of key's oldest Put/Delete
// record with commit_ts > ts (the gc_fence of an overlapped rollback at
// ts), or 0.
func (r *Reader) newerPutDeleteAbove(key []byte, ts uint64) (uint64, error) {
	it, err := r.keyWriteIter(key)
	if err != nil {
		return 0, err
	}
	r.keyBuf = appendVersionedKey(r.keyBuf[:0], prefixWrite, key, ts)
	var w Write
	for ok := it.SeekLT(r.keyBuf); ok; ok = it.Prev() {
		w = Write{}
		if err := decodeWriteInto(&w, it.Value()); err != nil {
			return 0, err
		}
		if w.Type == WriteTypePut || w.Type == WriteTypeDelete {
			return versionTS(it.Key()), nil
		}
	}
	return 0, it.Error()
}

func cloneWrite(w *Write) *Write {
	c := *w
	if w.ShortValue != nil {
		c.ShortValue = bytes.Clone(w.ShortValue)
	}
	return &c
}
