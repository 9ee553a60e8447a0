package server

import (
	"context"
	"time"

	"github.com/strata-db/strata/internal/pd/tso"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// EtcdWindowStore is a tso.WindowStore in etcd: the limit is a decimal
// string at one key, saved only while guard holds (the leader key still
// being this leader's), so a deposed leader can never move the limit and
// every new leader starts above whatever its predecessors served.
type EtcdWindowStore struct {
	cli     *clientv3.Client
	key     string
	guard   []clientv3.Cmp
	timeout time.Duration
}

var _ tso.WindowStore = (*EtcdWindowStore)(nil)

// NewEtcdWindowStore returns a store of the limit at key, saving only when
// every comparison of guard holds (none: always).
func NewEtcdWindowStore(cli *clientv3.Client, key string, guard ...clientv3.Cmp) *EtcdWindowStore {
	return &EtcdWindowStore{cli: cli, key: key, guard: guard, timeout: 5 * time.Second}
}

// Load returns the saved limit, 0 if none.
func (s *EtcdWindowStore) Load() (uint64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	return getUint(ctx, s.cli, s.key)
}

// Save records limit once a quorum of etcd has it; ErrNotLeader if the
// guard no longer holds.
func (s *EtcdWindowStore) Save(limit uint64) error {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	return guardedTxn(ctx, s.cli, s.guard, putUint(s.key, limit))
}
