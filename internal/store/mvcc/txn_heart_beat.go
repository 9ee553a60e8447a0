package mvcc

import (
	"github.com/strata-db/strata/internal/kv"
)

// TxnHeartBeat raises the TTL of the txn's lock on primary to adviseTTL if
// larger and returns the lock's TTL (reference §2.6). A missing lock or
// another txn's lock is a *kv.TxnNotFoundError. It never deletes anything.
func TxnHeartBeat(t *Txn, r *Reader, primary []byte, startTS, adviseTTL uint64) (ttl uint64, err error) {
	if err := kv.ValidateKey(primary); err != nil {
		return 0, err
	}
	l, err := r.LoadLock(primary)
	if err != nil {
		return 0, err
	}
	if l == nil || l.StartTS != startTS {
		return 0, &kv.TxnNotFoundError{StartTS: startTS, Primary: primary}
	}
	if l.TTL < adviseTTL {
		l.TTL = adviseTTL
		t.putLock(primary, l)
	}
	return l.TTL, nil
}
