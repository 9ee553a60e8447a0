package kv

// LockType is the kind of a Percolator lock.
type LockType byte

// Lock types, as stored in the first byte of a lock record.
const (
	LockTypePut         LockType = 'P'
	LockTypeDelete      LockType = 'D'
	LockTypeLock        LockType = 'L' // read lock; never blocks readers
	LockTypePessimistic LockType = 'S' // placeholder; never blocks readers
)

// LockInfo describes a lock met by a reader or writer: what the client's lock
// resolver needs to find the lock's transaction and decide its fate.
type LockInfo struct {
	Key            []byte
	Primary        []byte
	StartTS        uint64 // lock_version
	TTL            uint64 // milliseconds from StartTS's physical part
	TxnSize        uint64
	Type           LockType
	ForUpdateTS    uint64
	UseAsyncCommit bool
	MinCommitTS    uint64
	Secondaries    [][]byte
}
