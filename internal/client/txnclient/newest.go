package txnclient

import (
	"context"
	"errors"
	"math"
	"sort"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// newestReads is the state of a txn begun by BeginNewest.
type newestReads struct {
	// snap reads at MaxUint64.
	snap *snapshot
	// seen maps each key Get read to the commit ts of the newest commit
	// record its first read saw (0: none).
	seen map[string]uint64
	// mixed: some read was not such a Get (it read at the start ts).
	mixed bool
}

// BeginNewest starts an optimistic transaction for an autocommit
// statement that reads only by Get and writes what it read, such as an
// UPDATE or DELETE of one row by primary key. Its start ts is asked of
// PD now and waited for only at the commit (BeginLazy); meanwhile each
// Get reads the key's newest version, as a point SELECT in autocommit
// does, so the read and the timestamp's round trip overlap.
//
// The commit makes that safe. Every key read is prewritten (a key read
// but not written as an Op_Lock) naming the newest commit record its
// read saw, and the prewrite fails with a write conflict if the key has a
// newer one by then, or any record newer than the start ts
// (Mutation.read_newest). So nothing changed between each read and the
// prewrite, and what was read is what a read at the start ts would have
// found: the statement reads and writes as one.
//
// BatchGet and Iter read at the start ts, as in a plain txn; a txn that
// wrote after mixing them with Get fails its commit with a write
// conflict, which an autocommit statement retries.
func (c *Client) BeginNewest(ctx context.Context) (*Txn, error) {
	t, err := c.BeginLazy(ctx)
	if err != nil {
		return nil, err
	}
	t.newest = &newestReads{snap: newSnapshot(c, math.MaxUint64), seen: make(map[string]uint64)}
	return t, nil
}

// getNewest is Get in a BeginNewest txn: the key's newest version, noting
// what the read saw.
func (t *Txn) getNewest(ctx context.Context, k kv.Key) ([]byte, error) {
	v, ts, err := t.newest.snap.getKey(ctx, k, true)
	if err != nil && !errors.Is(err, kv.ErrNotExist) {
		return nil, err
	}
	if _, ok := t.newest.seen[string(k)]; !ok {
		t.newest.seen[string(k)] = ts
	}
	return v, err
}

// check is the commit's test of the reads: a txn that also read at its
// start ts cannot commit. (A read that saw a record above the start ts
// fails the prewrite, which checks against the lower of the two.)
func (n *newestReads) check(startTS uint64) error {
	if n.mixed && len(n.seen) > 0 {
		return &kv.WriteConflictError{StartTS: startTS, Reason: kv.ConflictOptimistic}
	}
	return nil
}

// markMutations names, on the mutations of the keys read, what each read
// saw, and adds an Op_Lock for a key read but not written; muts stays
// sorted by key.
func (n *newestReads) markMutations(muts []*kvrpcpb.Mutation) []*kvrpcpb.Mutation {
	marked := 0
	for _, m := range muts {
		if ts, ok := n.seen[string(m.Key)]; ok {
			m.ReadNewest, m.NewestSeen = true, ts
			marked++
		}
	}
	if marked == len(n.seen) {
		return muts
	}
	written := make(map[string]bool, len(muts))
	for _, m := range muts {
		written[string(m.Key)] = true
	}
	for k, ts := range n.seen {
		if !written[k] {
			muts = append(muts, &kvrpcpb.Mutation{Op: kvrpcpb.Op_Lock, Key: []byte(k), ReadNewest: true, NewestSeen: ts})
		}
	}
	sort.Slice(muts, func(i, j int) bool { return kv.Key(muts[i].Key).Cmp(muts[j].Key) < 0 })
	return muts
}
