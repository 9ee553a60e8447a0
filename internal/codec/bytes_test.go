package codec

import (
	"bytes"
	"errors"
	"math/rand"
	"testing"
)

func TestEncodeBytesKnown(t *testing.T) {
	cases := []struct {
		in, out []byte
	}{
		{[]byte{}, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0xF7}},
		{[]byte{1, 2, 3}, []byte{1, 2, 3, 0, 0, 0, 0, 0, 0xFA}},
		{[]byte{1, 2, 3, 0}, []byte{1, 2, 3, 0, 0, 0, 0, 0, 0xFB}},
		{[]byte{1, 2, 3, 4, 5, 6, 7, 8}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0xF7}},
		{[]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, []byte{1, 2, 3, 4, 5, 6, 7, 8, 0xFF, 9, 0, 0, 0, 0, 0, 0, 0, 0xF8}},
	}
	for _, c := range cases {
		got := EncodeBytes(nil, c.in)
		if !bytes.Equal(got, c.out) {
			t.Errorf("EncodeBytes(%v) = %v, want %v", c.in, got, c.out)
		}
		if len(got) != EncodedBytesLen(len(c.in)) {
			t.Errorf("EncodedBytesLen(%d) = %d, want %d", len(c.in), EncodedBytesLen(len(c.in)), len(got))
		}
		rest, dec, err := DecodeBytes(append(got, 0xAB))
		if err != nil || !bytes.Equal(dec, c.in) || !bytes.Equal(rest, []byte{0xAB}) {
			t.Errorf("DecodeBytes(%v) = %v %v %v", got, rest, dec, err)
		}
	}
}

func TestEncodeBytesOrderAndRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	gen := func() []byte {
		b := make([]byte, rng.Intn(20))
		for i := range b {
			b[i] = byte(rng.Intn(3)) // small alphabet: many shared prefixes and zero bytes
		}
		return b
	}
	for i := 0; i < 5000; i++ {
		a, b := gen(), gen()
		ea, eb := EncodeBytes([]byte("p"), a), EncodeBytes([]byte("p"), b)
		if want, got := bytes.Compare(a, b), bytes.Compare(ea, eb); want != got {
			t.Fatalf("order of %v,%v: raw %d encoded %d", a, b, want, got)
		}
		if !bytes.Equal(a, b) && (bytes.HasPrefix(ea, eb) || bytes.HasPrefix(eb, ea)) {
			t.Fatalf("encoding of %v is a prefix of %v's", a, b)
		}
		_, dec, err := DecodeBytes(ea[1:])
		if err != nil || !bytes.Equal(dec, a) {
			t.Fatalf("round trip %v: %v %v", a, dec, err)
		}
		rest, app, err := AppendDecodedBytes([]byte("x"), append(ea[1:], 7))
		if err != nil || !bytes.Equal(app, append([]byte("x"), a...)) || !bytes.Equal(rest, []byte{7}) {
			t.Fatalf("AppendDecodedBytes %v: %v rest %v %v", a, app, rest, err)
		}
	}
}

func TestDecodeBytesCorrupt(t *testing.T) {
	for _, in := range [][]byte{
		nil,
		{1, 2, 3},
		{1, 2, 3, 4, 5, 6, 7, 8, 0xFF}, // missing final group
		{1, 2, 3, 4, 5, 6, 7, 8, 0xF0}, // pad > 8
		{1, 2, 3, 4, 5, 6, 7, 1, 0xFE}, // non-zero padding
	} {
		if _, _, err := DecodeBytes(in); !errors.Is(err, ErrCorrupt) {
			t.Errorf("DecodeBytes(%v) err = %v, want ErrCorrupt", in, err)
		}
		if _, _, err := AppendDecodedBytes(nil, in); !errors.Is(err, ErrCorrupt) {
			t.Errorf("AppendDecodedBytes(%v) err = %v, want ErrCorrupt", in, err)
		}
	}
}
