package codec

import (
	"encoding/binary"
	"math"
)

const signMask uint64 = 0x8000000000000000

// EncodeInt appends the memcomparable form of v: 8 bytes big endian with
// the sign bit flipped, so that byte order is numeric order.
func EncodeInt(b []byte, v int64) []byte {
	return binary.BigEndian.AppendUint64(b, uint64(v)^signMask)
}

// DecodeInt decodes EncodeInt's form at the front of b.
func DecodeInt(b []byte) (rest []byte, v int64, err error) {
	if len(b) < 8 {
		return nil, 0, ErrCorrupt
	}
	return b[8:], int64(binary.BigEndian.Uint64(b) ^ signMask), nil
}

// EncodeUint appends v as 8 bytes big endian.
func EncodeUint(b []byte, v uint64) []byte { return binary.BigEndian.AppendUint64(b, v) }

// DecodeUint decodes EncodeUint's form at the front of b.
func DecodeUint(b []byte) (rest []byte, v uint64, err error) {
	if len(b) < 8 {
		return nil, 0, ErrCorrupt
	}
	return b[8:], binary.BigEndian.Uint64(b), nil
}

// EncodeFloat appends an order-preserving form of f: non-negative floats
// get the sign bit set, negative ones are complemented (so -0 and 0 encode
// alike).
func EncodeFloat(b []byte, f float64) []byte {
	u := math.Float64bits(f)
	if f >= 0 {
		u |= signMask
	} else {
		u = ^u
	}
	return EncodeUint(b, u)
}

// DecodeFloat decodes EncodeFloat's form at the front of b.
func DecodeFloat(b []byte) (rest []byte, f float64, err error) {
	rest, u, err := DecodeUint(b)
	if err != nil {
		return nil, 0, err
	}
	if u&signMask > 0 {
		u &^= signMask
	} else {
		u = ^u
	}
	return rest, math.Float64frombits(u), nil
}
