package sysvar

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/strata-db/strata/internal/kv"
)

// Keys of the persisted global values, in the metadata ("m") key space.
const (
	// KeyPrefix + lower-case name holds the normalized value of a
	// variable set by SET GLOBAL.
	KeyPrefix = "m/sysvar/"
	// VersionKey holds an 8-byte big-endian counter bumped by every SET
	// GLOBAL, in the same transaction, so a reader knows whether to reload.
	VersionKey = "m/sysvar_version"
)

// maxSetRetries bounds the retries of a SET GLOBAL that met a write
// conflict (another server's SET GLOBAL bumping the version key).
const maxSetRetries = 10

// GlobalStore keeps the GLOBAL values in the cluster and caches them. Every
// SET GLOBAL writes its value and bumps VersionKey in one transaction;
// Refresh reads VersionKey and reloads everything only when it moved, so
// each SQL server sees the others' SET GLOBAL within one refresh period.
//
// It is safe for concurrent use. mu serializes Refresh and Set; Globals
// reads the cached snapshot without a lock.
type GlobalStore struct {
	reg   *Registry
	begin func(ctx context.Context) (kv.Transaction, error)

	cur atomic.Pointer[Globals]

	mu struct {
		sync.Mutex
		version uint64
		loaded  bool
	}
}

// NewGlobalStore returns a store over the transactions begin starts. Its
// snapshot holds reg's defaults until the first Refresh.
func NewGlobalStore(reg *Registry, begin func(ctx context.Context) (kv.Transaction, error)) *GlobalStore {
	s := &GlobalStore{reg: reg, begin: begin}
	g, _ := NewGlobals(reg, nil)
	s.cur.Store(g)
	return s
}

// Globals returns the cached snapshot of the global values.
func (s *GlobalStore) Globals() *Globals { return s.cur.Load() }

func nameKey(name string) kv.Key { return kv.Key(KeyPrefix + strings.ToLower(name)) }

// prefixEnd is the first key after every KeyPrefix key.
func prefixEnd() kv.Key {
	k := []byte(KeyPrefix)
	k[len(k)-1]++
	return k
}

// LoadAll returns every persisted global value, name → value.
func (s *GlobalStore) LoadAll(ctx context.Context) (map[string]string, error) {
	txn, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = txn.Rollback() }()
	return loadAll(ctx, txn)
}

func loadAll(ctx context.Context, txn kv.Snapshot) (map[string]string, error) {
	it, err := txn.Iter(ctx, kv.Key(KeyPrefix), prefixEnd())
	if err != nil {
		return nil, err
	}
	defer it.Close()
	out := make(map[string]string)
	for it.Valid() {
		out[strings.TrimPrefix(string(it.Key()), KeyPrefix)] = string(it.Value())
		if err := it.Next(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func readVersion(ctx context.Context, txn kv.Snapshot) (uint64, error) {
	v, err := txn.Get(ctx, kv.Key(VersionKey))
	if errors.Is(err, kv.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if len(v) != 8 {
		return 0, fmt.Errorf("sysvar: corrupt %s: %d bytes", VersionKey, len(v))
	}
	return binary.BigEndian.Uint64(v), nil
}

// Refresh reloads the cached snapshot if VersionKey moved since the last
// load (or nothing was loaded yet). It returns the names of persisted
// values it skipped (unknown to this server or invalid for it).
func (s *GlobalStore) Refresh(ctx context.Context) (skipped []string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refreshLocked(ctx)
}

func (s *GlobalStore) refreshLocked(ctx context.Context) ([]string, error) {
	txn, err := s.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = txn.Rollback() }()
	ver, err := readVersion(ctx, txn)
	if err != nil {
		return nil, err
	}
	if s.mu.loaded && ver == s.mu.version {
		return nil, nil
	}
	values, err := loadAll(ctx, txn)
	if err != nil {
		return nil, err
	}
	g, skipped := NewGlobals(s.reg, values)
	s.cur.Store(g)
	s.mu.version, s.mu.loaded = ver, true
	return skipped, nil
}

// Set runs SET GLOBAL name = value: it validates against the current
// snapshot, persists the normalized value and bumps the version in one
// transaction (retrying write conflicts with other servers' SET GLOBAL),
// then refreshes the cache. It returns the assignment's warnings; errors
// are those of Vars.SetSession, ErrIncorrectScope for a session-only
// variable, or the transaction's error.
func (s *GlobalStore) Set(ctx context.Context, name, value string) ([]error, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sv, norm, warns, err := s.cur.Load().prepareSet(name, value)
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		err = s.persist(ctx, sv.Name, norm)
		if err == nil || !errors.Is(err, kv.ErrWriteConflict) || attempt >= maxSetRetries {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	// The value is persisted; if this reload fails, the cache catches up
	// at the next Refresh.
	_, _ = s.refreshLocked(ctx)
	return warns, nil
}

func (s *GlobalStore) persist(ctx context.Context, name, norm string) error {
	txn, err := s.begin(ctx)
	if err != nil {
		return err
	}
	ver, err := readVersion(ctx, txn)
	if err == nil {
		err = txn.Set(nameKey(name), []byte(norm))
	}
	if err == nil {
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], ver+1)
		err = txn.Set(kv.Key(VersionKey), b[:])
	}
	if err != nil {
		_ = txn.Rollback()
		return err
	}
	return txn.Commit(ctx)
}

// RefreshLoop calls Refresh at every tick until ctx is done or ticks is
// closed, reporting errors to onErr (which may be nil). The caller owns
// the clock: pass time.NewTicker(d).C in a server, a hand-fed channel in
// tests.
func (s *GlobalStore) RefreshLoop(ctx context.Context, ticks <-chan time.Time, onErr func(error)) {
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-ticks:
			if !ok {
				return
			}
			if _, err := s.Refresh(ctx); err != nil && onErr != nil && ctx.Err() == nil {
				onErr(err)
			}
		}
	}
}
