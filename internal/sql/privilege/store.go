package privilege

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/kv"
)

// Keys of the user table in the metadata key space.
var (
	// usersHash is the meta hash of accounts: field "user@host" → JSON.
	usersHash = []byte("Users")
	// versionKey holds an 8-byte big-endian counter bumped by every
	// change, in the same transaction. It is absent until the first
	// change: the bootstrap accounts are implied until then.
	versionKey = codec.MetaKey([]byte("UsersVersion"))
)

// maxUpdateRetries bounds the retries of a change that met a write
// conflict (another server's change bumping the version key).
const maxUpdateRetries = 10

// BootstrapAccounts returns the accounts of a cluster where no account was
// ever written: root@'%' with an empty password, ALL PRIVILEGES and GRANT
// OPTION (MySQL's and TiDB's default).
func BootstrapAccounts() []*Account {
	return []*Account{{User: "root", Host: "%", Plugin: PluginNativePassword, Global: GlobalPrivs | GrantPriv}}
}

// Options configures a Store.
type Options struct {
	// Now is the clock for MaybeRefresh; nil means time.Now.
	Now func() time.Time
	// RefreshInterval is how stale MaybeRefresh lets the cache get; zero
	// means one second.
	RefreshInterval time.Duration
}

// Store keeps the accounts in the cluster and caches them as a Snapshot.
// Every change writes its accounts and bumps the version key in one
// transaction; Refresh reads the version key and reloads only when it
// moved, so every SQL server sees every change within one refresh.
//
// It is safe for concurrent use. mu serializes Refresh and Update;
// Snapshot reads the cache without a lock.
type Store struct {
	begin func(ctx context.Context) (kv.Transaction, error)
	opts  Options

	cur atomic.Pointer[Snapshot]
	// lastCheck is when the version key was last read (UnixNano), read
	// without the lock so that MaybeRefresh costs no lock when fresh.
	lastCheck atomic.Int64

	mu struct {
		sync.Mutex
		loaded bool
	}
}

// NewStore returns a store over the transactions begin starts. Until the
// first Refresh its snapshot holds the bootstrap accounts.
func NewStore(begin func(ctx context.Context) (kv.Transaction, error), opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.RefreshInterval == 0 {
		opts.RefreshInterval = time.Second
	}
	s := &Store{begin: begin, opts: opts}
	s.cur.Store(newSnapshot(0, BootstrapAccounts()))
	return s
}

// Snapshot returns the cached accounts.
func (s *Store) Snapshot() *Snapshot { return s.cur.Load() }

// Refresh reloads the cache if the version key moved since the last load.
func (s *Store) Refresh(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refreshLocked(ctx)
}

// MaybeRefresh refreshes when the last check is older than the refresh
// interval and no other refresh is running; otherwise it returns at once.
// Statements call it, so a server sees other servers' changes within
// about one interval without a background goroutine.
func (s *Store) MaybeRefresh(ctx context.Context) error {
	if s.fresh() || !s.mu.TryLock() {
		return nil
	}
	defer s.mu.Unlock()
	if s.fresh() {
		return nil
	}
	return s.refreshLocked(ctx)
}

// fresh reports whether the version key was read within the interval.
func (s *Store) fresh() bool {
	last := s.lastCheck.Load()
	return last != 0 && s.opts.Now().Sub(time.Unix(0, last)) < s.opts.RefreshInterval
}

func (s *Store) refreshLocked(ctx context.Context) error {
	txn, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = txn.Rollback() }()
	ver, err := readVersion(ctx, txn)
	if err != nil {
		return err
	}
	s.lastCheck.Store(s.opts.Now().UnixNano())
	if s.mu.loaded && ver == s.cur.Load().version {
		return nil
	}
	accts, err := load(ctx, txn, ver)
	if err != nil {
		return err
	}
	list := make([]*Account, 0, len(accts.m))
	for _, a := range accts.m {
		list = append(list, a)
	}
	s.cur.Store(newSnapshot(ver, list))
	s.mu.loaded = true
	return nil
}

// Update runs fn over the accounts as stored and persists what it changed,
// with a version bump, in one transaction; it retries write conflicts
// (fn may run more than once) and refreshes the cache. An error from fn
// aborts the change and is returned as is.
func (s *Store) Update(ctx context.Context, fn func(*Accounts) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var err error
	for attempt := 0; ; attempt++ {
		err = s.update(ctx, fn)
		if err == nil || !errors.Is(err, kv.ErrWriteConflict) || attempt >= maxUpdateRetries {
			break
		}
	}
	if err != nil {
		return err
	}
	// Persisted; if this reload fails the cache catches up later.
	_ = s.refreshLocked(ctx)
	return nil
}

