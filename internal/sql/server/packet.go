package server

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// errPacketTooLarge: a logical packet exceeds max_allowed_packet. Its
// payload has been consumed; the connection answers ERR 1153 and closes.
var errPacketTooLarge = errors.New("packet bigger than max_allowed_packet")

// errMalformed marks a packet that cannot be decoded.
var errMalformed = errors.New("malformed packet")

// malformedf returns an error wrapping errMalformed.
func malformedf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errMalformed, fmt.Sprintf(format, args...))
}

// packetIO reads and writes MySQL packets: a 3-byte little-endian length, a
// sequence id, the payload. Logical packets of 16 MiB - 1 or more travel as
// several physical packets, which readPacket joins and writePacket splits.
// The sequence id starts at 0 with each command and increases by one per
// physical packet in either direction.
type packetIO struct {
	r   *bufio.Reader
	w   *bufio.Writer
	seq uint8
	// maxAllowed bounds the logical packets read (0: no limit).
	maxAllowed int
	// hdr is scratch for headers.
	hdr [4]byte
}

func newPacketIO(r io.Reader, w io.Writer, maxAllowed int) *packetIO {
	return &packetIO{r: bufio.NewReaderSize(r, 16<<10), w: bufio.NewWriterSize(w, 16<<10), maxAllowed: maxAllowed}
}

// readPacket reads one logical packet. The returned slice is freshly
// allocated and owned by the caller.
func (p *packetIO) readPacket() ([]byte, error) {
	var data []byte
	tooLarge := false
	for {
		if _, err := io.ReadFull(p.r, p.hdr[:]); err != nil {
			return nil, err
		}
		n := int(uint32(p.hdr[0]) | uint32(p.hdr[1])<<8 | uint32(p.hdr[2])<<16)
		if p.hdr[3] != p.seq {
			return nil, malformedf("packet sequence %d, want %d", p.hdr[3], p.seq)
		}
		p.seq++
		if !tooLarge && p.maxAllowed > 0 && len(data)+n > p.maxAllowed {
			tooLarge = true
			data = nil
		}
		if tooLarge {
			if _, err := io.CopyN(io.Discard, p.r, int64(n)); err != nil {
				return nil, err
			}
		} else {
			start := len(data)
			data = append(data, make([]byte, n)...)
			if _, err := io.ReadFull(p.r, data[start:]); err != nil {
				return nil, err
			}
		}
		if n < maxPayloadLen {
			break
		}
	}
	if tooLarge {
		return nil, errPacketTooLarge
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// writePacket buffers one logical packet, splitting it as needed. Call
// flush to send.
func (p *packetIO) writePacket(payload []byte) error {
	for {
		n := len(payload)
		if n > maxPayloadLen {
			n = maxPayloadLen
		}
		p.hdr[0], p.hdr[1], p.hdr[2], p.hdr[3] = byte(n), byte(n>>8), byte(n>>16), p.seq
		p.seq++
		if _, err := p.w.Write(p.hdr[:]); err != nil {
			return err
		}
		if _, err := p.w.Write(payload[:n]); err != nil {
			return err
		}
		payload = payload[n:]
		if n < maxPayloadLen {
			return nil
		}
	}
}

// flush sends the buffered packets.
func (p *packetIO) flush() error { return p.w.Flush() }

// reader decodes a packet payload field by field; the first error sticks
// and every later read returns zero values.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = malformedf("truncated %s", what)
	}
	r.b = nil
}

func (r *reader) u8() byte {
	if len(r.b) < 1 {
		r.fail("int<1>")
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) u16() uint16 {
	if len(r.b) < 2 {
		r.fail("int<2>")
		return 0
	}
	v := binary.LittleEndian.Uint16(r.b)
	r.b = r.b[2:]
	return v
}

func (r *reader) u32() uint32 {
	if len(r.b) < 4 {
		r.fail("int<4>")
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

func (r *reader) u64() uint64 {
	if len(r.b) < 8 {
		r.fail("int<8>")
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

// bytes returns the next n bytes (aliasing the packet).
func (r *reader) bytes(n int) []byte {
	if n < 0 || len(r.b) < n {
		r.fail("string<n>")
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// lenencInt reads a length-encoded integer; null reports the 0xfb marker.
func (r *reader) lenencInt() (v uint64, null bool) {
	b := r.u8()
	switch {
	case r.err != nil:
		return 0, false
	case b < 0xfb:
		return uint64(b), false
	case b == 0xfb:
		return 0, true
	case b == 0xfc:
		return uint64(r.u16()), false
	case b == 0xfd:
		lo := r.bytes(3)
		if r.err != nil {
			return 0, false
		}
		return uint64(lo[0]) | uint64(lo[1])<<8 | uint64(lo[2])<<16, false
	case b == 0xfe:
		return r.u64(), false
	}
	r.fail("length-encoded integer")
	return 0, false
}

// lenencBytes reads a length-encoded string.
func (r *reader) lenencBytes() []byte {
	n, null := r.lenencInt()
	if r.err != nil || null {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.fail("length-encoded string")
		return nil
	}
	return r.bytes(int(n))
}

// nulString reads a NUL-terminated string; a missing NUL takes the rest.
func (r *reader) nulString() []byte {
	for i, c := range r.b {
		if c == 0 {
			v := r.b[:i:i]
			r.b = r.b[i+1:]
			return v
		}
	}
	v := r.b
	r.b = nil
	return v
}

// rest returns what is left.
func (r *reader) rest() []byte {
	v := r.b
	r.b = nil
	return v
}

// appendLenencInt appends a length-encoded integer.
func appendLenencInt(b []byte, v uint64) []byte {
	switch {
	case v < 0xfb:
		return append(b, byte(v))
	case v <= 0xffff:
		return append(b, 0xfc, byte(v), byte(v>>8))
	case v <= 0xffffff:
		return append(b, 0xfd, byte(v), byte(v>>8), byte(v>>16))
	}
	return append(b, 0xfe, byte(v), byte(v>>8), byte(v>>16), byte(v>>24),
		byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
}

// appendLenencBytes appends a length-encoded string.
func appendLenencBytes(b, s []byte) []byte {
	return append(appendLenencInt(b, uint64(len(s))), s...)
}

// appendLenencString appends a length-encoded string.
func appendLenencString(b []byte, s string) []byte {
	return append(appendLenencInt(b, uint64(len(s))), s...)
}

func appendU16(b []byte, v uint16) []byte { return append(b, byte(v), byte(v>>8)) }

func appendU32(b []byte, v uint32) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}

func appendU64(b []byte, v uint64) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24),
		byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
}
