package server

import (
	"bytes"
	"io"
	"testing"
	"time"
)

// readResultSet reads a text result set without CLIENT_DEPRECATE_EOF and
// returns the rows' packets and the final EOF's status.
func (c *rawConn) readResultSetEOF() (cols int, rows [][]byte, status uint16) {
	c.t.Helper()
	first := c.read()
	r := &reader{b: first}
	n, _ := r.lenencInt()
	for range n {
		c.read()
	}
	if eof := c.read(); eof[0] != headerEOF || len(eof) != 5 {
		c.t.Fatalf("want EOF after column definitions, got %x", eof)
	}
	for {
		p := c.read()
		if p[0] == headerEOF && len(p) == 5 {
			return int(n), rows, uint16(p[3]) | uint16(p[4])<<8
		}
		rows = append(rows, p)
	}
}

func TestClassicEOFAndMoreResults(t *testing.T) {
	ts := startServer(t, Config{})
	c := dialRaw(t, ts.addr)
	c.login(rawCaps, PluginNativePassword)
	c.command(comQuery, []byte("select_all; begin; echo x"))
	cols, rows, status := c.readResultSetEOF()
	if cols != 25 || len(rows) != 2 || status&StatusMoreResultsExists == 0 {
		t.Fatalf("first result: %d cols, %d rows, status %#x", cols, len(rows), status)
	}
	ok := c.read()
	r := &reader{b: ok[1:]}
	r.lenencInt()
	r.lenencInt()
	if st := r.u16(); ok[0] != headerOK || st&StatusMoreResultsExists == 0 || st&StatusInTrans == 0 {
		t.Fatalf("OK of begin: %x", ok)
	}
	_, rows, status = c.readResultSetEOF()
	if len(rows) != 1 || status&StatusMoreResultsExists != 0 || status&StatusInTrans == 0 {
		t.Fatalf("last result: %d rows, status %#x", len(rows), status)
	}
	if !bytes.Equal(rows[0], []byte{1, 'x'}) {
		t.Fatalf("row %x", rows[0])
	}
}

func TestSimpleCommands(t *testing.T) {
	ts := startServer(t, Config{})
	c := dialRaw(t, ts.addr)
	c.login(rawCaps|ClientDeprecateEOF, PluginNativePassword)

	c.command(comPing, nil)
	if p := c.read(); p[0] != headerOK {
		t.Fatalf("ping: %x", p)
	}
	c.command(comInitDB, []byte("nodb"))
	if p := c.read(); errCode(p) != 1049 {
		t.Fatalf("init db nodb: %x", p)
	}
	c.command(comInitDB, []byte("other"))
	if p := c.read(); p[0] != headerOK {
		t.Fatalf("init db: %x", p)
	}
	c.command(comQuery, []byte("db"))
	c.read()
	c.read()
	if p := c.read(); !bytes.Equal(p, append([]byte{5}, "other"...)) {
		t.Fatalf("db after COM_INIT_DB: %q", p)
	}
	c.read()

	c.command(comFieldList, []byte("t\x00%"))
	var names []string
	for {
		p := c.read()
		if p[0] == headerEOF {
			break
		}
		r := &reader{b: p}
		for range 4 {
			r.lenencBytes()
		}
		names = append(names, string(r.lenencBytes()))
	}
	if len(names) != 2 || names[0] != "id" || names[1] != "name" {
		t.Fatalf("field list %v", names)
	}
	c.command(comFieldList, []byte("nosuch\x00"))
	if p := c.read(); errCode(p) != 1146 {
		t.Fatalf("field list of missing table: %x", p)
	}

	c.command(comSetOption, []byte{1, 0}) // multi-statements off
	if p := c.read(); p[0] != headerEOF {
		t.Fatalf("set option: %x", p)
	}
	c.command(comQuery, []byte("ok 1; ok 2"))
	if p := c.read(); p[0] != headerOK {
		t.Fatalf("first statement: %x", p)
	}
	if p := c.read(); errCode(p) != 8130 {
		t.Fatalf("second statement with multi-statements off: %x", p)
	}
	c.command(comQuery, []byte("checked ok 1; ok 2"))
	if p := c.read(); errCode(p) != 8130 {
		t.Fatalf("session-checked multi-statements off: %x", p)
	}
	c.command(comSetOption, []byte{0, 0})
	c.read()
	c.command(comQuery, []byte("checked ok 1; ok 2"))
	c.read()
	if p := c.read(); p[0] != headerOK {
		t.Fatalf("session-checked multi-statements on: %x", p)
	}
	c.command(comQuery, []byte("ok 1; ok 2"))
	c.read()
	if p := c.read(); p[0] != headerOK {
		t.Fatalf("multi-statements back on: %x", p)
	}

	c.command(comStatistics, nil)
	if p := c.read(); !bytes.HasPrefix(p, []byte("Uptime: ")) {
		t.Fatalf("statistics: %q", p)
	}
	c.command(0x55, nil)
	if p := c.read(); errCode(p) != 1047 {
		t.Fatalf("unknown command: %x", p)
	}
	c.command(comStmtReset, []byte{9, 0, 0, 0})
	if p := c.read(); errCode(p) != 1243 {
		t.Fatalf("reset of unknown statement: %x", p)
	}
	c.command(comStmtExecute, []byte{9, 0, 0, 0, 0, 1, 0, 0, 0})
	if p := c.read(); errCode(p) != 1243 {
		t.Fatalf("execute of unknown statement: %x", p)
	}
	c.command(comResetConnection, nil)
	if p := c.read(); p[0] != headerOK {
		t.Fatalf("reset connection: %x", p)
	}
	c.command(comQuit, nil)
	if _, err := c.pkt.readPacket(); err != io.EOF {
		t.Fatalf("after COM_QUIT: %v", err)
	}
}

