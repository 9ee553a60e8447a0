package raftstore

import (
	"runtime"
	"sync"
	"time"
)

// raftLoop drives the peers assigned to it: each round it drains the
// mailboxes of the peers that have work, takes their Ready, gathers all
// their raft state into one raftdb batch for the store's writer, sends
// their messages and hands committed entries to the apply workers.
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
			// Let the goroutines that are runnable now (requests about to
			// propose, messages being received) post first, so that this
			// round takes them together: the proposals of one round leave
			// as one append per follower (mergeAppends). Without it the
			// scheduler runs the loop right after the first poster, and
			// under 16-thread sysbench writes each round took about one
			// proposal.
			runtime.Gosched()
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
	items []any
}

// run handles one round: every busy peer's mailbox, tick and Ready. The
// raft state the Readys ask to persist goes into one raftdb batch that the
// store's writer commits while the loop goes on (raft runs with
// AsyncStorageWrites); their messages to other peers that need no
// persistence leave at once.
func (r *roundState) run(l *raftLoop, work []*peer, tick bool) {
	s := l.s
	job := &writeJob{}
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
		if err := p.handleReady(job); err != nil {
			s.fatal(p, "handle ready", err)
			continue
		}
		if p.rn.HasReady() {
			l.wake(p)
		}
	}
	s.writer.submit(job)
}
