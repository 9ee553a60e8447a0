package server

import (
	"context"
	"fmt"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// COM_SET_OPTION values.
const (
	optionMultiStatementsOn  = 0
	optionMultiStatementsOff = 1
)

// handleSetOption turns multi-statements on or off; answers EOF.
func (c *conn) handleSetOption(body []byte) error {
	r := &reader{b: body}
	opt := r.u16()
	if r.err != nil {
		return c.writeErrAndFlush(sqlerr.New(sqlerr.ErrMalformedPacket))
	}
	switch opt {
	case optionMultiStatementsOn:
		c.capability |= ClientMultiStatements
	case optionMultiStatementsOff:
		c.capability &^= ClientMultiStatements
	default:
		return c.writeErrAndFlush(sqlerr.New(sqlerr.ErrUnknownCom))
	}
	if err := c.writeEOF(c.status(), c.warnings()); err != nil {
		return err
	}
	return c.pkt.flush()
}

// handleStatistics answers COM_STATISTICS (the mysql client's "status")
// with a human-readable string.
func (c *conn) handleStatistics() error {
	s := c.srv
	uptime := int64(s.cfg.Now().Sub(s.start).Seconds())
	q := s.queries.Load()
	qps := 0.0
	if uptime > 0 {
		qps = float64(q) / float64(uptime)
	}
	msg := fmt.Sprintf("Uptime: %d  Threads: %d  Questions: %d  Slow queries: 0  Opens: 0  Flush tables: 0  Open tables: 0  Queries per second avg: %.3f",
		uptime, s.ConnCount(), q, qps)
	if err := c.pkt.writePacket([]byte(msg)); err != nil {
		return err
	}
	return c.pkt.flush()
}

// handleResetConnection runs COM_RESET_CONNECTION: the session is closed
// and a fresh one opened for the same account and database.
func (c *conn) handleResetConnection(ctx context.Context) error {
	for id := range c.stmts {
		c.sess.ClosePrepared(id)
	}
	c.stmts = nil
	c.sess.Close()
	c.sess = nil
	sess, err := c.srv.backend.Open(c.ctx, ConnInfo{ID: c.id, User: c.user, Host: c.host,
		Capability: c.capability, Collation: c.collation})
	if err != nil {
		c.writeErrAndFlush(err)
		return err
	}
	c.sess = sess
	return c.writeOKAndFlush(0, 0)
}