// prepare sends COM_STMT_PREPARE and returns the id, reading the metadata.
func (c *rawConn) prepare(sql string) uint32 {
	c.t.Helper()
	c.command(comStmtPrepare, []byte(sql))
	p := c.read()
	if p[0] != headerOK {
		c.t.Fatalf("prepare %q: %x", sql, p)
	}
	r := &reader{b: p[1:]}
	id := r.u32()
	ncols, nparams := int(r.u16()), int(r.u16())
	for range ncols + nparams {
		c.read()
	}
	return id
}

func TestPreparedRaw(t *testing.T) {
	ts := startServer(t, Config{})
	c := dialRaw(t, ts.addr)
	c.login(rawCaps|ClientDeprecateEOF, PluginNativePassword)
	id := c.prepare("args ?,?")
	hdr := appendU32(nil, id)
	hdr = append(hdr, 0)
	hdr = appendU32(hdr, 1)

	// Long data for param 1, in two chunks; param 0 bound as TINY.
	c.command(comStmtSendLongData, append(appendU16(appendU32(nil, id), 1), "ab"...))
	c.command(comStmtSendLongData, append(appendU16(appendU32(nil, id), 1), "cd"...))
	exec := append(append([]byte(nil), hdr...), 0, 1, 1, 0, 0xfe, 0, 7)
	c.command(comStmtExecute, exec)
	rows := c.readBinaryRows()
	if want := [][]byte{[]byte("1/int64:7"), []byte("254/[]byte:abcd")}; len(rows) != 1 || !equalRow(rows[0], want) {
		t.Fatalf("long data execute: %q", rows)
	}
	// Types not re-sent (new-params-bound 0): the previous types are used.
	exec = append(append([]byte(nil), hdr...), 0, 0, 0xf9, 1, 'z')
	c.command(comStmtExecute, exec)
	rows = c.readBinaryRows()
	if want := [][]byte{[]byte("1/int64:-7"), []byte("254/[]byte:z")}; len(rows) != 1 || !equalRow(rows[0], want) {
		t.Fatalf("execute reusing types: %q", rows)
	}
	// A wrong parameter type: ERR from the session, connection lives on.
	exec = append(append([]byte(nil), hdr...), 0, 1, 0xff, 0, 0xfe, 0, 1, 'g', 1, 'h')
	c.command(comStmtExecute, exec)
	if p := c.read(); errCode(p) != 1210 {
		t.Fatalf("geometry param: %x", p)
	}
	// Truncated values: ERR 1210, connection lives on.
	exec = append(append([]byte(nil), hdr...), 0, 1, 8, 0, 8, 0, 1, 2)
	c.command(comStmtExecute, exec)
	if p := c.read(); errCode(p) != 1210 {
		t.Fatalf("truncated execute: %x", p)
	}
	c.command(comStmtReset, appendU32(nil, id))
	if p := c.read(); p[0] != headerOK {
		t.Fatalf("reset: %x", p)
	}
	c.command(comStmtClose, appendU32(nil, id))
	c.command(comStmtExecute, hdr)
	if p := c.read(); errCode(p) != 1243 {
		t.Fatalf("execute after close: %x", p)
	}
}