func (s *Store) update(ctx context.Context, fn func(*Accounts) error) error {
	txn, err := s.begin(ctx)
	if err != nil {
		return err
	}
	err = s.updateTxn(ctx, txn, fn)
	if err != nil {
		_ = txn.Rollback()
		return err
	}
	return txn.Commit(ctx)
}

func (s *Store) updateTxn(ctx context.Context, txn kv.Transaction, fn func(*Accounts) error) error {
	ver, err := readVersion(ctx, txn)
	if err != nil {
		return err
	}
	accts, err := load(ctx, txn, ver)
	if err != nil {
		return err
	}
	if err := fn(accts); err != nil {
		return err
	}
	for k, a := range accts.m {
		b, err := json.Marshal(a)
		if err != nil {
			return err
		}
		if old, ok := accts.stored[k]; ok && bytes.Equal(old, b) {
			continue
		}
		if err := txn.Set(codec.MetaHashKey(usersHash, []byte(k)), b); err != nil {
			return err
		}
	}
	for k := range accts.stored {
		if _, ok := accts.m[k]; !ok {
			if err := txn.Delete(codec.MetaHashKey(usersHash, []byte(k))); err != nil {
				return err
			}
		}
	}
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], ver+1)
	return txn.Set(versionKey, b[:])
}

func readVersion(ctx context.Context, txn kv.Snapshot) (uint64, error) {
	v, err := txn.Get(ctx, versionKey)
	if errors.Is(err, kv.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("privilege: corrupt version key: %d bytes", len(v))
	}
	return binary.BigEndian.Uint64(v), nil
}

// load reads the stored accounts; at version 0 (never written) they are
// the bootstrap accounts.
func load(ctx context.Context, txn kv.Snapshot, ver uint64) (*Accounts, error) {
	accts := &Accounts{m: map[string]*Account{}, stored: map[string][]byte{}}
	if ver == 0 {
		for _, a := range BootstrapAccounts() {
			accts.m[id(a.User, a.Host)] = a
		}
		return accts, nil
	}
	prefix := codec.MetaHashPrefix(usersHash)
	it, err := txn.Iter(ctx, prefix, prefixEnd(prefix))
	if err != nil {
		return nil, err
	}
	defer it.Close()
	for it.Valid() {
		_, field, err := codec.DecodeMetaHashKey(it.Key())
		if err != nil {
			return nil, err
		}
		a := &Account{}
		if err := json.Unmarshal(it.Value(), a); err != nil {
			return nil, fmt.Errorf("privilege: account %q: %w", field, err)
		}
		accts.m[string(field)] = a
		accts.stored[string(field)] = append([]byte(nil), it.Value()...)
		if err := it.Next(); err != nil {
			return nil, err
		}
	}
	return accts, nil
}

// prefixEnd is the first key after every key starting with prefix.
func prefixEnd(prefix kv.Key) kv.Key {
	end := append(kv.Key(nil), prefix...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] < 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// RefreshLoop calls Refresh at every tick until ctx is done or ticks is
// closed, reporting errors to onErr (which may be nil). The caller owns
// the clock.
func (s *Store) RefreshLoop(ctx context.Context, ticks <-chan time.Time, onErr func(error)) {
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-ticks:
			if !ok {
				return
			}
			if err := s.Refresh(ctx); err != nil && onErr != nil && ctx.Err() == nil {
				onErr(err)
			}
		}
	}
}

// Accounts is the mutable set of accounts an Update works on.
type Accounts struct {
	m      map[string]*Account
	stored map[string][]byte
}

// Get returns the account user@host (host is the exact pattern), or nil.
// The caller may modify it in place.
func (a *Accounts) Get(user, host string) *Account { return a.m[id(user, host)] }

// Put adds or replaces an account.
func (a *Accounts) Put(acc *Account) { a.m[id(acc.User, acc.Host)] = acc }

// Delete removes user@host and reports whether it existed.
func (a *Accounts) Delete(user, host string) bool {
	k := id(user, host)
	_, ok := a.m[k]
	delete(a.m, k)
	return ok
}
