package server

import (
	"context"
	"fmt"
	"strconv"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// guardedTxn runs ops in one etcd transaction if every guard holds; a
// failed guard is ErrNotLeader. The guard of a leader's writes is that the
// leader key still has the create revision of its own campaign, so a
// member that lost leadership can never write again, whatever it believes.
func guardedTxn(ctx context.Context, cli *clientv3.Client, guard []clientv3.Cmp, ops ...clientv3.Op) error {
	resp, err := cli.Txn(ctx).If(guard...).Then(ops...).Commit()
	if err != nil {
		return err
	}
	if !resp.Succeeded {
		return ErrNotLeader
	}
	return nil
}

// leaderGuard is the guard of the term whose campaign created the leader
// key at createRev with value self: the key must still be that one (not
// deleted and recreated) and still name this member (not overwritten).
func leaderGuard(createRev int64, self string) []clientv3.Cmp {
	return []clientv3.Cmp{
		clientv3.Compare(clientv3.CreateRevision(keyLeader), "=", createRev),
		clientv3.Compare(clientv3.Value(keyLeader), "=", self),
	}
}

// getUint reads a decimal uint64 at key (0 when absent).
func getUint(ctx context.Context, cli *clientv3.Client, key string) (uint64, error) {
	resp, err := cli.Get(ctx, key)
	if err != nil {
		return 0, err
	}
	if len(resp.Kvs) == 0 {
		return 0, nil
	}
	v, err := strconv.ParseUint(string(resp.Kvs[0].Value), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %s = %q", ErrCorrupt, key, resp.Kvs[0].Value)
	}
	return v, nil
}

func putUint(key string, v uint64) clientv3.Op {
	return clientv3.OpPut(key, strconv.FormatUint(v, 10))
}
