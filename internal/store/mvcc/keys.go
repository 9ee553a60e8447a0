package mvcc

import (
	"bytes"
	"encoding/binary"
	"errors"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/store/engine"
)

// Key-space prefixes inside the engine; they emulate TiKV's column families.
const (
	prefixLock  = 'l'
	prefixWrite = 'w'
	prefixData  = 'd'
)

const tsLen = 8

// errBadKey reports an engine key that does not decode.
var errBadKey = errors.New("mvcc: malformed engine key")

// EngineComparerName names the engine key order with EngineKeySplit: a
// database created with it opens only with it.
const EngineComparerName = "strata.mvcc.v1"

// EngineKeySplit is the engine's Split (engine.Options.Split): a write or
// data key's prefix is everything but its 8-byte version, so bloom filters
// answer "has this user key any version here?"; other keys (locks) are
// their own prefix. The memcomparable encoding of the user key makes the
// prefixes prefix-free, so bytewise order is prefix order, then version
// order, as Pebble requires.
//
// A versioned key is the prefix byte, whole 9-byte memcomparable groups
// and the version, so its length is 1 + 9n + 8; a scan bound without a
// version ('w' + memcomparable(key)) is 1 + 9n long and is its own prefix,
// sorting before every version of the key, as Pebble requires of a bare
// prefix (and as its NextPrefix requires of an upper bound).
func EngineKeySplit(k []byte) int {
	if len(k) > tsLen && (k[0] == prefixWrite || k[0] == prefixData) && (len(k)-1-tsLen)%codec.EncodedBytesLen(0) == 0 {
		return len(k) - tsLen
	}
	return len(k)
}

// LockKey returns the engine key of key's lock: 'l' + key.
func LockKey(key []byte) []byte {
	return appendLockKey(make([]byte, 0, 1+len(key)), key)
}

// DecodeLockKey returns the user key of a lock-space engine key; ok is
// false for keys of the other spaces.
func DecodeLockKey(engineKey []byte) (key []byte, ok bool) {
	if len(engineKey) == 0 || engineKey[0] != prefixLock {
		return nil, false
	}
	return engineKey[1:], true
}

// LockSpaceBounds returns the engine key bounds [lo, hi) of the lock space.
func LockSpaceBounds() (lo, hi []byte) { return []byte{prefixLock}, []byte{prefixLock + 1} }

func appendLockKey(dst, key []byte) []byte {
	dst = append(dst, prefixLock)
	return append(dst, key...)
}

// WriteKey returns the engine key of key's write record at ts:
// 'w' + memcomparable(key) + bigendian(^ts).
func WriteKey(key []byte, ts uint64) []byte {
	return appendVersionedKey(make([]byte, 0, 1+codec.EncodedBytesLen(len(key))+tsLen), prefixWrite, key, ts)
}

// DataKey returns the engine key of key's long value written at start ts:
// 'd' + memcomparable(key) + bigendian(^ts).
func DataKey(key []byte, ts uint64) []byte {
	return appendVersionedKey(make([]byte, 0, 1+codec.EncodedBytesLen(len(key))+tsLen), prefixData, key, ts)
}

func appendVersionedKey(dst []byte, prefix byte, key []byte, ts uint64) []byte {
	dst = append(dst, prefix)
	dst = codec.EncodeBytes(dst, key)
	return binary.BigEndian.AppendUint64(dst, ^ts)
}

// appendWritePrefix appends 'w' + memcomparable(key): the common prefix of
// all of key's write records.
func appendWritePrefix(dst, key []byte) []byte {
	dst = append(dst, prefixWrite)
	return codec.EncodeBytes(dst, key)
}

// DecodeVersionedKey splits a write or data engine key into its prefix
// byte, user key and timestamp.
func DecodeVersionedKey(ek []byte) (prefix byte, key []byte, ts uint64, err error) {
	key, ts, err = decodeVersionedKeyWith(ek, codec.DecodeBytes)
	if err != nil {
		return 0, nil, 0, err
	}
	return ek[0], key, ts, nil
}

// decodeVersionedKeyWith splits a versioned engine key into its user key,
// decoded by decode (codec.DecodeBytes or an arena's), and timestamp.
func decodeVersionedKeyWith(ek []byte, decode func([]byte) (rest, key []byte, err error)) (key []byte, ts uint64, err error) {
	if len(ek) < 1+tsLen {
		return nil, 0, errBadKey
	}
	rest, key, err := decode(ek[1:])
	if err != nil {
		return nil, 0, err
	}
	if len(rest) != tsLen {
		return nil, 0, errBadKey
	}
	return key, ^binary.BigEndian.Uint64(rest), nil
}

