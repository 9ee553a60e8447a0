package server

import (
	"bytes"
	"testing"
)

// FuzzReadPacket feeds arbitrary bytes to the packet reader and the
// handshake-response parser: errors are fine, panics and reads beyond the
// limit are not.
func FuzzReadPacket(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, comPing})
	f.Add([]byte{0, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0, 1, 2, 3})
	f.Add([]byte{3, 0, 0, 0, 'a', 'b', 'c', 1, 0, 0, 1, 'd'})
	f.Add(append([]byte{byte(len(handshakeResponseFor(rawCaps, "root", []byte("x"), "", PluginNativePassword))), 0, 0, 0},
		handshakeResponseFor(rawCaps|ClientConnectWithDB, "root", []byte("x"), "db", PluginNativePassword)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := newPacketIO(bytes.NewReader(data), nil, 1<<16)
		for {
			p, err := r.readPacket()
			if err != nil {
				break
			}
			if len(p) > 1<<16 {
				t.Fatalf("packet of %d bytes over the limit", len(p))
			}
			parseHandshakeResponse(p)
			r.seq = 0
		}
	})
}

// FuzzParseStmtExecute feeds arbitrary COM_STMT_EXECUTE bodies, with
// arbitrary parameter counts and earlier types, to the decoder.
func FuzzParseStmtExecute(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 8, 0, 1, 0, 0, 0, 0, 0, 0, 0}, uint8(1))
	f.Add([]byte{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0xfe, 0, 0x0c, 0, 3, 'a', 'b', 'c', 11, 0xe8, 7, 1, 2, 3, 4, 5, 0, 0, 0, 0}, uint8(2))
	f.Add([]byte{1, 0, 0, 0, 0, 1, 0, 0, 0, 0x01, 0}, uint8(1))
	f.Add([]byte{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0x0b, 0, 12, 1, 1, 0, 0, 0, 2, 3, 4, 5, 0, 0, 0}, uint8(1))
	f.Add([]byte{1, 0, 0, 0, 0, 1, 0, 0, 0}, uint8(0))
	f.Fuzz(func(t *testing.T, body []byte, n uint8) {
		prev := bytes.Repeat([]byte{0xfe, 0}, int(n))
		_, args, typs, err := decodeExecute(body, int(n), prev, map[int][]byte{0: []byte("long")})
		if err == nil && n > 0 && (len(args) != int(n) || len(typs) != 2*int(n)) {
			t.Fatalf("%d params decoded as %d args, %d type bytes", n, len(args), len(typs))
		}
	})
}
