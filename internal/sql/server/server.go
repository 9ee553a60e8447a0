package server

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultServerVersion is the version string of the handshake.
const DefaultServerVersion = "8.0.11-Strata"

// DefaultMaxAllowedPacket is max_allowed_packet's default (TiDB's, 64 MiB).
const DefaultMaxAllowedPacket = 64 << 20

// Config configures a Server. Zero fields take defaults.
type Config struct {
	// MaxAllowedPacket bounds the packets the server reads; a larger one
	// gets ERR 1153 and the connection closes. Default 64 MiB.
	MaxAllowedPacket int
	// ServerVersion is sent in the handshake. Default "8.0.11-Strata".
	ServerVersion string
	// DefaultAuthPlugin is the plugin the handshake proposes:
	// PluginNativePassword (default) or PluginCachingSHA2Password.
	DefaultAuthPlugin string
	// Collation is the server's default collation id in the handshake
	// (default 46, utf8mb4_bin).
	Collation uint8
	// Logger receives connection errors and recovered panics. Default
	// slog.Default().
	Logger *slog.Logger
	// Now is the clock (COM_STATISTICS uptime). Default time.Now.
	Now func() time.Time
	// HandshakeTimeout bounds the connection phase (greeting to OK), so
	// that silent clients do not hold connections. Default 10s.
	HandshakeTimeout time.Duration
	// TLSConfig, when set, lets clients upgrade to TLS (CLIENT_SSL).
	TLSConfig *tls.Config
}

func (c *Config) fill() {
	if c.MaxAllowedPacket <= 0 {
		c.MaxAllowedPacket = DefaultMaxAllowedPacket
	}
	if c.ServerVersion == "" {
		c.ServerVersion = DefaultServerVersion
	}
	if c.DefaultAuthPlugin != PluginCachingSHA2Password {
		c.DefaultAuthPlugin = PluginNativePassword
	}
	if c.Collation == 0 {
		c.Collation = 46
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.HandshakeTimeout <= 0 {
		c.HandshakeTimeout = 10 * time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
}

// Server serves the MySQL protocol over listeners, one goroutine per
// connection, handing SQL to a Backend.
type Server struct {
	cfg        Config
	backend    Backend
	capability uint32 // advertised in the handshake
	start      time.Time
	nextID     atomic.Uint32
	queries    atomic.Uint64

	mu struct {
		sync.Mutex
		closed    bool
		listeners map[net.Listener]struct{}
		conns     map[uint32]*conn
	}
	wg sync.WaitGroup
}

// New returns a Server for backend b.
func New(cfg Config, b Backend) *Server {
	cfg.fill()
	s := &Server{cfg: cfg, backend: b, start: cfg.Now(), capability: serverCapabilities}
	if cfg.TLSConfig != nil {
		s.capability |= ClientSSL
	}
	s.mu.listeners = make(map[net.Listener]struct{})
	s.mu.conns = make(map[uint32]*conn)
	return s
}

// ErrServerClosed is returned by Serve after Close.
var ErrServerClosed = errors.New("server: closed")

// Serve accepts connections on lis until lis fails or the server is
// closed; it returns ErrServerClosed after Close.
func (s *Server) Serve(lis net.Listener) error {
	s.mu.Lock()
	if s.mu.closed {
		s.mu.Unlock()
		lis.Close()
		return ErrServerClosed
	}
	s.mu.listeners[lis] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.mu.listeners, lis)
		s.mu.Unlock()
	}()
	for {
		nc, err := lis.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.mu.closed
			s.mu.Unlock()
			if closed {
				return ErrServerClosed
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		c := s.newConn(nc)
		if c == nil {
			nc.Close()
			return ErrServerClosed
		}
		go c.run()
	}
}

// newConn registers a connection; nil when the server is closed.
func (s *Server) newConn(nc net.Conn) *conn {
	id := s.nextID.Add(1)
	ctx, cancel := context.WithCancel(context.Background())
	c := &conn{srv: s, id: id, nc: nc, ctx: ctx, cancel: cancel,
		pkt: newPacketIO(nc, nc, s.cfg.MaxAllowedPacket), log: s.cfg.Logger.With("conn", id)}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.closed {
		cancel()
		return nil
	}
	s.mu.conns[id] = c
	s.wg.Add(1)
	return c
}

func (s *Server) removeConn(c *conn) {
	s.mu.Lock()
	delete(s.mu.conns, c.id)
	s.mu.Unlock()
	s.wg.Done()
}

// Close stops the listeners, closes every connection (cancelling running
// statements) and waits for the connection goroutines to end.
func (s *Server) Close() {
	s.mu.Lock()
	s.mu.closed = true
	for l := range s.mu.listeners {
		l.Close()
	}
	conns := make([]*conn, 0, len(s.mu.conns))
	for _, c := range s.mu.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.kill(false)
	}
	s.wg.Wait()
}

// Kill cancels the running statement of connection connID (query true,
// KILL QUERY) or closes the connection (KILL [CONNECTION]). It reports
// whether the connection exists.
func (s *Server) Kill(connID uint32, query bool) bool {
	s.mu.Lock()
	c := s.mu.conns[connID]
	s.mu.Unlock()
	if c == nil {
		return false
	}
	c.kill(query)
	return true
}

// ConnCount returns the number of open connections.
func (s *Server) ConnCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.mu.conns)
}
