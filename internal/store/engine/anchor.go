package engine

import (
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// AnchorInterval is how long a Pebble engine keeps one anchor snapshot
// before it takes a newer one.
const AnchorInterval = time.Second

// snapshotAnchor holds a Pebble snapshot older than every read's, so that
// closing a read's snapshot never finds that it was the earliest one.
// Pebble answers the close of its earliest snapshot with a run of its
// compaction picker (DB.maybeScheduleCompaction under the DB's mutex,
// since records that snapshot pinned may now be dropped): with a snapshot
// per read, that was 15% of the leader's CPU under sysbench
// oltp_point_select on a playground (perf). With the anchor, the picker
// runs once per AnchorInterval, when the anchor is replaced; compactions
// that could drop records released by reads meanwhile wait for it. The
// anchor pins at most one older version of each key for that long.
type snapshotAnchor struct {
	db       *pebble.DB
	stop     chan struct{}
	done     chan struct{} // closed when run has returned
	stopOnce sync.Once
	// snap is the anchor; run alone replaces it, close releases it after
	// run returned (nil then).
	snap *pebble.Snapshot
}

// startAnchor takes the first anchor and starts replacing it every
// interval.
func startAnchor(db *pebble.DB, interval time.Duration) *snapshotAnchor {
	a := &snapshotAnchor{db: db, stop: make(chan struct{}), done: make(chan struct{}), snap: db.NewSnapshot()}
	go a.run(interval)
	return a
}

func (a *snapshotAnchor) run(interval time.Duration) {
	defer close(a.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-a.stop:
			return
		case <-t.C:
			a.rotate()
		}
	}
}

// rotate replaces the anchor by a new one: reads that started before
// still hold their own snapshots, and closing the old anchor lets the
// compaction picker see what the interval's reads released. Only run
// calls it (or a test, after stopRotation).
func (a *snapshotAnchor) rotate() {
	old := a.snap
	a.snap = a.db.NewSnapshot()
	_ = old.Close()
}

// stopRotation ends run and waits for it; later calls return at once.
func (a *snapshotAnchor) stopRotation() {
	a.stopOnce.Do(func() { close(a.stop) })
	<-a.done
}

// close stops the rotation and releases the anchor; the DB may then be
// closed. Later calls do nothing.
func (a *snapshotAnchor) close() {
	a.stopRotation()
	if a.snap != nil {
		_ = a.snap.Close()
		a.snap = nil
	}
}
