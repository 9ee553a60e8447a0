package raftstore

import (
	"runtime"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"go.etcd.io/raft/v3/raftpb"

	"github.com/strata-db/strata/internal/kvproto/raftserverpb"
)

// raftWriter persists the raft loops' rounds off the loops (TiKV's async
// io): a loop hands over its round's raftdb batch and goes on stepping
// messages and proposals while the writer commits it. The writer takes
// every round queued since its last write and commits them in order with
// at most one fsync, then delivers the responses raft attached to them
// (MsgStorageAppend's Responses): acknowledgements to other stores leave
// from here, the peer's own (its MsgAppResp, MsgStorageAppendResp) go back
// through its mailbox. Rounds are written in the order the loops handed
// them over, which is the order raft requires of one peer's appends.
type raftWriter struct {
	s    *Store
	jobs workQueue[*writeJob]

	mu        sync.Mutex
	submitted uint64     // jobs handed over
	written   uint64     // jobs written and answered
	closed    bool       // the writer stopped: nothing more is written
	idle      *sync.Cond // signalled when written advances
}

// writeJob is one round's raft state: the batch and what to deliver once
// it is written. The batch is made by the first write into it, so a round
// with nothing to persist costs none.
type writeJob struct {
	wb      *pebble.Batch
	sync    bool // some append of the round must be durable before its answers
	entries int
	acks    []persistAck
}

// batch returns the job's raftdb batch, made on first use.
func (j *writeJob) batch(db *pebble.DB) *pebble.Batch {
	if j.wb == nil {
		j.wb = db.NewBatch()
	}
	return j.wb
}

// empty reports whether the job writes nothing.
func (j *writeJob) empty() bool { return j.wb == nil || j.wb.Empty() }

// close releases the job's batch.
func (j *writeJob) close() {
	if j.wb != nil {
		_ = j.wb.Close()
	}
}

// persistAck is what one peer's append answers once written: messages to
// other stores (addressed on the loop, which owns the peer's routing
// state) and messages raft directs at the peer itself.
type persistAck struct {
	p      *peer
	remote map[uint64][]*raftserverpb.RaftMessage
	local  []*raftpb.Message
}

// msgPersisted carries an append's own-directed responses back to the
// peer's loop.
type msgPersisted struct{ msgs []*raftpb.Message }

func newRaftWriter(s *Store) *raftWriter {
	w := &raftWriter{s: s, jobs: newWorkQueue[*writeJob]()}
	w.idle = sync.NewCond(&w.mu)
	return w
}

// submit queues j; a job with nothing to write and nothing to answer is
// dropped.
func (w *raftWriter) submit(j *writeJob) {
	if j.empty() && len(j.acks) == 0 {
		j.close()
		return
	}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		j.close()
		return
	}
	w.submitted++
	w.mu.Unlock()
	w.jobs.push(j)
}

// flush waits until every job queued before the call is written, or the
// store stops. Raft-state writes made outside the rounds (a peer
// destroyed, a split's new peer) call it first, so a queued round cannot
// land on top of them.
func (w *raftWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	target := w.submitted
	for w.written < target && !w.closed {
		w.idle.Wait()
	}
}

func (w *raftWriter) run() {
	defer w.s.wg.Done()
	defer func() {
		// Wake flushers for good: nothing is written after a stop.
		w.mu.Lock()
		w.closed = true
		for _, j := range w.jobs.take(nil) {
			j.close()
		}
		w.idle.Broadcast()
		w.mu.Unlock()
	}()
	var jobs []*writeJob
	for {
		select {
		case <-w.s.stopped:
			return
		case <-w.jobs.notify:
		}
		jobs = w.jobs.take(jobs)
		if len(jobs) == 0 {
			continue
		}
		// Group commit: let the goroutines that are runnable now (the
		// loops finishing rounds, requests about to propose) run first,
		// so that the rounds they queue share this write's fsync. Each
		// fsync costs CPU as well as time (on a 2-core virtual machine,
		// about 0.1 ms of it): under 16-thread sysbench writes this made
		// 11-15% fewer fsyncs per transaction.
		runtime.Gosched()
		jobs = w.jobs.takeMore(jobs)
		if !w.write(jobs) {
			return
		}
		for _, j := range jobs {
			w.deliver(j)
		}
		w.mu.Lock()
		w.written += uint64(len(jobs))
		w.idle.Broadcast()
		w.mu.Unlock()
		clear(jobs)
	}
}

// write commits the jobs' batches in order, syncing the last one when any
// job needs it (the fsync makes the earlier ones durable too). It reports
// false when the store must stop writing.
func (w *raftWriter) write(jobs []*writeJob) bool {
	s := w.s
	sync, entries, last := false, 0, -1
	for i, j := range jobs {
		sync = sync || j.sync
		entries += j.entries
		if !j.empty() {
			last = i
		}
	}
	sync = sync && s.cfg.SyncLog
	ok := true
	start := time.Now()
	for i, j := range jobs {
		if ok && !j.empty() {
			opts := pebble.NoSync
			if sync && i == last {
				opts = pebble.Sync
			}
			if err := j.wb.Commit(opts); err != nil {
				s.fatal(nil, "raft log write", err)
				ok = false
			}
		}
		j.close()
	}
	if ok && last >= 0 {
		s.metrics.raftLogWrite(entries, sync)
		if o := s.cfg.Latency.AppendLog; o != nil {
			o.Observe(time.Since(start).Seconds())
		}
	}
	return ok
}

// deliver sends j's acknowledgements and hands each peer its own.
func (w *raftWriter) deliver(j *writeJob) {
	s := w.s
	for _, a := range j.acks {
		if s.trans != nil && !s.isolated.Load() {
			for store, batch := range a.remote {
				s.metrics.raftSent(len(batch))
				s.trans.Send(store, batch)
			}
		}
		if len(a.local) > 0 && !a.p.destroyed.Load() {
			a.p.post(msgPersisted{a.local})
		}
	}
}
