package kvproto

import "testing"

func TestTieredPoolSizes(t *testing.T) {
	p := &tieredPool{}
	for _, c := range []struct{ size, capacity int }{
		{0, 256}, {1, 256}, {256, 256}, {257, 512}, {4096, 4096},
		{40 << 10, 64 << 10}, {1 << 24, 1 << 24}, {1<<24 + 1, 1<<24 + 1},
	} {
		b := p.Get(c.size)
		if len(*b) != c.size || cap(*b) != c.capacity {
			t.Errorf("Get(%d): len %d cap %d, want len %d cap %d", c.size, len(*b), cap(*b), c.size, c.capacity)
		}
		p.Put(b)
	}
}

// A buffer put back with a capacity that is not a power of two serves
// only sizes it can hold.
func TestTieredPoolPutOddCapacity(t *testing.T) {
	p := &tieredPool{}
	odd := make([]byte, 10, 3000) // tier 2048
	p.Put(&odd)
	for range 100 { // sync.Pool may drop it; it must never hand it out too small
		b := p.Get(3000)
		if cap(*b) < 3000 || len(*b) != 3000 {
			t.Fatalf("Get(3000) returned len %d cap %d", len(*b), cap(*b))
		}
		b2 := p.Get(2000)
		if cap(*b2) < 2000 || len(*b2) != 2000 {
			t.Fatalf("Get(2000) returned len %d cap %d", len(*b2), cap(*b2))
		}
		p.Put(b)
		p.Put(b2)
		p.Put(&odd)
	}
	tiny := make([]byte, 100)
	p.Put(&tiny) // below the smallest tier: dropped, not an error
}
