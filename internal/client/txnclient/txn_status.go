package txnclient

import (
	"sync"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// TxnStatus is what CheckTxnStatus said about a transaction.
type TxnStatus struct {
	// TTL > 0: the transaction is alive (its primary is locked).
	TTL uint64
	// CommitTS > 0: committed at CommitTS. TTL == CommitTS == 0: rolled back.
	CommitTS uint64
	// Action is what the check did to the primary.
	Action kvrpcpb.Action
	// PrimaryLock is the primary's lock while alive.
	PrimaryLock *kv.LockInfo

	// currentTS is the timestamp the check was made at.
	currentTS uint64
}

// IsFinal reports whether the transaction is committed or rolled back.
func (s TxnStatus) IsFinal() bool { return s.TTL == 0 }

// IsCommitted reports a committed transaction.
func (s TxnStatus) IsCommitted() bool { return s.TTL == 0 && s.CommitTS > 0 }

// statusCacheSize bounds the cache of final statuses.
const statusCacheSize = 2048

// statusCache remembers final statuses by start ts, FIFO-evicted.
type statusCache struct {
	mu    sync.Mutex
	m     map[uint64]TxnStatus
	order []uint64
}

func (c *statusCache) get(startTS uint64) (TxnStatus, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.m[startTS]
	return s, ok
}

func (c *statusCache) put(startTS uint64, s TxnStatus) {
	if !s.IsFinal() {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[uint64]TxnStatus)
	}
	if _, ok := c.m[startTS]; ok {
		return
	}
	if len(c.order) >= statusCacheSize {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[startTS] = s
	c.order = append(c.order, startTS)
}
