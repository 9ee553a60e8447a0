package raftstore

import (
	"encoding/binary"
)

// Local keys. Both engines keep store-local metadata under the byte 0x01,
// which sorts below every MVCC key space ('d', 'l', 'w') of kvdb and is
// its own prefix under the MVCC key split.
//
// raftdb (plain bytewise order):
//
//	0x01 'r' region_id 0x01 index -> raftpb.Entry
//	0x01 'r' region_id 0x02       -> RaftLocalState (hard state, last index)
//
// kvdb:
//
//	0x01 'i'                      -> StoreIdent
//	0x01 's' region_id 0x01       -> RegionLocalState
//	0x01 's' region_id 0x02       -> RaftApplyState
const (
	localPrefix    = 0x01
	raftPrefix     = 'r'
	statePrefix    = 's'
	identSuffix    = 'i'
	logSuffix      = 0x01
	raftStateSufx  = 0x02
	regionSufx     = 0x01
	applyStateSufx = 0x02
)

func regionKey(kind byte, regionID uint64, suffix byte) []byte {
	k := make([]byte, 0, 2+8+1+8)
	k = append(k, localPrefix, kind)
	k = binary.BigEndian.AppendUint64(k, regionID)
	return append(k, suffix)
}

// raftLogKey is the raftdb key of a region's log entry.
func raftLogKey(regionID, index uint64) []byte {
	return binary.BigEndian.AppendUint64(regionKey(raftPrefix, regionID, logSuffix), index)
}

// raftLogPrefix bounds all log entries of a region: [prefix, prefix+1).
func raftLogBounds(regionID uint64) (lo, hi []byte) {
	return regionKey(raftPrefix, regionID, logSuffix), regionKey(raftPrefix, regionID, logSuffix+1)
}

// raftStateKey is the raftdb key of a region's RaftLocalState.
func raftStateKey(regionID uint64) []byte { return regionKey(raftPrefix, regionID, raftStateSufx) }

// regionStateKey is the kvdb key of a region's RegionLocalState.
func regionStateKey(regionID uint64) []byte { return regionKey(statePrefix, regionID, regionSufx) }

// applyStateKey is the kvdb key of a region's RaftApplyState.
func applyStateKey(regionID uint64) []byte { return regionKey(statePrefix, regionID, applyStateSufx) }

// regionStateBounds bounds every region's local state keys in kvdb.
func regionStateBounds() (lo, hi []byte) {
	return []byte{localPrefix, statePrefix}, []byte{localPrefix, statePrefix + 1}
}

// storeIdentKey is the kvdb key of the StoreIdent.
var storeIdentKey = []byte{localPrefix, identSuffix}

// regionIDOfStateKey decodes the region id of a regionStateKey.
func regionIDOfStateKey(k []byte) (uint64, bool) {
	if len(k) != 2+8+1 || k[0] != localPrefix || k[1] != statePrefix {
		return 0, false
	}
	return binary.BigEndian.Uint64(k[2:10]), true
}
