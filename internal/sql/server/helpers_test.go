package server

import (
	"database/sql"
	"errors"
	"io"
	"log/slog"
	"net"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// testServer runs a Server with a fakeBackend on 127.0.0.1:0.
type testServer struct {
	srv  *Server
	b    *fakeBackend
	addr string
}

func startServer(t testing.TB, cfg Config) *testServer {
	t.Helper()
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	b := newFakeBackend()
	srv := New(cfg, b)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(lis) }()
	t.Cleanup(func() {
		srv.Close()
		if err := <-done; !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve returned %v", err)
		}
	})
	return &testServer{srv: srv, b: b, addr: lis.Addr().String()}
}

// open returns a database/sql handle; opts is appended to the DSN query.
func (ts *testServer) open(t testing.TB, user, pw, opts string) *sql.DB {
	t.Helper()
	dsn := user
	if pw != "" {
		dsn += ":" + pw
	}
	dsn += "@tcp(" + ts.addr + ")/test?interpolateParams=false"
	if opts != "" {
		dsn += "&" + opts
	}
	db, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// mysqlErr returns err's MySQL error number, or 0.
func mysqlErr(err error) (uint16, string) {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number, string(me.SQLState[:])
	}
	return 0, ""
}

// rawConn is a hand-driven protocol client for what drivers never send.
type rawConn struct {
	t   *testing.T
	nc  net.Conn
	pkt *packetIO
}

func dialRaw(t *testing.T, addr string) *rawConn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return &rawConn{t: t, nc: nc, pkt: newPacketIO(nc, nc, 0)}
}

// read reads one packet (failing the test on error).
func (c *rawConn) read() []byte {
	c.t.Helper()
	b, err := c.pkt.readPacket()
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return b
}

// write sends one packet with the current sequence id.
func (c *rawConn) write(b []byte) {
	c.t.Helper()
	if err := c.pkt.writePacket(b); err != nil {
		c.t.Fatal(err)
	}
	if err := c.pkt.flush(); err != nil {
		c.t.Fatal(err)
	}
}

// command starts a new command (sequence 0) and sends it.
func (c *rawConn) command(cmd byte, body []byte) {
	c.t.Helper()
	c.pkt.seq = 0
	c.write(append([]byte{cmd}, body...))
}

// greeting reads the HandshakeV10 and returns its salt.
func (c *rawConn) greeting() []byte {
	c.t.Helper()
	g := c.read()
	r := &reader{b: g}
	if v := r.u8(); v != 10 {
		c.t.Fatalf("protocol version %d", v)
	}
	r.nulString()
	r.u32()
	salt := append([]byte(nil), r.bytes(8)...)
	r.u8()
	r.u16()
	r.u8()
	r.u16()
	r.u16()
	r.u8()
	r.bytes(10)
	salt = append(salt, r.bytes(12)...)
	if r.err != nil {
		c.t.Fatal(r.err)
	}
	return salt
}

// login does the handshake as root (empty password) with capabilities caps.
func (c *rawConn) login(caps uint32, plugin string) {
	c.t.Helper()
	c.greeting()
	c.write(handshakeResponseFor(caps, "root", nil, "", plugin))
	if ok := c.read(); ok[0] != headerOK {
		c.t.Fatalf("login: %x", ok)
	}
}

// handshakeResponseFor builds a HandshakeResponse41.
func handshakeResponseFor(caps uint32, user string, auth []byte, db, plugin string) []byte {
	b := appendU32(nil, caps)
	b = appendU32(b, 1<<24)
	b = append(b, 46)
	b = append(b, make([]byte, 23)...)
	b = append(b, user...)
	b = append(b, 0)
	b = appendLenencBytes(b, auth)
	if caps&ClientConnectWithDB != 0 {
		b = append(b, db...)
		b = append(b, 0)
	}
	b = append(b, plugin...)
	b = append(b, 0)
	return b
}

// errCode decodes an ERR packet's code (0 if not an ERR).
func errCode(p []byte) uint16 {
	if len(p) < 3 || p[0] != headerErr {
		return 0
	}
	return uint16(p[1]) | uint16(p[2])<<8
}

const rawCaps = ClientProtocol41 | ClientSecureConnection | ClientPluginAuth |
	ClientPluginAuthLenencClientData | ClientMultiResults | ClientMultiStatements | ClientTransactions
