package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime/debug"
	"sync"
	"time"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// conn is one client connection. All fields but mu belong to the
// connection's goroutine (run); mu guards what Kill touches from others.
type conn struct {
	srv    *Server
	id     uint32
	nc     net.Conn
	ctx    context.Context // cancelled when the connection closes
	cancel context.CancelFunc
	pkt    *packetIO
	log    *slog.Logger

	capability uint32
	collation  uint8
	user, host string
	salt       []byte
	sess       Session
	stmts      map[uint32]*stmtState
	buf        []byte // scratch for building payloads

	mu struct {
		sync.Mutex
		stmtCancel context.CancelFunc // of the running command, or nil
	}
}

// run serves the connection until it ends; it never panics.
func (c *conn) run() {
	defer c.srv.removeConn(c)
	defer c.close()
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("panic serving connection", "panic", r, "stack", string(debug.Stack()))
		}
	}()
	// The deadline is wall-clock time on the socket, not Config.Now.
	c.nc.SetDeadline(time.Now().Add(c.srv.cfg.HandshakeTimeout))
	if err := c.handshake(); err != nil {
		c.logEnd("handshake", err)
		return
	}
	c.nc.SetDeadline(time.Time{})
	for {
		c.pkt.seq = 0
		data, err := c.pkt.readPacket()
		if err != nil {
			if errors.Is(err, errPacketTooLarge) {
				c.writeErrAndFlush(sqlerr.New(sqlerr.ErrNetPacketTooLarge))
			}
			c.logEnd("read", err)
			return
		}
		if len(data) == 0 {
			c.writeErrAndFlush(sqlerr.Newf(sqlerr.ErrMalformedPacket, "Malformed communication packet."))
			return
		}
		if data[0] == comQuit {
			return
		}
		if err := c.dispatch(data); err != nil {
			c.logEnd("command", err)
			return
		}
	}
}

// logEnd logs why a connection ended, quietly for ordinary disconnects.
func (c *conn) logEnd(phase string, err error) {
	if errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || errors.Is(err, io.ErrUnexpectedEOF) || c.ctx.Err() != nil {
		c.log.Debug("connection closed", "phase", phase, "err", err)
		return
	}
	c.log.Info("connection closed", "phase", phase, "err", err)
}

// close releases the session and the socket.
func (c *conn) close() {
	c.cancel()
	if c.sess != nil {
		func() {
			defer func() {
				if r := recover(); r != nil {
					c.log.Error("panic closing session", "panic", r)
				}
			}()
			c.sess.Close()
		}()
	}
	c.nc.Close()
}

// kill cancels the running command (query) or closes the connection.
func (c *conn) kill(query bool) {
	c.mu.Lock()
	cancel := c.mu.stmtCancel
	c.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if !query {
		c.cancel()
		c.nc.Close()
	}
}

// beginCommand returns the context of one command, cancelled by KILL QUERY.
func (c *conn) beginCommand() (context.Context, func()) {
	ctx, cancel := context.WithCancel(c.ctx)
	c.mu.Lock()
	c.mu.stmtCancel = cancel
	c.mu.Unlock()
	return ctx, func() {
		c.mu.Lock()
		c.mu.stmtCancel = nil
		c.mu.Unlock()
		cancel()
	}
}

// dispatch runs one command. A returned error closes the connection; errors
// meant for the client are written as ERR packets and not returned.
func (c *conn) dispatch(data []byte) (err error) {
	c.srv.queries.Add(1)
	ctx, done := c.beginCommand()
	defer done()
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("panic in command", "cmd", data[0], "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("panic in command %#x: %v", data[0], r)
			c.writeErrAndFlush(sqlerr.Newf(sqlerr.ErrUnknown, "internal error: %v", r))
		}
	}()
	cmd, body := data[0], data[1:]
	switch cmd {
	case comQuery:
		return c.handleQuery(ctx, string(body))
	case comPing:
		return c.writeOKAndFlush(0, 0)
	case comInitDB:
		if err := c.sess.UseDB(ctx, string(body)); err != nil {
			return c.writeErrAndFlush(err)
		}
		return c.writeOKAndFlush(0, 0)
	case comFieldList:
		return c.handleFieldList(ctx, body)
	case comStmtPrepare:
		return c.handleStmtPrepare(ctx, string(body))
	case comStmtExecute:
		return c.handleStmtExecute(ctx, body)
	case comStmtSendLongData:
		c.handleStmtSendLongData(body)
		return nil
	case comStmtClose:
		c.handleStmtClose(body)
		return nil
	case comStmtReset:
		return c.handleStmtReset(body)
	case comSetOption:
		return c.handleSetOption(body)
	case comStatistics:
		return c.handleStatistics()
	case comResetConnection:
		return c.handleResetConnection(ctx)
	}
	return c.writeErrAndFlush(sqlerr.New(sqlerr.ErrUnknownCom))
}
