package raftstore

import "sync"

// mailbox queues what other goroutines hand a peer; the peer's raft loop
// drains it. Posting marks the peer dirty in its loop.
type mailbox struct {
	mu    sync.Mutex
	items []any
}

func (m *mailbox) push(x any) {
	m.mu.Lock()
	m.items = append(m.items, x)
	m.mu.Unlock()
}

// drain returns the queued items and empties the queue.
func (m *mailbox) drain(buf []any) []any {
	m.mu.Lock()
	buf = append(buf, m.items...)
	clear(m.items)
	m.items = m.items[:0]
	m.mu.Unlock()
	return buf
}
