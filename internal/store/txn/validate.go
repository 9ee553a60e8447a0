package txn

import (
	"errors"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// validateKeys reports kv.ErrInvalidKey for the first empty or oversized
// key.
func validateKeys(keys [][]byte) error {
	for _, k := range keys {
		if err := kv.ValidateKey(k); err != nil {
			return err
		}
	}
	return nil
}

// validateRange checks a scan range: bounds may be empty (unbounded) but
// not oversized, and a bounded range must have lo <= hi.
func validateRange(lo, hi []byte) error {
	for _, k := range [][]byte{lo, hi} {
		if len(k) > 0 {
			if err := kv.ValidateKey(k); err != nil {
				return err
			}
		}
	}
	return kv.ValidateRange(lo, hi)
}

// validatePrewrite checks a whole prewrite request before anything runs.
func validatePrewrite(req *kvrpcpb.PrewriteRequest) error {
	if len(req.GetMutations()) == 0 {
		return kv.InvalidArgumentf("prewrite without mutations")
	}
	if len(req.GetPrimaryLock()) == 0 {
		return kv.InvalidArgumentf("prewrite without primary lock")
	}
	if err := kv.ValidateKey(req.GetPrimaryLock()); err != nil {
		return err
	}
	if req.GetStartVersion() == 0 {
		return kv.InvalidArgumentf("prewrite with start_version 0")
	}
	for _, m := range req.GetMutations() {
		if err := kv.ValidateKey(m.GetKey()); err != nil {
			return err
		}
		if len(m.GetValue()) > kv.MaxValueSize {
			return kv.InvalidArgumentf("value of %d bytes exceeds %d", len(m.GetValue()), kv.MaxValueSize)
		}
		switch m.GetOp() {
		case kvrpcpb.Op_Put, kvrpcpb.Op_Del, kvrpcpb.Op_Lock, kvrpcpb.Op_Insert, kvrpcpb.Op_CheckNotExists:
		default:
			return kv.InvalidArgumentf("prewrite with mutation op %v", m.GetOp())
		}
	}
	if n := len(req.GetIsPessimisticLock()); n > 0 && (n != len(req.GetMutations()) || req.GetForUpdateTs() == 0) {
		return kv.InvalidArgumentf("prewrite with %d pessimistic flags for %d mutations, for_update_ts %d",
			n, len(req.GetMutations()), req.GetForUpdateTs())
	}
	return validateKeys(req.GetSecondaries())
}

// validateCommitTS reports InvalidTxnTso unless commitTS > startTS.
func validateCommitTS(startTS, commitTS uint64) error {
	if commitTS <= startTS {
		return &kv.InvalidTxnTsoError{StartTS: startTS, CommitTS: commitTS}
	}
	return nil
}

// keyErr converts a storage error for a response field.
func keyErr(err error) *kvrpcpb.KeyError { return kvrpcpb.KeyErrorFrom(err) }

// isRC reports a read-committed request: such reads check no locks.
func isRC(c *kvrpcpb.Context) bool { return c.GetIsolationLevel() == kvrpcpb.IsolationLevel_RC }

// isLocked reports a KeyIsLocked error.
func isLocked(err error) bool { return errors.Is(err, kv.ErrKeyIsLocked) }
