package txn

import (
	"errors"
	"math"
	"sync"
	"testing"

	"github.com/strata-db/strata/internal/kv"
)

func TestMaxTS(t *testing.T) {
	cm := NewConcurrencyManager(10)
	cm.UpdateMaxTS(5)
	if cm.MaxTS() != 10 {
		t.Fatalf("max_ts went back: %d", cm.MaxTS())
	}
	cm.UpdateMaxTS(20)
	cm.UpdateMaxTS(math.MaxUint64)
	if cm.MaxTS() != 20 {
		t.Fatalf("max_ts = %d, want 20", cm.MaxTS())
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 1000 {
				cm.UpdateMaxTS(uint64(100 + i*1000 + j))
			}
		}()
	}
	wg.Wait()
	if cm.MaxTS() != 100+7*1000+999 {
		t.Fatalf("max_ts = %d", cm.MaxTS())
	}
}

func TestBlocksRule(t *testing.T) {
	base := kv.LockInfo{Key: []byte("k"), Primary: []byte("p"), StartTS: 10, Type: kv.LockTypePut, MinCommitTS: 11}
	for _, tc := range []struct {
		name     string
		edit     func(l *kv.LockInfo)
		onePC    bool
		key      string
		readTS   uint64
		resolved []uint64
		want     bool
	}{
		{name: "blocks", readTS: 20, want: true},
		{name: "newer lock", readTS: 9},
		{name: "min commit above read", readTS: 10},
		{name: "min commit equal read", readTS: 11, want: true},
		{name: "own lock", edit: func(l *kv.LockInfo) { l.MinCommitTS = 0 }, readTS: 10},
		{name: "own lock's successor", edit: func(l *kv.LockInfo) { l.MinCommitTS = 0 }, readTS: 11, want: true},
		{name: "lock type", edit: func(l *kv.LockInfo) { l.Type = kv.LockTypeLock }, readTS: 20},
		{name: "pessimistic", edit: func(l *kv.LockInfo) { l.Type = kv.LockTypePessimistic }, readTS: 20},
		{name: "delete", edit: func(l *kv.LockInfo) { l.Type = kv.LockTypeDelete }, readTS: 20, want: true},
		{name: "resolved", readTS: 20, resolved: []uint64{3, 10}},
		{name: "max read of 2pc primary", key: "p", readTS: math.MaxUint64},
		{name: "max read of secondary", readTS: math.MaxUint64, want: true},
		{name: "max read of async primary", key: "p", edit: func(l *kv.LockInfo) { l.UseAsyncCommit = true }, readTS: math.MaxUint64, want: true},
		{name: "max read of 1pc primary", key: "p", onePC: true, readTS: math.MaxUint64, want: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := base
			if tc.edit != nil {
				tc.edit(&l)
			}
			key := tc.key
			if key == "" {
				key = "k"
			}
			if got := Blocks(&l, tc.onePC, []byte(key), tc.readTS, tc.resolved); got != tc.want {
				t.Fatalf("Blocks = %v, want %v", got, tc.want)
			}
		})
	}
}

func memLock(startTS, minCommitTS uint64) *MemLock {
	return &MemLock{Info: kv.LockInfo{Primary: []byte("a"), StartTS: startTS, Type: kv.LockTypePut, MinCommitTS: minCommitTS, UseAsyncCommit: true}}
}

func TestMemLockTable(t *testing.T) {
	cm := NewConcurrencyManager(0)
	g := cm.NewKeyGuard()
	var seen uint64
	cm.UpdateMaxTS(7)
	g.LockKey([]byte("b"), func(maxTS uint64) *MemLock { seen = maxTS; return memLock(5, maxTS+1) })
	g.LockKey([]byte("d"), func(maxTS uint64) *MemLock { return memLock(5, maxTS+1) })
	g.LockKey([]byte("b"), func(maxTS uint64) *MemLock { return memLock(5, maxTS+1) }) // again: no self-deadlock
	if seen != 7 || g.Len() != 2 || cm.Len() != 2 {
		t.Fatalf("seen %d guard %d table %d", seen, g.Len(), cm.Len())
	}
	var le *kv.LockedError
	if err := cm.CheckKey([]byte("b"), 8, nil); !errors.As(err, &le) || string(le.Lock.Key) != "b" {
		t.Fatalf("CheckKey b@8 = %v", err)
	}
	if err := cm.CheckKey([]byte("b"), 7, nil); err != nil {
		t.Fatalf("CheckKey b@7 (below min_commit_ts) = %v", err)
	}
	if err := cm.CheckKey([]byte("c"), 8, nil); err != nil {
		t.Fatalf("CheckKey c = %v", err)
	}
	for _, tc := range []struct {
		start, end string
		locked     string
	}{{"a", "b", ""}, {"a", "c", "b"}, {"c", "", "d"}, {"c", "d", ""}, {"", "", "b"}, {"e", "", ""}} {
		err := cm.CheckRange([]byte(tc.start), []byte(tc.end), 8, nil)
		got := ""
		if errors.As(err, &le) {
			got = string(le.Lock.Key)
		}
		if got != tc.locked {
			t.Errorf("CheckRange[%q,%q) locked %q, want %q", tc.start, tc.end, got, tc.locked)
		}
	}
	if err := cm.CheckRange(nil, nil, 8, []uint64{5}); err != nil {
		t.Fatalf("resolved lock still blocks: %v", err)
	}
	g.Release()
	if cm.Len() != 0 || cm.CheckKey([]byte("b"), 8, nil) != nil {
		t.Fatalf("locks survive release: %d", cm.Len())
	}
}

// TestMemLockSecondGuardWaits checks a key is held by one guard at a time.
func TestMemLockSecondGuardWaits(t *testing.T) {
	cm := NewConcurrencyManager(0)
	g1 := cm.NewKeyGuard()
	g1.LockKey([]byte("k"), func(uint64) *MemLock { return memLock(1, 2) })
	got := make(chan uint64)
	go func() {
		g2 := cm.NewKeyGuard()
		g2.LockKey([]byte("k"), func(maxTS uint64) *MemLock { got <- maxTS; return memLock(3, maxTS+1) })
		g2.Release()
	}()
	cm.UpdateMaxTS(42) // happens before g2 can fill: g2 waits for g1
	select {
	case ts := <-got:
		t.Fatalf("second guard filled (max_ts %d) while the first holds the key", ts)
	default:
	}
	g1.Release()
	if ts := <-got; ts != 42 {
		t.Fatalf("second guard saw max_ts %d", ts)
	}
}

// TestReaderSeesLockOrPushesMaxTS races readers against async prewrites:
// each reader at ts either meets the memory lock or the lock's
// min_commit_ts ends up above ts (invariant 7).
func TestReaderSeesLockOrPushesMaxTS(t *testing.T) {
	cm := NewConcurrencyManager(0)
	key := []byte("k")
	for round := range 300 {
		readTS := uint64(1000 + round*10)
		var minCommit uint64
		var blocked bool
		var wg sync.WaitGroup
		wg.Add(2)
		g := cm.NewKeyGuard()
		go func() {
			defer wg.Done()
			g.LockKey(key, func(maxTS uint64) *MemLock {
				minCommit = maxTS + 1
				return memLock(readTS-5, minCommit)
			})
		}()
		go func() {
			defer wg.Done()
			cm.UpdateMaxTS(readTS)
			blocked = cm.CheckKey(key, readTS, nil) != nil
		}()
		wg.Wait()
		if !blocked && minCommit <= readTS {
			t.Fatalf("round %d: reader at %d passed and min_commit_ts %d <= read ts", round, readTS, minCommit)
		}
		g.Release()
	}
}
