package server

import (
	"bytes"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"io"
	"net"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// handshakeResponse is the client's HandshakeResponse41.
type handshakeResponse struct {
	capability uint32
	maxPacket  uint32
	collation  uint8
	user       string
	auth       []byte
	db         string
	plugin     string
	attrs      map[string]string
}

// handshake runs the connection phase: greeting, response, auth (with an
// auth switch when the client chose a plugin we do not serve), session
// open, OK. An error ends the connection (after an ERR where useful).
func (c *conn) handshake() error {
	c.salt = newSalt()
	if err := c.pkt.writePacket(c.greeting()); err != nil {
		return err
	}
	if err := c.pkt.flush(); err != nil {
		return err
	}
	data, err := c.pkt.readPacket()
	if err != nil {
		if errors.Is(err, errPacketTooLarge) {
			c.writeErrAndFlush(sqlerr.New(sqlerr.ErrNetPacketTooLarge))
		}
		return err
	}
	if len(data) == 32 && c.srv.cfg.TLSConfig != nil && binary.LittleEndian.Uint32(data)&ClientSSL != 0 {
		// SSLRequest: switch to TLS, then read the real response over it.
		if data, err = c.upgradeTLS(); err != nil {
			return err
		}
	}
	resp, err := parseHandshakeResponse(data)
	if err != nil {
		c.capability = ClientProtocol41
		c.writeErrAndFlush(sqlerr.Newf(sqlerr.ErrMalformedPacket, "Malformed communication packet."))
		return err
	}
	c.capability = resp.capability & c.srv.capability
	c.collation = resp.collation
	c.user = resp.user
	c.host = hostOf(c.nc.RemoteAddr())

	plugin, auth := resp.plugin, resp.auth
	if plugin == "" {
		plugin = PluginNativePassword
	}
	if plugin != PluginNativePassword && plugin != PluginCachingSHA2Password {
		// AuthSwitchRequest to our default plugin, with the same salt.
		plugin = c.srv.cfg.DefaultAuthPlugin
		b := append([]byte{headerEOF}, plugin...)
		b = append(b, 0)
		b = append(b, c.salt...)
		b = append(b, 0)
		if err := c.pkt.writePacket(b); err != nil {
			return err
		}
		if err := c.pkt.flush(); err != nil {
			return err
		}
		if auth, err = c.pkt.readPacket(); err != nil {
			return err
		}
	}
	if err := c.srv.backend.Authenticate(resp.user, c.host, plugin, c.salt, auth); err != nil {
		c.writeErrAndFlush(err)
		return err
	}
	if plugin == PluginCachingSHA2Password && len(auth) > 0 {
		// fast_auth_success: the scramble matched the cached hash.
		if err := c.pkt.writePacket([]byte{headerAuthMore, 0x03}); err != nil {
			return err
		}
	}
	db := ""
	if c.capability&ClientConnectWithDB != 0 {
		db = resp.db
	}
	sess, err := c.srv.backend.Open(c.ctx, ConnInfo{ID: c.id, User: resp.user, Host: c.host, DB: db,
		Capability: c.capability, Collation: resp.collation})
	if err != nil {
		c.writeErrAndFlush(err)
		return err
	}
	c.sess = sess
	return c.writeOKAndFlush(0, 0)
}

// upgradeTLS runs the TLS handshake on the connection after an
// SSLRequest and returns the handshake response read over TLS. Sequence ids
// continue across the switch.
func (c *conn) upgradeTLS() ([]byte, error) {
	// The client may have sent its ClientHello right behind the
	// SSLRequest, into our read buffer: TLS reads through that buffer.
	tc := tls.Server(&bufferedConn{Conn: c.nc, r: c.pkt.r}, c.srv.cfg.TLSConfig)
	if err := tc.HandshakeContext(c.ctx); err != nil {
		return nil, err
	}
	seq := c.pkt.seq
	c.pkt = newPacketIO(tc, tc, c.srv.cfg.MaxAllowedPacket)
	c.pkt.seq = seq
	data, err := c.pkt.readPacket()
	if errors.Is(err, errPacketTooLarge) {
		c.writeErrAndFlush(sqlerr.New(sqlerr.ErrNetPacketTooLarge))
	}
	return data, err
}

// greeting builds the Protocol::HandshakeV10 packet.
func (c *conn) greeting() []byte {
	cfg := &c.srv.cfg
	b := []byte{10}
	b = append(b, cfg.ServerVersion...)
	b = append(b, 0)
	b = appendU32(b, c.id)
	b = append(b, c.salt[:8]...)
	b = append(b, 0)
	b = appendU16(b, uint16(c.srv.capability&0xffff))
	b = append(b, cfg.Collation)
	b = appendU16(b, StatusAutocommit)
	b = appendU16(b, uint16(c.srv.capability>>16))
	b = append(b, byte(len(c.salt)+1))
	b = append(b, make([]byte, 10)...)
	b = append(b, c.salt[8:]...)
	b = append(b, 0)
	b = append(b, cfg.DefaultAuthPlugin...)
	b = append(b, 0)
	return b
}

// parseHandshakeResponse decodes HandshakeResponse41 (320 responses from
// pre-4.1 clients are refused).
func parseHandshakeResponse(data []byte) (*handshakeResponse, error) {
	r := &reader{b: data}
	resp := &handshakeResponse{}
	resp.capability = r.u32()
	if r.err == nil && resp.capability&ClientProtocol41 == 0 {
		return nil, malformedf("pre-4.1 client protocol not supported")
	}
	resp.maxPacket = r.u32()
	resp.collation = r.u8()
	r.bytes(23)
	if r.err != nil {
		return nil, r.err
	}
	if resp.capability&ClientSSL != 0 && len(r.b) == 0 {
		return nil, malformedf("TLS requested but not offered")
	}
	resp.user = string(r.nulString())
	switch {
	case resp.capability&ClientPluginAuthLenencClientData != 0:
		resp.auth = r.lenencBytes()
	case resp.capability&ClientSecureConnection != 0:
		resp.auth = r.bytes(int(r.u8()))
	default:
		resp.auth = r.nulString()
	}
	if r.err != nil {
		return nil, r.err
	}
	if resp.capability&ClientConnectWithDB != 0 && len(r.b) > 0 {
		resp.db = string(r.nulString())
	}
	if resp.capability&ClientPluginAuth != 0 && len(r.b) > 0 {
		resp.plugin = string(r.nulString())
	}
	if resp.capability&ClientConnectAttrs != 0 && len(r.b) > 0 {
		n, _ := r.lenencInt()
		if r.err != nil || n > uint64(len(r.b)) {
			return nil, malformedf("connection attributes")
		}
		ar := &reader{b: r.bytes(int(n))}
		resp.attrs = make(map[string]string)
		for len(ar.b) > 0 && ar.err == nil {
			k := ar.lenencBytes()
			v := ar.lenencBytes()
			resp.attrs[string(k)] = string(v)
		}
		if ar.err != nil {
			return nil, ar.err
		}
	}
	resp.auth = bytes.Clone(resp.auth)
	return resp, nil
}

// hostOf returns the host part of a remote address.
func hostOf(a net.Addr) string {
	if a == nil {
		return ""
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

// bufferedConn is a net.Conn whose reads go through a buffered reader that
// may already hold bytes read from the connection.
type bufferedConn struct {
	net.Conn
	r io.Reader
}

func (b *bufferedConn) Read(p []byte) (int, error) { return b.r.Read(p) }
