package mvcc

import (
	"bytes"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/store/engine"
)

// Scan returns up to limit (<= 0: no limit) visible keys at ts under the
// rules of reference §2.1. Forward scans cover [start, end); reverse scans
// cover keys < end down to >= start, largest first. An empty end is
// unbounded. A key blocked by a lock becomes a Pair with a *kv.LockedError
// and counts against the limit; other errors abort the scan.
func (r *Reader) Scan(start, end []byte, limit int, ts uint64, reverse bool, o *ReadOptions) ([]Pair, error) {
	var out []Pair
	if limit > 0 {
		out = make([]Pair, 0, min(limit, 256))
	}
	err := r.ScanFunc(start, end, limit, ts, reverse, o, func(p Pair) {
		out = append(out, p)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ScanFunc is Scan handing each result to emit in scan order instead of
// collecting them. The pair's key and value are the caller's to keep.
func (r *Reader) ScanFunc(start, end []byte, limit int, ts uint64, reverse bool, o *ReadOptions, emit func(Pair)) error {
	if err := kv.ValidateRange(start, end); err != nil {
		return err
	}
	if o == nil {
		o = &ReadOptions{}
	}
	wit, err := r.iterFor(encodedRangeBound(prefixWrite, start, false), encodedRangeBound(prefixWrite, end, true))
	if err != nil {
		return err
	}
	var lit engine.Iterator
	switch {
	case o.IsolationRC:
	case o.LockCandidatesKnown:
		lit = newCandidateLockIter(r.snap, o.LockCandidates)
	default:
		lit, err = r.snap.NewIter(lockRangeBound(start, false), lockRangeBound(end, true))
		if err != nil {
			return err
		}
		defer lit.Close()
	}
	s := scanner{r: r, wit: wit, lit: lit, ts: ts, o: o, reverse: reverse, emit: emit}
	if np, ok := wit.(engine.PrefixNexter); ok && r.prefixSeeks && !reverse {
		s.nextPrefix = np
	}
	// The keys and values of the result share blocks of one arena.
	r.arena = &arena{}
	defer func() { r.arena = nil }()
	return s.run(limit)
}

// lockRangeBound returns the lock-space bound of user key k.
func lockRangeBound(k []byte, upper bool) []byte {
	if len(k) == 0 {
		if upper {
			return []byte{prefixLock + 1}
		}
		return []byte{prefixLock}
	}
	return appendLockKey(nil, k)
}

type scanner struct {
	r       *Reader
	wit     engine.Iterator
	lit     engine.Iterator // nil under RC
	ts      uint64
	o       *ReadOptions
	reverse bool
	emit    func(Pair)
	emitted int

	// nextPrefix, when set (forward scans of an engine split by
	// EngineKeySplit), moves past a key's remaining versions in one step.
	nextPrefix engine.PrefixNexter

	wOK, lOK bool
	wKey     []byte // user key under wit, decoded
	wPrefix  []byte // 'w' + memcomparable(wKey): its versions' common prefix
	seekBuf  []byte
}

func (s *scanner) run(limit int) error {
	if s.reverse {
		s.wOK = s.wit.Last()
		if s.lit != nil {
			s.lOK = s.lit.Last()
		}
	} else {
		s.wOK = s.wit.First()
		if s.lit != nil {
			s.lOK = s.lit.First()
		}
	}
	for limit <= 0 || s.emitted < limit {
		if err := s.decodeWKey(); err != nil {
			return err
		}
		var lKey []byte
		if s.lOK {
			lKey = s.lit.Key()[1:]
		}
		if !s.wOK && !s.lOK {
			break
		}
		// The next user key: the smaller (larger when reversed) of both.
		var key []byte
		switch {
		case !s.lOK:
			key = s.wKey
		case !s.wOK:
			key = bytes.Clone(lKey)
		default:
			c := bytes.Compare(lKey, s.wKey)
			if (c < 0) != s.reverse && c != 0 {
				key = bytes.Clone(lKey)
			} else {
				key = s.wKey
			}
		}
		hasWrite := s.wOK && bytes.Equal(key, s.wKey)
		if s.lOK && bytes.Equal(lKey, key) {
			l, err := DecodeLock(s.lit.Value())
			if err != nil {
				return err
			}
			l = cloneLock(l) // the lock iterator moves on below
			s.moveLock()
			if l.blocksRead(key, s.ts, s.o) {
				if containsTS(s.o.CommittedLocks, l.StartTS) {
					v, found, err := s.r.lockValue(key, l, s.o.KeyOnly)
					if err != nil {
						return err
					}
					if found {
						s.out(Pair{Key: key, Value: v})
					}
				} else {
					s.out(Pair{Key: key, Err: &kv.LockedError{Lock: l.Info(key)}})
				}
				if hasWrite {
					s.skipKey()
				}
				continue
			}
		}
		if !hasWrite {
			continue
		}
		// The iterator is on key's first version in scan order: the newest
		// forward, the oldest reversed.
		visible := s.r.visibleValueNear
		if s.reverse {
			visible = s.r.visibleValueBack
		}
		v, found, err := visible(s.wit, s.wPrefix, key, s.ts, s.o.KeyOnly)
		if err != nil {
			return err
		}
		if found {
			s.out(Pair{Key: key, Value: v})
		}
		s.skipKey()
	}
	if err := s.wit.Error(); err != nil {
		return err
	}
	if s.lit != nil {
		if err := s.lit.Error(); err != nil {
			return err
		}
	}
	return nil
}

func (s *scanner) out(p Pair) {
	s.emitted++
	s.emit(p)
}

func (s *scanner) decodeWKey() error {
	if !s.wOK {
		s.wKey = nil
		return nil
	}
	ek := s.wit.Key()
	if s.wKey != nil && hasVersionPrefix(ek, s.wPrefix) {
		return nil // still on the key decoded last
	}
	k, _, err := decodeVersionedKeyWith(ek, s.r.arena.decodeBytes)
	if err != nil {
		return err
	}
	s.wKey = k
	s.wPrefix = append(s.wPrefix[:0], ek[:userKeyPrefixLen(ek)]...)
	return nil
}

func (s *scanner) moveLock() {
	if s.reverse {
		s.lOK = s.lit.Prev()
	} else {
		s.lOK = s.lit.Next()
	}
}

// skipKey positions the write iterator on the next user key (in scan
// order) after the one whose versions start with s.wPrefix, from anywhere
// among those versions or already past them. It steps over up to
// seekBound of them, then seeks past the rest: usually there are none or
// one left, but a hot key may have hundreds.
func (s *scanner) skipKey() {
	p := s.wPrefix
	s.wOK = s.wit.Valid()
	if s.nextPrefix != nil {
		// Most keys have one version: a Next lands on the next key, and
		// is cheaper than NextPrefix, which then skips any other versions.
		if s.wOK && hasVersionPrefix(s.wit.Key(), p) {
			s.wOK = s.wit.Next()
		}
		if s.wOK && hasVersionPrefix(s.wit.Key(), p) {
			s.wOK = s.nextPrefix.NextPrefix()
		}
		return
	}
	for i := 0; s.wOK; i++ {
		if !hasVersionPrefix(s.wit.Key(), p) {
			return // on the next key already
		}
		if i == seekBound {
			break
		}
		if s.reverse {
			s.wOK = s.wit.Prev()
		} else {
			s.wOK = s.wit.Next()
		}
	}
	if !s.wOK {
		return
	}
	if s.reverse {
		s.wOK = s.wit.SeekLT(p)
		return
	}
	s.seekBuf = append(s.seekBuf[:0], p...)
	s.seekBuf[len(s.seekBuf)-1]++ // the final marker is < 0xFF: no carry
	s.wOK = s.wit.SeekGE(s.seekBuf)
}

// cloneLock copies the parts of a decoded lock that alias iterator memory.
func cloneLock(l *Lock) *Lock {
	c := *l
	c.Primary = bytes.Clone(l.Primary)
	c.ShortValue = bytes.Clone(l.ShortValue)
	if l.Secondaries != nil {
		c.Secondaries = make([][]byte, len(l.Secondaries))
		for i, s := range l.Secondaries {
			c.Secondaries[i] = bytes.Clone(s)
		}
	}
	c.RollbackTS = append([]uint64(nil), l.RollbackTS...)
	return &c
}

// ScanLocks returns up to limit (<= 0: no limit) locks in [start, end)
// (empty end: unbounded) whose start_ts <= maxTS, of every type.
func (r *Reader) ScanLocks(start, end []byte, maxTS uint64, limit int) ([]kv.LockInfo, error) {
	var out []kv.LockInfo
	err := r.eachLock(start, end, func(key []byte, l *Lock) bool {
		if l.StartTS <= maxTS {
			out = append(out, cloneLock(l).Info(bytes.Clone(key)))
		}
		return limit <= 0 || len(out) < limit
	})
	return out, err
}

// ScanTxnLocks returns up to limit (<= 0: no limit) keys in [start, end)
// locked by the txn startTS (ResolveLock without keys).
func (r *Reader) ScanTxnLocks(start, end []byte, startTS uint64, limit int) ([][]byte, error) {
	var out [][]byte
	err := r.eachLock(start, end, func(key []byte, l *Lock) bool {
		if l.StartTS == startTS {
			out = append(out, bytes.Clone(key))
		}
		return limit <= 0 || len(out) < limit
	})
	return out, err
}

// eachLock calls f for every lock in [start, end) until f returns false.
// key and l alias iterator memory.
func (r *Reader) eachLock(start, end []byte, f func(key []byte, l *Lock) bool) error {
	if err := kv.ValidateRange(start, end); err != nil {
		return err
	}
	it, err := r.snap.NewIter(lockRangeBound(start, false), lockRangeBound(end, true))
	if err != nil {
		return err
	}
	defer it.Close()
	var l Lock
	for ok := it.First(); ok; ok = it.Next() {
		l = Lock{}
		if err := decodeLockInto(&l, it.Value()); err != nil {
			return err
		}
		if !f(it.Key()[1:], &l) {
			break
		}
	}
	return it.Error()
}
