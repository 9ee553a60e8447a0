package codec

import (
	"strings"

	"github.com/strata-db/strata/internal/types"
)

// Decimal key form (order-preserving, independent of scale):
//
//	zero:      0x01                                  scale
//	positive:  0x02 exp(4) digit-pairs... 0x00       scale
//	negative:  0x00 ^exp(4) ^digit-pairs... 0xFF     scale
//
// A non-zero value is 0.d1d2d3... × 10^exp with d1 != 0 and no trailing
// zero digits; exp is a sign-flipped big-endian int32; digits go in pairs
// as one byte 1 + 10*d1 + d2 (a lone last digit pairs with 0), so every
// pair byte is in 1..100 and the terminator sorts a shorter digit string
// first. Negative values complement everything but the marker. The scale
// byte after the value restores 1.50 rather than 1.5 on decoding; it only
// orders equal values of different scales (a column has one scale).
const (
	// maxDecodedDigits bounds the zeros a decoded value may need, so that
	// corrupt input cannot ask for a huge coefficient.
	maxDecodedDigits = 256

	decNeg  = 0x00
	decZero = 0x01
	decPos  = 0x02
)

// EncodeDecimal appends d's key form.
func EncodeDecimal(b []byte, d *types.Decimal) []byte {
	scale := byte(d.Scale())
	if d.IsZero() {
		return append(b, decZero, scale)
	}
	digits := d.Coeff.String()
	exp := len(digits) + int(d.Exponent)
	digits = strings.TrimRight(digits, "0")
	neg := d.Negative
	if neg {
		b = append(b, decNeg)
	} else {
		b = append(b, decPos)
	}
	body := len(b)
	b = append(b, byte(uint32(exp)>>24^0x80), byte(uint32(exp)>>16), byte(uint32(exp)>>8), byte(uint32(exp)))
	for i := 0; i < len(digits); i += 2 {
		p := (digits[i] - '0') * 10
		if i+1 < len(digits) {
			p += digits[i+1] - '0'
		}
		b = append(b, p+1)
	}
	b = append(b, 0)
	if neg {
		for i := body; i < len(b); i++ {
			b[i] = ^b[i]
		}
	}
	return append(b, scale)
}

// DecodeDecimal decodes EncodeDecimal's form at the front of b.
func DecodeDecimal(b []byte) (rest []byte, d *types.Decimal, err error) {
	d = new(types.Decimal)
	if len(b) < 2 {
		return nil, nil, ErrCorrupt
	}
	marker := b[0]
	if marker == decZero {
		d.Exponent = -int32(b[1])
		return b[2:], d, nil
	}
	if marker != decPos && marker != decNeg || len(b) < 6 {
		return nil, nil, ErrCorrupt
	}
	var flip byte
	if marker == decNeg {
		flip = 0xFF
	}
	exp := int32(uint32(b[1]^flip^0x80)<<24 | uint32(b[2]^flip)<<16 | uint32(b[3]^flip)<<8 | uint32(b[4]^flip))
	var sb strings.Builder
	i := 5
	for {
		if i >= len(b) {
			return nil, nil, ErrCorrupt
		}
		p := b[i] ^ flip
		i++
		if p == 0 {
			break
		}
		if p > 100 {
			return nil, nil, ErrCorrupt
		}
		p--
		sb.WriteByte('0' + p/10)
		sb.WriteByte('0' + p%10)
	}
	if i >= len(b) {
		return nil, nil, ErrCorrupt
	}
	scale := int64(b[i])
	digits := strings.TrimRight(sb.String(), "0")
	if digits == "" {
		return nil, nil, ErrCorrupt
	}
	e := int64(exp) - int64(len(digits))
	if e+scale > maxDecodedDigits || -e > maxDecodedDigits {
		return nil, nil, ErrCorrupt
	}
	if -scale < e {
		digits += strings.Repeat("0", int(e+scale))
		e = -scale
	}
	if _, ok := d.Coeff.SetString(digits, 10); !ok {
		return nil, nil, ErrCorrupt
	}
	d.Exponent = int32(e)
	d.Negative = marker == decNeg
	return b[i+1:], d, nil
}
