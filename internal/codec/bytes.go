// bytes.go: the byte-string encoding of reference §1.1. The input is cut
// into 8-byte groups, the last group is zero-padded, and every group is
// followed by a marker byte 0xFF - pad. Byte order of encodings equals byte
// order of inputs, and no encoding is a prefix of another, so a timestamp
// or other suffix can follow an encoded key without breaking its order.

package codec

import (
	"errors"
)

const (
	encGroupSize = 8
	encMarker    = byte(0xFF)
	encPad       = byte(0x00)
)

// ErrCorrupt reports an input that is not a valid encoding.
var ErrCorrupt = errors.New("codec: corrupt memcomparable bytes")

// EncodedBytesLen returns the length of EncodeBytes' output for n input bytes.
func EncodedBytesLen(n int) int {
	return (n/encGroupSize + 1) * (encGroupSize + 1)
}

// EncodeBytes appends the memcomparable encoding of b to dst.
func EncodeBytes(dst, b []byte) []byte {
	need := EncodedBytesLen(len(b))
	if cap(dst)-len(dst) < need {
		nd := make([]byte, len(dst), len(dst)+need)
		copy(nd, dst)
		dst = nd
	}
	for idx := 0; idx <= len(b); idx += encGroupSize {
		remain := len(b) - idx
		if remain >= encGroupSize {
			dst = append(dst, b[idx:idx+encGroupSize]...)
			dst = append(dst, encMarker)
			continue
		}
		pad := encGroupSize - remain
		dst = append(dst, b[idx:]...)
		for i := 0; i < pad; i++ {
			dst = append(dst, encPad)
		}
		dst = append(dst, encMarker-byte(pad))
	}
	return dst
}

// DecodeBytes decodes a memcomparable byte string at the front of b and
// returns the bytes after it and the decoded value (a fresh slice).
func DecodeBytes(b []byte) (rest, decoded []byte, err error) {
	n, err := encodedPrefixLen(b)
	if err != nil {
		return nil, nil, err
	}
	decoded = appendDecodedGroups(make([]byte, 0, n/(encGroupSize+1)*encGroupSize), b[:n])
	return b[n:], decoded, nil
}

// AppendDecodedBytes decodes a memcomparable byte string at the front of
// b, appends the decoded value to dst and returns the bytes after it and
// the extended dst: DecodeBytes into a caller's buffer.
func AppendDecodedBytes(dst, b []byte) (rest, out []byte, err error) {
	n, err := encodedPrefixLen(b)
	if err != nil {
		return nil, dst, err
	}
	return b[n:], appendDecodedGroups(dst, b[:n]), nil
}

// appendDecodedGroups appends the groups of the whole, valid encoding enc.
func appendDecodedGroups(dst, enc []byte) []byte {
	for off := 0; off < len(enc); off += encGroupSize + 1 {
		pad := int(encMarker - enc[off+encGroupSize])
		dst = append(dst, enc[off:off+encGroupSize-pad]...)
	}
	return dst
}

// EncodedBytesPrefixLen returns the length of the memcomparable encoding at
// the front of b without decoding it.
func EncodedBytesPrefixLen(b []byte) (int, error) { return encodedPrefixLen(b) }

func encodedPrefixLen(b []byte) (int, error) {
	for off := 0; ; off += encGroupSize + 1 {
		if len(b) < off+encGroupSize+1 {
			return 0, ErrCorrupt
		}
		marker := b[off+encGroupSize]
		pad := int(encMarker - marker)
		if pad == 0 {
			continue
		}
		if pad > encGroupSize {
			return 0, ErrCorrupt
		}
		for _, c := range b[off+encGroupSize-pad : off+encGroupSize] {
			if c != encPad {
				return 0, ErrCorrupt
			}
		}
		return off + encGroupSize + 1, nil
	}
}
