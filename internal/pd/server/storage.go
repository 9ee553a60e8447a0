package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
	"github.com/strata-db/strata/internal/kvproto/pdpb"
	"github.com/strata-db/strata/internal/pd/meta"
	clientv3 "go.etcd.io/etcd/client/v3"
	"google.golang.org/protobuf/proto"
)

// maxOpsPerTxn stays below etcd's --max-txn-ops (128).
const maxOpsPerTxn = 100

// etcdStorage is meta.Storage over etcd for one leadership term. Stores
// are written through; region changes are queued (the last change per
// region wins) and written behind in guarded batches every flush
// interval, as PD does. A change lost to a crash comes back with the
// region's next heartbeat.
type etcdStorage struct {
	cli      *clientv3.Client
	guard    []clientv3.Cmp
	log      *slog.Logger
	interval time.Duration
	onLost   func() // called when a guarded write finds leadership gone

	mu struct {
		sync.Mutex
		// pending maps region id to its newest change: a region to save,
		// or nil to delete.
		pending map[uint64]*kvrpcpb.Region
	}
	stop chan struct{}
	done chan struct{}
}

var _ meta.Storage = (*etcdStorage)(nil)

func newEtcdStorage(cli *clientv3.Client, guard []clientv3.Cmp, interval time.Duration, log *slog.Logger, onLost func()) *etcdStorage {
	s := &etcdStorage{cli: cli, guard: guard, log: log, interval: interval, onLost: onLost,
		stop: make(chan struct{}), done: make(chan struct{})}
	s.mu.pending = map[uint64]*kvrpcpb.Region{}
	return s
}

// loadPrefix calls fn for every value under prefix, in pages.
func loadPrefix(ctx context.Context, cli *clientv3.Client, prefix string, fn func(key string, val []byte) error) error {
	key, end := prefix, clientv3.GetPrefixRangeEnd(prefix)
	for {
		resp, err := cli.Get(ctx, key, clientv3.WithRange(end), clientv3.WithLimit(1000))
		if err != nil {
			return err
		}
		for _, kv := range resp.Kvs {
			if err := fn(string(kv.Key), kv.Value); err != nil {
				return err
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			return nil
		}
		key = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
}

func (s *etcdStorage) LoadStores(fn func(*pdpb.Store)) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return loadPrefix(ctx, s.cli, storePrefix, func(key string, val []byte) error {
		st := &pdpb.Store{}
		if err := proto.Unmarshal(val, st); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, key, err)
		}
		fn(st)
		return nil
	})
}

func (s *etcdStorage) LoadRegions(fn func(*kvrpcpb.Region)) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return loadPrefix(ctx, s.cli, regionPrefix, func(key string, val []byte) error {
		r := &kvrpcpb.Region{}
		if err := proto.Unmarshal(val, r); err != nil {
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, key, err)
		}
		fn(r)
		return nil
	})
}

func (s *etcdStorage) SaveStore(st *pdpb.Store) error {
	b, err := proto.Marshal(st)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = guardedTxn(ctx, s.cli, s.guard, clientv3.OpPut(storeKey(st.GetId()), string(b)))
	if errors.Is(err, ErrNotLeader) {
		s.onLost()
	}
	return err
}

func (s *etcdStorage) SaveRegion(r *kvrpcpb.Region) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.pending[r.GetId()] = r
}

func (s *etcdStorage) DeleteRegion(id uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.pending[id] = nil
}

// run writes the queued region changes every interval until close.
func (s *etcdStorage) run() {
	defer close(s.done)
	tick := time.NewTicker(s.interval)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			if err := s.flush(10 * time.Second); err != nil {
				if errors.Is(err, ErrNotLeader) {
					s.onLost()
					return
				}
				s.log.Warn("pd: writing regions to etcd failed; will retry", "err", err)
			}
		}
	}
}

// close stops the writer; with flush it writes what is queued first (a
// leader stepping down cleanly), giving up after a short while (the
// cluster may have lost its quorum: the last members stopping).
func (s *etcdStorage) close(flush bool) {
	close(s.stop)
	<-s.done
	if flush {
		if err := s.flush(2 * time.Second); err != nil {
			s.log.Warn("pd: final region flush failed", "err", err)
		}
	}
}

// flush writes the queued changes in guarded batches. Changes of a batch
// that fails go back to the queue unless a newer change of the same
// region arrived meanwhile.
func (s *etcdStorage) flush(timeout time.Duration) error {
	s.mu.Lock()
	batch := s.mu.pending
	s.mu.pending = map[uint64]*kvrpcpb.Region{}
	s.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	ids := make([]uint64, 0, len(batch))
	for id := range batch {
		ids = append(ids, id)
	}
	for len(ids) > 0 {
		n := min(len(ids), maxOpsPerTxn)
		chunk := ids[:n]
		ids = ids[n:]
		ops := make([]clientv3.Op, 0, n)
		for _, id := range chunk {
			r := batch[id]
			if r == nil {
				ops = append(ops, clientv3.OpDelete(regionKey(id)))
				continue
			}
			b, err := proto.Marshal(r)
			if err != nil {
				return err
			}
			ops = append(ops, clientv3.OpPut(regionKey(id), string(b)))
		}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		err := guardedTxn(ctx, s.cli, s.guard, ops...)
		cancel()
		if err != nil {
			s.requeue(batch, chunk)
			s.requeue(batch, ids)
			return err
		}
	}
	return nil
}

func (s *etcdStorage) requeue(batch map[uint64]*kvrpcpb.Region, ids []uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		if _, newer := s.mu.pending[id]; !newer {
			s.mu.pending[id] = batch[id]
		}
	}
}