// readBinaryRows reads a binary result set (CLIENT_DEPRECATE_EOF) whose
// columns are all strings and returns the values of each row.
func (c *rawConn) readBinaryRows() [][][]byte {
	c.t.Helper()
	p := c.read()
	if p[0] == headerErr {
		c.t.Fatalf("ERR %d: %s", errCode(p), p[9:])
	}
	n, _ := (&reader{b: p}).lenencInt()
	for range n {
		c.read()
	}
	var rows [][][]byte
	for {
		p := c.read()
		if p[0] == headerEOF {
			return rows
		}
		r := &reader{b: p[1+(int(n)+9)/8:]}
		var row [][]byte
		for range n {
			row = append(row, r.lenencBytes())
		}
		rows = append(rows, row)
	}
}

func equalRow(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func TestMalformedPackets(t *testing.T) {
	ts := startServer(t, Config{})
	good := ts.open(t, "root", "", "")

	// A truncated handshake response: ERR, then close.
	c := dialRaw(t, ts.addr)
	c.greeting()
	c.write([]byte{0x00, 0x02})
	if p := c.read(); errCode(p) != 1835 {
		t.Fatalf("truncated handshake: %x", p)
	}
	// A pre-4.1 handshake response.
	c = dialRaw(t, ts.addr)
	c.greeting()
	c.write(make([]byte, 40))
	if p := c.read(); errCode(p) != 1835 {
		t.Fatalf("pre-4.1 handshake: %x", p)
	}
	// Garbage attributes.
	c = dialRaw(t, ts.addr)
	c.greeting()
	c.write(append(handshakeResponseFor(rawCaps|ClientConnectAttrs, "root", nil, "", PluginNativePassword), 0xfc, 0xff, 0xff, 1))
	if p := c.read(); errCode(p) != 1835 {
		t.Fatalf("bad attributes: %x", p)
	}

	// After login: a packet with a wrong sequence id closes the connection.
	c = dialRaw(t, ts.addr)
	c.login(rawCaps, PluginNativePassword)
	c.pkt.seq = 5
	c.write([]byte{comPing})
	if _, err := c.pkt.readPacket(); err == nil {
		t.Fatal("out-of-order packet: connection not closed")
	}
	// COM_SLEEP is a server-internal command: ERR 1047.
	c = dialRaw(t, ts.addr)
	c.login(rawCaps, PluginNativePassword)
	c.command(comSleep, nil)
	if p := c.read(); errCode(p) != 1047 {
		t.Fatalf("COM_SLEEP: %x", p)
	}
	// An empty packet: ERR, then close.
	c.pkt.seq = 0
	c.write(nil)
	if p := c.read(); errCode(p) != 1835 {
		t.Fatalf("empty packet: %x", p)
	}
	if _, err := c.pkt.readPacket(); err == nil {
		t.Fatal("empty packet: connection not closed")
	}
	// Random bytes as commands.
	c = dialRaw(t, ts.addr)
	c.login(rawCaps, PluginNativePassword)
	for _, body := range [][]byte{{comStmtExecute}, {comStmtExecute, 1}, {comStmtReset}, {comSetOption},
		{comStmtSendLongData, 1}, {comStmtClose}, {comFieldList}} {
		c.pkt.seq = 0
		c.write(body)
		if body[0] == comStmtSendLongData || body[0] == comStmtClose {
			continue
		}
		p := c.read()
		if p[0] != headerErr && !(body[0] == comFieldList && errCode(p) == 1146) {
			t.Fatalf("malformed %x: %x", body, p)
		}
	}
	if err := good.Ping(); err != nil {
		t.Fatalf("other connections affected: %v", err)
	}
}

func TestHandshakeTimeout(t *testing.T) {
	ts := startServer(t, Config{HandshakeTimeout: 50 * time.Millisecond})
	c := dialRaw(t, ts.addr)
	c.greeting()
	// Send nothing: the server gives up and closes.
	if _, err := c.pkt.readPacket(); err == nil {
		t.Fatal("silent client kept its connection")
	}
	if err := ts.open(t, "root", "", "").Ping(); err != nil {
		t.Fatalf("later connections: %v", err)
	}
}
