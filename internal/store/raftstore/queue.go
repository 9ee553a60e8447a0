package raftstore

import "sync"

// workQueue hands items from any goroutine to one consumer that sleeps on
// notify until there is work (the apply workers, the raft writer).
type workQueue[T any] struct {
	notify chan struct{}
	mu     sync.Mutex
	items  []T
}

func newWorkQueue[T any]() workQueue[T] { return workQueue[T]{notify: make(chan struct{}, 1)} }

// push queues x and wakes the consumer.
func (q *workQueue[T]) push(x T) {
	q.mu.Lock()
	q.items = append(q.items, x)
	q.mu.Unlock()
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

// takeMore appends every queued item to buf and returns it.
func (q *workQueue[T]) takeMore(buf []T) []T {
	q.mu.Lock()
	buf = append(buf, q.items...)
	clear(q.items)
	q.items = q.items[:0]
	q.mu.Unlock()
	return buf
}

// take moves every queued item into buf[:0] and returns it.
func (q *workQueue[T]) take(buf []T) []T { return q.takeMore(buf[:0]) }
