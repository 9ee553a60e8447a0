package engine

import (
	"context"
	"errors"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/strata-db/strata/internal/store/engine/syncring"
)

// Options configures Open.
type Options struct {
	// Sync makes every Write durable (fsync of the WAL) before it returns.
	Sync bool
	// FS is the file system; nil means the OS disk. Tests pass vfs.NewMem().
	FS vfs.FS
	// CacheSize is the block cache size in bytes; 0 means 64 MiB.
	CacheSize int64
	// MemTableSize is the size of one memtable in bytes; 0 means
	// DefaultMemTableSize.
	MemTableSize int64
	// Logger receives Pebble's log messages; nil means Pebble's default
	// (stderr).
	Logger pebble.Logger
	// IOUringSync runs the engine's fsyncs (its WAL's, its flushes' and
	// compactions') through io_uring where the kernel has it (syncring):
	// a sync then parks its goroutine instead of holding a P.
	IOUringSync bool
	// PrefillWAL writes zeros ahead of the WAL's writer and syncs them,
	// so that a synced append does not also write the file's inode
	// (walPrefillFS): for an engine that syncs every write.
	PrefillWAL bool
	// Split, when set, splits a key into a prefix and a version suffix
	// (Pebble's Comparer.Split, with its ordering rules): bloom filters are
	// built on prefixes, and iterators offer SeekPrefixGE. The ordering
	// stays bytewise. ComparerName names the rule: a database opens only
	// with the comparer name it was created with.
	Split        func(key []byte) int
	ComparerName string
	// ImmediateSuccessor goes with Split: it appends to dst the smallest
	// key above every key whose prefix is prefix (Pebble's NextPrefix
	// seeks there).
	ImmediateSuccessor func(dst, prefix []byte) []byte
}

// DefaultMemTableSize is the memtable size of an engine. Under sysbench's
// hot rows a key gathers tens of versions in a large memtable, and every
// read pays for them there: a scan leaving a key's versions takes a
// skiplist seek from the top (arenaskl's NextPrefix steps five times,
// then seeks), where a table's NextPrefix stays in its block and its
// bloom filter spares point reads. Small memtables move the versions to
// tables sooner. Against 32MiB: BenchmarkHotBand (mvcc), a 100-row scan
// of the hot band 660 → 90-110 µs and a hot point read 7.2 → 1.5 µs (4MiB
// measures as 8MiB); sysbench oltp_read_write on a playground +17%
// (medians of alternated rounds), with 12% less CPU per query. The price
// is bulk load: more flushes and L0 compactions, sysbench prepare +23%.
const DefaultMemTableSize = 8 << 20

// Pebble is an Engine over a Pebble v2 database.
type Pebble struct {
	db          *pebble.DB
	anchor      *snapshotAnchor
	wo          *pebble.WriteOptions
	prefixSeeks bool
}

var _ Engine = (*Pebble)(nil)

// SyncFS returns fs (nil: the OS disk) as an engine with options o
// uses it: with o.IOUringSync, its fsyncs run through the process's
// io_uring where there is one; a recycled WAL's old pages are read
// ahead of its writer (walPrefetchFS); with o.PrefillWAL, the WAL is
// prefilled ahead of its writer (walPrefillFS).
func (o Options) SyncFS(fs vfs.FS) vfs.FS {
	if fs == nil {
		fs = vfs.Default
	}
	if o.IOUringSync {
		fs = syncring.FS(fs)
	}
	fs = walPrefetchFS{FS: fs}
	if o.PrefillWAL {
		fs = walPrefillFS{FS: fs}
	}
	return fs
}

// Open opens (creating if needed) a Pebble database in dir.
func Open(dir string, o Options) (*Pebble, error) {
	cacheSize := o.CacheSize
	if cacheSize <= 0 {
		cacheSize = 64 << 20
	}
	memTable := o.MemTableSize
	if memTable <= 0 {
		memTable = DefaultMemTableSize
	}
	opts := &pebble.Options{
		FS:                          o.SyncFS(o.FS),
		CacheSize:                   cacheSize,
		MemTableSize:                uint64(memTable),
		MemTableStopWritesThreshold: 4,
		L0CompactionThreshold:       4,
		L0StopWritesThreshold:       24,
		MaxOpenFiles:                4096,
		CompactionConcurrencyRange:  func() (int, int) { return 1, 2 },
		Logger:                      o.Logger,
	}
	for i := range opts.Levels {
		opts.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
		// One index block per table (CockroachDB's size): a seek reads
		// the index and then the data block, where Pebble's default 4KiB
		// index blocks make tables of a few MiB two-level, one more block
		// cache lookup per table per seek. Measured: point get with a
		// snapshot per op -10% (BenchmarkGetSnapshotPerOp); sysbench on a
		// playground, medians of five alternated rounds, update_index
		// +13%, read_write +8%, point_select +1%.
		opts.Levels[i].IndexBlockSize = 256 << 10
	}
	if o.Split != nil {
		// The newest format: columnar blocks (read_write +19% after
		// update workloads, measured with value blocks on).
		opts.FormatMajorVersion = pebble.FormatNewest
		opts.Experimental.SpanPolicyFunc = inlineOlderVersions
		if o.ComparerName == "" || o.ImmediateSuccessor == nil {
			return nil, errors.New("engine: a Split needs a ComparerName and an ImmediateSuccessor")
		}
		opts.Comparer = splitComparer(o.Split, o.ImmediateSuccessor, o.ComparerName)
	}
	db, err := pebble.Open(dir, opts)
	if err != nil {
		return nil, err
	}
	p := &Pebble{db: db, wo: pebble.NoSync, prefixSeeks: o.Split != nil, anchor: startAnchor(db, AnchorInterval)}
	if o.Sync {
		p.wo = pebble.Sync
	}
	return p, nil
}

