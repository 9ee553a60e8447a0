package raftstore

import (
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
)

// raftLoop drives the peers assigned to it: each round it drains the
// mailboxes of the peers that have work, collects their Ready, writes all
// their raft state in one raftdb batch with at most one fsync, sends
// their messages, hands committed entries to the apply workers and
// advances them.
type raftLoop struct {
	s      *Store
	notify chan struct{}

	mu    sync.Mutex
	dirty map[*peer]struct{}
	peers map[*peer]struct{} // all peers of this loop, for ticks
}

func newRaftLoop(s *Store) *raftLoop {
	return &raftLoop{
		s: s, notify: make(chan struct{}, 1),
		dirty: map[*peer]struct{}{}, peers: map[*peer]struct{}{},
	}
}

func (l *raftLoop) add(p *peer) {
	l.mu.Lock()
	l.peers[p] = struct{}{}
	l.dirty[p] = struct{}{}
	l.mu.Unlock()
	l.signal()
}

func (l *raftLoop) remove(p *peer) {
	l.mu.Lock()
	delete(l.peers, p)
	delete(l.dirty, p)
	l.mu.Unlock()
}

// wake marks p as having work.
func (l *raftLoop) wake(p *peer) {
	l.mu.Lock()
	l.dirty[p] = struct{}{}
	l.mu.Unlock()
	l.signal()
}

func (l *raftLoop) signal() {
	select {
	case l.notify <- struct{}{}:
	default:
	}
}

func (l *raftLoop) run() {
	defer l.s.wg.Done()
	ticker := time.NewTicker(l.s.cfg.TickInterval)
	defer ticker.Stop()
	var round roundState
	for {
		tick := false
		select {
		case <-l.s.stopped:
			return
		case <-l.notify:
		case <-ticker.C:
			tick = true
		}
		l.mu.Lock()
		if tick {
			for p := range l.peers {
				l.dirty[p] = struct{}{}
			}
		}
		work := make([]*peer, 0, len(l.dirty))
		for p := range l.dirty {
			work = append(work, p)
		}
		clear(l.dirty)
		l.mu.Unlock()
		if len(work) > 0 {
			round.run(l, work, tick)
		}
	}
}

// roundState is the reusable scratch of one round.
type roundState struct {
	items  []any
	readys []peerReady
	out    []*raftserverpb.RaftMessage
}

// peerReady is one peer's Ready of this round.
type peerReady struct {
	p  *peer
	rd readyWork
}

func (r *roundState) run(l *raftLoop, work []*peer, tick bool) {
	s := l.s
	wb := s.raftdb.NewBatch()
	defer wb.Close()
	mustSync := false
	entries := 0
	r.readys = r.readys[:0]
	for _, p := range work {
		if p.destroyed.Load() {
			continue
		}
		r.items = p.mbox.drain(r.items[:0])
		for _, it := range r.items {
			p.handle(it)
		}
		clear(r.items)
		if p.destroyed.Load() {
			continue
		}
		if tick {
			p.onTick()
		}
		if !p.rn.HasReady() {
			continue
		}
		rd, sync, err := p.collectReady(wb)
		if err != nil {
			s.fatal(p, "collect ready", err)
			continue
		}
		mustSync = mustSync || sync
		entries += len(rd.rd.Entries)
		r.readys = append(r.readys, peerReady{p, rd})
	}
	if len(r.readys) == 0 {
		return
	}
	if !wb.Empty() {
		opts := pebble.NoSync
		if mustSync && s.cfg.SyncLog {
			opts = pebble.Sync
			// Entries committed by acknowledgements that arrived during
			// the previous write need not wait for this one's fsync.
			for i := range r.readys {
				pr := &r.readys[i]
				pr.p.applyEarly(&pr.rd)
			}
		}
		if err := wb.Commit(opts); err != nil {
			s.fatal(nil, "raft log write", err)
			return
		}
		s.metrics.raftLogWrite(entries, mustSync && s.cfg.SyncLog)
	}
	for i := range r.readys {
		pr := &r.readys[i]
		pr.p.afterPersist(&pr.rd)
	}
	for i := range r.readys {
		pr := &r.readys[i]
		pr.p.advance(&pr.rd)
		if pr.p.rn.HasReady() {
			l.wake(pr.p)
		}
	}
}
