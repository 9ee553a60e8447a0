package mvcc

import (
	"bytes"
	"encoding/binary"
	"errors"

	"github.com/strata-db/strata/internal/codec"
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
	if len(ek) < 1+tsLen {
		return 0, nil, 0, errBadKey
	}
	rest, key, err := codec.DecodeBytes(ek[1:])
	if err != nil {
		return 0, nil, 0, err
	}
	if len(rest) != tsLen {
		return 0, nil, 0, errBadKey
	}
	return ek[0], key, ^binary.BigEndian.Uint64(rest), nil
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
