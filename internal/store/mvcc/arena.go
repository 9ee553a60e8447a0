package mvcc

import "github.com/strata-db/strata/internal/codec"

// arena hands out byte slices carved from larger blocks, so that a scan's
// keys and values cost one allocation per block rather than two per pair.
// Each slice it returns is capped at its own length: appending to one
// reallocates instead of overwriting its neighbour. Blocks are never
// reused; the garbage collector frees a block when no slice of it is left.
type arena struct {
	block []byte
	next  int // size of the next block
}

const (
	arenaFirstBlock = 2 << 10
	arenaMaxBlock   = 64 << 10
)

// reserve makes room for n more bytes in the current block.
func (a *arena) reserve(n int) {
	if cap(a.block)-len(a.block) >= n {
		return
	}
	if a.next == 0 {
		a.next = arenaFirstBlock
	}
	a.block = make([]byte, 0, max(a.next, n))
	a.next = min(2*a.next, arenaMaxBlock)
}

// copy returns a copy of b (nil for nil).
func (a *arena) copy(b []byte) []byte {
	if b == nil {
		return nil
	}
	a.reserve(len(b))
	n := len(a.block)
	a.block = append(a.block, b...)
	return a.block[n:len(a.block):len(a.block)]
}

// decodeBytes decodes the memcomparable byte string at the front of enc
// into the arena, like codec.DecodeBytes.
func (a *arena) decodeBytes(enc []byte) (rest, decoded []byte, err error) {
	a.reserve(len(enc)) // the decoded form is shorter than the encoded
	n := len(a.block)
	rest, a.block, err = codec.AppendDecodedBytes(a.block, enc)
	if err != nil {
		return nil, nil, err
	}
	return rest, a.block[n:len(a.block):len(a.block)], nil
}
