package server

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func TestPacketRoundTripAndSplit(t *testing.T) {
	for _, n := range []int{0, 1, 250, maxPayloadLen - 1, maxPayloadLen, maxPayloadLen + 1, 2*maxPayloadLen + 7} {
		var buf bytes.Buffer
		w := newPacketIO(nil, &buf, 0)
		payload := bytes.Repeat([]byte{0xab}, n)
		if err := w.writePacket(payload); err != nil {
			t.Fatal(err)
		}
		if err := w.writePacket([]byte("next")); err != nil {
			t.Fatal(err)
		}
		if err := w.flush(); err != nil {
			t.Fatal(err)
		}
		// physical packets: n/max + 1, then one for "next"
		wantLen := n + 4*(n/maxPayloadLen+1) + 8
		if buf.Len() != wantLen {
			t.Fatalf("n=%d: wrote %d bytes, want %d", n, buf.Len(), wantLen)
		}
		r := newPacketIO(&buf, nil, 0)
		got, err := r.readPacket()
		if err != nil || !bytes.Equal(got, payload) {
			t.Fatalf("n=%d: read %d bytes, err %v", n, len(got), err)
		}
		got, err = r.readPacket()
		if err != nil || string(got) != "next" {
			t.Fatalf("n=%d: second packet %q %v", n, got, err)
		}
		if r.seq != w.seq {
			t.Fatalf("n=%d: sequence %d vs %d", n, r.seq, w.seq)
		}
	}
}

func TestPacketSequenceAndLimit(t *testing.T) {
	// wrong sequence id
	r := newPacketIO(bytes.NewReader([]byte{1, 0, 0, 3, 'x'}), nil, 0)
	if _, err := r.readPacket(); !errors.Is(err, errMalformed) {
		t.Fatalf("wrong sequence: %v", err)
	}
	// over max_allowed_packet: the payload is consumed, the next packet reads
	data := append([]byte{10, 0, 0, 0}, bytes.Repeat([]byte{'a'}, 10)...)
	data = append(data, 2, 0, 0, 0, 'o', 'k')
	r = newPacketIO(bytes.NewReader(data), nil, 5)
	if _, err := r.readPacket(); !errors.Is(err, errPacketTooLarge) {
		t.Fatalf("too large: %v", err)
	}
	r.seq = 0
	if got, err := r.readPacket(); err != nil || string(got) != "ok" {
		t.Fatalf("after too large: %q %v", got, err)
	}
	// truncated
	r = newPacketIO(bytes.NewReader([]byte{5, 0, 0, 0, 'a'}), nil, 0)
	if _, err := r.readPacket(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated: %v", err)
	}
}

func TestLenenc(t *testing.T) {
	for _, v := range []uint64{0, 1, 250, 251, 0xffff, 0x10000, 0xffffff, 0x1000000, 1<<64 - 1} {
		b := appendLenencInt(nil, v)
		r := &reader{b: b}
		got, null := r.lenencInt()
		if got != v || null || r.err != nil || len(r.b) != 0 {
			t.Errorf("%d: got %d null=%v err=%v rest=%d", v, got, null, r.err, len(r.b))
		}
	}
	r := &reader{b: []byte{0xfb}}
	if _, null := r.lenencInt(); !null {
		t.Error("0xfb is NULL")
	}
	r = &reader{b: []byte{0xff}}
	if r.lenencInt(); r.err == nil {
		t.Error("0xff accepted")
	}
	r = &reader{b: []byte{0xfc, 1}}
	if r.lenencInt(); r.err == nil {
		t.Error("truncated accepted")
	}
	r = &reader{b: []byte{5, 'a'}}
	if r.lenencBytes(); r.err == nil {
		t.Error("truncated string accepted")
	}
}
