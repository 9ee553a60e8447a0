package statistics

import (
	"math"
	"math/bits"
)

// Distinct values are counted over every row ANALYZE reads (not only the
// sample): exactly, by a set of 64-bit hashes, while the set is small,
// then by a HyperLogLog of 2^hllBits registers (standard error
// 1.04/sqrt(2^14) ≈ 0.8%).
const (
	exactLimit = 1 << 13
	hllBits    = 14
	hllSize    = 1 << hllBits
)

// sketch counts the distinct hashes added to it.
type sketch struct {
	exact map[uint64]struct{} // nil once the registers are in use
	regs  []uint8
}

func newSketch() *sketch { return &sketch{exact: map[uint64]struct{}{}} }

// add records a value's hash.
func (s *sketch) add(h uint64) {
	if s.exact != nil {
		s.exact[h] = struct{}{}
		if len(s.exact) <= exactLimit {
			return
		}
		s.regs = make([]uint8, hllSize)
		for v := range s.exact {
			s.addHLL(v)
		}
		s.exact = nil
		return
	}
	s.addHLL(h)
}

func (s *sketch) addHLL(h uint64) {
	idx := h >> (64 - hllBits)
	rank := uint8(bits.LeadingZeros64(h<<hllBits|1<<(hllBits-1))) + 1
	if rank > s.regs[idx] {
		s.regs[idx] = rank
	}
}

// count estimates the number of distinct hashes added.
func (s *sketch) count() int64 {
	if s.exact != nil {
		return int64(len(s.exact))
	}
	m := float64(hllSize)
	sum, zeros := 0.0, 0
	for _, r := range s.regs {
		sum += 1 / float64(uint64(1)<<r)
		if r == 0 {
			zeros++
		}
	}
	est := 0.7213 / (1 + 1.079/m) * m * m / sum
	if est <= 2.5*m && zeros > 0 { // small range: linear counting
		est = m * math.Log(m/float64(zeros))
	}
	return int64(math.Round(est))
}

// hashBytes is FNV-1a with a murmur3 finalizer, so that every bit of the
// result depends on every input byte (HyperLogLog reads the top bits).
func hashBytes(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}
