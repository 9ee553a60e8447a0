package server

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/strata-db/strata/internal/store/engine"
	"github.com/strata-db/strata/internal/store/mvcc"
	"github.com/strata-db/strata/internal/store/raftstore"
	"github.com/strata-db/strata/internal/store/txn"
)

// OpenEngines opens (creating them) a raftstore's two engines under dir:
// kv/, the data with the MVCC key split, and raft/, the raft logs. The
// data engine does not sync: durability comes from the raft log. With
// eo.IOUringSync both engines fsync through io_uring where the kernel has
// it: the raft log on every synced write, the data at flushes and
// compactions.
func OpenEngines(dir string, eo engine.Options) (*engine.Pebble, *pebble.DB, error) {
	for _, d := range []string{"kv", "raft"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, nil, err
		}
	}
	eo.Sync = false
	kv, err := engine.Open(filepath.Join(dir, "kv"), mvcc.WithKeySplit(eo))
	if err != nil {
		return nil, nil, fmt.Errorf("open kv engine: %w", err)
	}
	// The raft log syncs every write: its WAL is prefilled.
	reo := eo
	reo.PrefillWAL = true
	raftdb, err := pebble.Open(filepath.Join(dir, "raft"), &pebble.Options{Logger: eo.Logger, MemTableSize: 64 << 20, FS: reo.SyncFS(vfs.Default)})
	if err != nil {
		kv.Close()
		return nil, nil, fmt.Errorf("open raft engine: %w", err)
	}
	return kv, raftdb, nil
}

// NewRaftStorage returns the transactional storage over rs, set as rs's
// apply observer (its lock index follows every replica's applies) and as
// the max_ts a new leader raises. Call before rs.Start.
func NewRaftStorage(rs *raftstore.Store, opts txn.Options) *txn.Storage {
	opts.AppliesObserved = true
	storage := txn.NewStorage(rs, opts)
	rs.SetLockHandoff(storage)
	rs.SetObserver(storage)
	rs.SetMaxTSUpdater(storage.ConcurrencyManager())
	return storage
}
