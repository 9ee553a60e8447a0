package kvproto

import (
	"math/bits"
	"sync"

	"google.golang.org/grpc/mem"
)

// Tier bounds of BufferPool: 256 B up to 16 MiB, every power of two.
const (
	minPoolShift = 8
	maxPoolShift = 24
)

// BufferPool is the gRPC buffer pool of every connection between Strata
// processes: the transport reads frames into it (the BufferPool options)
// and Codec marshals messages into it and gathers a message arriving in
// several HTTP/2 frames into it.
//
// gRPC's default pool has tiers of 256 B, 4 KiB, 16 KiB, 32 KiB and 1 MiB
// and clears a buffer's whole capacity on every Get, so each 40 KiB batch
// response cleared 1 MiB on both ends: 7% of a store's CPU and 6% of a SQL
// server's under oltp_read_only. This pool has a tier for every power of
// two, so a buffer is at most twice its message, and never clears: gRPC
// writes every byte of the length it asks for before reading it, and its
// own transport reads frames into uncleared buffers too.
var BufferPool mem.BufferPool = &tieredPool{}

// tieredPool keeps one sync.Pool per power-of-two capacity.
type tieredPool struct {
	tiers [maxPoolShift + 1]sync.Pool
}

// Get returns a buffer of length size, with capacity the next power of two
// (at least 256 B). Sizes above 16 MiB are allocated exactly, unpooled.
func (p *tieredPool) Get(size int) *[]byte {
	if size > 1<<maxPoolShift {
		b := make([]byte, size)
		return &b
	}
	shift := minPoolShift
	if size > 1<<minPoolShift {
		shift = bits.Len(uint(size - 1))
	}
	if v, ok := p.tiers[shift].Get().(*[]byte); ok {
		*v = (*v)[:size]
		return v
	}
	b := make([]byte, size, 1<<shift)
	return &b
}

// Put keeps buf in the tier of the largest power of two its capacity
// holds, so a later Get from that tier always has room; buffers outside
// the tiers are left to the garbage collector.
func (p *tieredPool) Put(buf *[]byte) {
	c := cap(*buf)
	if c < 1<<minPoolShift {
		return
	}
	shift := bits.Len(uint(c)) - 1
	if shift > maxPoolShift {
		return
	}
	p.tiers[shift].Put(buf)
}