// versionTS returns the timestamp suffix of a versioned engine key.
func versionTS(ek []byte) uint64 {
	return ^binary.BigEndian.Uint64(ek[len(ek)-tsLen:])
}

// hasVersionPrefix reports whether versioned engine key ek is a version of
// the user key whose encoded prefix (space byte + memcomparable key) is p.
func hasVersionPrefix(ek, p []byte) bool {
	return len(ek) == len(p)+tsLen && bytes.HasPrefix(ek, p)
}

// userKeyPrefixLen returns the length of prefix byte + encoded user key of a
// versioned engine key (everything but the timestamp).
func userKeyPrefixLen(ek []byte) int { return len(ek) - tsLen }

// encodedRangeBound returns the engine bound of user key k in the versioned
// space with the given prefix: 'p' + memcomparable(k), which sorts before all
// versions of k and after all versions of keys < k. An empty k gives the
// bound of the whole space when upper is set.
func encodedRangeBound(prefix byte, k []byte, upper bool) []byte {
	if len(k) == 0 {
		if upper {
			return []byte{prefix + 1}
		}
		return []byte{prefix}
	}
	return codec.EncodeBytes([]byte{prefix}, k)
}

// EngineKeySuccessor is the engine's ImmediateSuccessor for prefixes
// under EngineKeySplit: above every version of a write or data prefix p
// (p + 8 version bytes) lies p + 8 x 0xFF + 0x00; for a key that is its
// own prefix it is the key + 0x00.
func EngineKeySuccessor(dst, p []byte) []byte {
	dst = append(dst, p...)
	if len(p) > 1 && (p[0] == prefixWrite || p[0] == prefixData) && (len(p)-1)%codec.EncodedBytesLen(0) == 0 {
		dst = append(dst, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF)
	}
	return append(dst, 0)
}

// WithKeySplit returns o with the engine's key split set: the options every
// engine under this package's key layout is opened with.
func WithKeySplit(o engine.Options) engine.Options {
	o.Split, o.ImmediateSuccessor, o.ComparerName = EngineKeySplit, EngineKeySuccessor, EngineComparerName
	return o
}

// EngineRanges returns the engine key ranges [lo, hi) that hold the locks,
// write records and data of the user keys in [start, end) (empty end:
// +inf): what a region's snapshot carries and what its removal deletes.
func EngineRanges(start, end []byte) [][2][]byte {
	lockHi := []byte{prefixLock + 1}
	if len(end) > 0 {
		lockHi = appendLockKey(nil, end)
	}
	return [][2][]byte{
		{encodedRangeBound(prefixData, start, false), encodedRangeBound(prefixData, end, true)},
		{appendLockKey(nil, start), lockHi},
		{encodedRangeBound(prefixWrite, start, false), encodedRangeBound(prefixWrite, end, true)},
	}
}

// InEngineRanges reports whether engine key key lies in one of ranges
// (as EngineRanges returns them).
func InEngineRanges(key []byte, ranges [][2][]byte) bool {
	for _, rg := range ranges {
		if bytes.Compare(key, rg[0]) >= 0 && bytes.Compare(key, rg[1]) < 0 {
			return true
		}
	}
	return false
}

// DecodeWriteUserKey returns the user key of a write-space engine key
// (ok false for other keys).
func DecodeWriteUserKey(ek []byte) (key []byte, ok bool) {
	if len(ek) == 0 || ek[0] != prefixWrite {
		return nil, false
	}
	p, key, _, err := DecodeVersionedKey(ek)
	return key, err == nil && p == prefixWrite
}

// WriteSpaceBounds returns the engine bounds of the write records of the
// user keys in [start, end).
func WriteSpaceBounds(start, end []byte) (lo, hi []byte) {
	return encodedRangeBound(prefixWrite, start, false), encodedRangeBound(prefixWrite, end, true)
}

// UserKeyOf returns the user key an engine key of the lock, write or data
// space belongs to (ok false for other keys).
func UserKeyOf(ek []byte) (key []byte, ok bool) {
	if len(ek) == 0 {
		return nil, false
	}
	switch ek[0] {
	case prefixLock:
		return ek[1:], true
	case prefixWrite, prefixData:
		_, k, _, err := DecodeVersionedKey(ek)
		return k, err == nil
	}
	return nil, false
}