// DB exposes the underlying Pebble database (metrics, tests).
func (p *Pebble) DB() *pebble.DB { return p.db }

// Snapshot implements Engine.
func (p *Pebble) Snapshot(ctx context.Context) (Snapshot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &pebbleSnapshot{s: p.db.NewSnapshot(), prefixSeeks: p.prefixSeeks}, nil
}

// inlineOlderVersions is the span policy of every key: the values of a
// key's older versions stay in the data blocks beside their keys, as in
// TiKV's RocksDB, instead of in the value blocks of Pebble's newest
// format. A table being written keeps each value block in a freshly
// allocated, zeroed 32KiB buffer until the table ends, and update
// workloads write mostly older versions: on a playground leader under
// oltp_update_non_index, zeroing those buffers took 5.8% of the
// process's CPU and the Go scavenger's madvise of them 2.2%. Measured
// (sysbench, 16 threads, medians of alternated rounds), on a playground,
// where every replica compacts (5 rounds): update_non_index +10%,
// update_index +7%, read_write -0.5%, point_select -1.6%; on strata
// server (3 rounds): +1.5%, -0.9%, -3.7%, +1.3%.
func inlineOlderVersions([]byte) (pebble.SpanPolicy, []byte, error) {
	return pebble.SpanPolicy{DisableValueSeparationBySuffix: true}, nil, nil
}

// splitComparer is Pebble's bytewise comparer with split as its Split and
// succ as its ImmediateSuccessor.
// Separator and Successor return their input unchanged: a shortened
// index key could end mid-version, where split would cut it wrongly.
func splitComparer(split func([]byte) int, succ func(dst, a []byte) []byte, name string) *pebble.Comparer {
	c := *pebble.DefaultComparer
	c.Split = split
	c.ImmediateSuccessor = succ
	c.Name = name
	c.Separator = func(dst, a, _ []byte) []byte { return append(dst, a...) }
	c.Successor = func(dst, a []byte) []byte { return append(dst, a...) }
	return &c
}

// Write implements Engine. Safe for concurrent callers.
func (p *Pebble) Write(ctx context.Context, b *Batch) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if b.Empty() {
		return nil
	}
	pb := p.db.NewBatchWithSize(b.size + 16*len(b.ops))
	defer pb.Close() // returns it to Pebble's own pool
	for _, op := range b.ops {
		var err error
		switch op.Kind {
		case OpPut:
			err = pb.Set(op.Key, op.Value, nil)
		case OpDelete:
			err = pb.Delete(op.Key, nil)
		default:
			err = errors.New("engine: unknown batch op")
		}
		if err != nil {
			return err
		}
	}
	if b.NoSync {
		return pb.Commit(pebble.NoSync)
	}
	return pb.Commit(p.wo)
}

// Close implements Engine.
func (p *Pebble) Close() error {
	p.anchor.close()
	return p.db.Close()
}

type pebbleSnapshot struct {
	s           *pebble.Snapshot
	prefixSeeks bool
}

// PrefixSeeks implements PrefixSnapshot.
func (s *pebbleSnapshot) PrefixSeeks() bool { return s.prefixSeeks }

func (s *pebbleSnapshot) Get(key []byte) ([]byte, error) {
	v, closer, err := s.s.Get(key)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	out := make([]byte, len(v))
	copy(out, v)
	_ = closer.Close()
	return out, nil
}

func (s *pebbleSnapshot) NewIter(lower, upper []byte) (Iterator, error) {
	it, err := s.s.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, err
	}
	return it, nil
}

func (s *pebbleSnapshot) Close() error { return s.s.Close() }
