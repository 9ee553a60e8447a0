package raftstore

import (
	"slices"
	"testing"
)

// take empties the queue into a reused buffer; takeMore appends what was
// queued since to what a caller holds, in push order.
func TestWorkQueueTake(t *testing.T) {
	q := newWorkQueue[int]()
	q.push(1)
	q.push(2)
	buf := q.take(make([]int, 0, 4))
	if !slices.Equal(buf, []int{1, 2}) {
		t.Fatalf("take = %v", buf)
	}
	q.push(3)
	if buf = q.takeMore(buf); !slices.Equal(buf, []int{1, 2, 3}) {
		t.Fatalf("takeMore = %v", buf)
	}
	if buf = q.takeMore(buf); !slices.Equal(buf, []int{1, 2, 3}) {
		t.Fatalf("takeMore of an empty queue = %v", buf)
	}
	q.push(4)
	if buf = q.take(buf); !slices.Equal(buf, []int{4}) {
		t.Fatalf("take after takeMore = %v", buf)
	}
	select {
	case <-q.notify:
	default:
		t.Fatal("push left no notification")
	}
}
