package mvcc

// Rollback rolls back key of the txn startTS for BatchRollback (reference
// §2.4): Cleanup with no TTL check and protect=false (a rollback of an own
// lock on the primary is still protected). A committed key yields a
// *CommittedError.
func Rollback(t *Txn, r *Reader, key []byte, startTS uint64) error {
	cts, err := Cleanup(t, r, key, startTS, 0, false)
	if err != nil {
		return err
	}
	if cts != 0 {
		return &CommittedError{Key: key, StartTS: startTS, CommitTS: cts}
	}
	return nil
}
