package txnclient

import (
	"context"
	"errors"
	"fmt"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/client/rpc"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// maxCommitTsLag is how far (in TSO units, about one hour) CommitTsExpired
// may ask us to move the commit ts before we give up.
const maxCommitTsLag = uint64(3600*1000) << 18

// commit2PC takes a commit ts, commits the primary's batch synchronously
// and the other keys in the background.
func (cm *committer) commit2PC(ctx context.Context) error {
	bo := cm.c.newBackoffer(ctx, locate.CommitMaxBackoff)
	ts, err := cm.c.oracle.GetTimestamp(ctx)
	if err != nil {
		cm.cleanup(ctx)
		return err
	}
	primaryBatch, rest, err := cm.primaryBatchKeys(bo)
	if err != nil {
		cm.cleanup(ctx)
		return err
	}
	for {
		if ts <= cm.startTS {
			cm.cleanup(ctx)
			return &kv.InvalidTxnTsoError{StartTS: cm.startTS, CommitTS: ts}
		}
		err = cm.commitKeys(bo, primaryBatch, ts, true)
		var expired *kv.CommitTsExpiredError
		if !errors.As(err, &expired) {
			break
		}
		if expired.MinCommitTS > ts && expired.MinCommitTS-ts > maxCommitTsLag {
			break
		}
		// a fresh timestamp from the oracle, never min_commit_ts itself:
		// the commit ts must stay below every later txn's start ts
		if ts, err = cm.freshTSAbove(ctx, bo, expired.MinCommitTS, expired); err != nil {
			break
		}
	}
	if err != nil {
		if cm.undetermined.Load() {
			return fmt.Errorf("%w: %w", kv.ErrResultUndetermined, err)
		}
		cm.cleanup(ctx)
		return err
	}
	cm.commitTS = ts
	cm.commitInBackground(rest)
	return nil
}

// primaryBatchKeys returns the keys of the primary's batch (committed
// first and alone) and the rest.
func (cm *committer) primaryBatchKeys(bo *locate.Backoffer) (primary, rest [][]byte, err error) {
	batches, err := cm.makeBatches(bo, cm.muts)
	if err != nil {
		return nil, nil, err
	}
	for _, b := range batches {
		for _, m := range b.muts {
			if b.primary {
				primary = append(primary, m.Key)
			} else {
				rest = append(rest, m.Key)
			}
		}
	}
	return primary, rest, nil
}

// commitKeys commits keys at commitTS. When they hold the primary, the
// primary's region goes first and alone, and a reply lost there makes the
// result undetermined.
func (cm *committer) commitKeys(bo *locate.Backoffer, keys [][]byte, commitTS uint64, primary bool) error {
	groups, err := cm.c.sender.Cache().GroupKeysByRegion(bo.Context(), bo, keys)
	if err != nil {
		return err
	}
	if primary {
		for i, g := range groups {
			if containsKey(g.Keys, cm.primary) {
				groups[0], groups[i] = groups[i], groups[0]
				break
			}
		}
		if err := cm.commitGroup(bo, groups[0], commitTS, true); err != nil {
			return err
		}
		groups = groups[1:]
	}
	return parallelGroups(bo, groups, func(bo *locate.Backoffer, g locate.KeyGroup) error {
		return cm.commitGroup(bo, g, commitTS, false)
	})
}

// commitGroup commits the keys of one region, regrouping on region errors.
func (cm *committer) commitGroup(bo *locate.Backoffer, g locate.KeyGroup, commitTS uint64, primary bool) error {
	req := &kvrpcpb.CommitRequest{Context: &kvrpcpb.Context{}, StartVersion: cm.startTS, Keys: g.Keys, CommitVersion: commitTS}
	resp, err := locate.Send(cm.c.sender, bo, g.Location, req, rpc.StoreAPI.KvCommit)
	if err != nil {
		if errors.Is(err, locate.ErrRegionRetry) {
			return cm.commitKeys(bo, g.Keys, commitTS, primary)
		}
		if primary && errors.Is(err, locate.ErrNoReply) {
			cm.undetermined.Store(true)
		}
		return err
	}
	if primary {
		// storage answered: whatever happened is known now.
		cm.undetermined.Store(false)
	}
	return resp.GetError().Err()
}

// commitInBackground commits keys at the commit ts on a goroutine the
// client tracks; failures are left to other readers' lock resolution.
func (cm *committer) commitInBackground(keys [][]byte) {
	if len(keys) == 0 || cm.c.hooks.skipSecondaries {
		return
	}
	cm.c.bg.Add(1)
	go func() {
		defer cm.c.bg.Done()
		bo := cm.c.newBackoffer(context.Background(), locate.CommitMaxBackoff)
		_ = cm.commitKeys(bo, keys, cm.commitTS, false)
	}()
}

func containsKey(keys [][]byte, k []byte) bool {
	for _, x := range keys {
		if string(x) == string(k) {
			return true
		}
	}
	return false
}

// freshTSAbove takes timestamps from the oracle until one reaches min.
func (cm *committer) freshTSAbove(ctx context.Context, bo *locate.Backoffer, min uint64, cause error) (uint64, error) {
	for {
		ts, err := cm.c.oracle.GetTimestamp(ctx)
		if err != nil || ts >= min {
			return ts, err
		}
		if err := bo.Backoff(locate.BoTxnLockFast, cause); err != nil {
			return 0, err
		}
	}
}
