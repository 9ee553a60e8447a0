package mvcc

// MutationOp is the kind of a prewrite mutation.
type MutationOp int

// Mutation ops (reference §2.2).
const (
	OpPut MutationOp = iota
	OpDel
	OpLock
	OpInsert         // a Put whose key must not exist
	OpCheckNotExists // check only: the key must not exist; writes nothing
)

// Mutation is one key of a prewrite.
type Mutation struct {
	Op    MutationOp
	Key   []byte
	Value []byte
	// Pessimistic (DoPessimisticCheck): the key was locked by
	// AcquirePessimisticLock, and the prewrite must find that lock.
	Pessimistic bool
	// ReadNewest: the txn read the key at its newest version (GetNewest)
	// instead of at its start_ts, and NewestSeen is the commit ts that
	// read answered. An optimistic prewrite fails with a write conflict if
	// the key has a commit record (Put, Delete, Lock) newer than
	// NewestSeen, as well as on any record newer than start_ts.
	ReadNewest bool
	NewestSeen uint64
}

// MemLocker is the txn layer's concurrency manager as Prewrite sees it.
// LockKey calls fill with the current max_ts while holding key's memory
// lock slot, and publishes the *Lock fill returns into the memory lock table
// (readers check it with the §2.1 blocking rule) until the caller of the
// action (the txn layer) releases it after the engine write is applied.
// When fill returns nil nothing is published.
type MemLocker interface {
	LockKey(key []byte, fill func(maxTS uint64) *Lock)
}

// PrewriteParams are the request-level parameters of Prewrite, shared by the
// request's mutations. Prewrite clears UseAsyncCommit and TryOnePC when it
// falls back to 2PC so that later keys of the request use 2PC too.
type PrewriteParams struct {
	Primary             []byte
	StartTS             uint64
	LockTTL             uint64
	TxnSize             uint64
	ForUpdateTS         uint64
	MinCommitTS         uint64
	MaxCommitTS         uint64
	UseAsyncCommit      bool
	Secondaries         [][]byte
	TryOnePC            bool
	SkipConstraintCheck bool
	IsRetry             bool
	Mem                 MemLocker
}
