package server

import (
	"context"
	"errors"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// resultEnd is the packet that ends a written result: its OK packet (for a
// result without rows) or the EOF / OK-as-EOF after the rows. It is held
// back until the server knows whether another result follows, which decides
// SERVER_MORE_RESULTS_EXISTS.
type resultEnd struct {
	rows         bool
	affected     uint64
	lastInsertID uint64
	status       uint16
	warnings     uint16
}

// writeEnd buffers the end packet, with StatusMoreResultsExists when more.
func (c *conn) writeEnd(e *resultEnd, more bool) error {
	status := e.status
	if more {
		status |= StatusMoreResultsExists
	}
	if e.rows {
		return c.writeEOF(status, e.warnings)
	}
	return c.writeOKStatus(headerOK, e.affected, e.lastInsertID, status, e.warnings)
}

// ioError marks a failure to write to the client: the connection is gone.
type ioError struct{ err error }

func (e *ioError) Error() string { return "write to client: " + e.err.Error() }
func (e *ioError) Unwrap() error { return e.err }

// handleQuery runs COM_QUERY.
func (c *conn) handleQuery(ctx context.Context, sql string) error {
	var (
		pending   *resultEnd
		n         int
		ioErr     error // the client connection failed
		resultErr error // a Result's Next failed after its rows began
	)
	emit := func(r Result) error {
		defer r.Close()
		if ioErr != nil {
			return ioErr
		}
		n++
		if n > 1 && c.capability&ClientMultiStatements == 0 {
			return sqlerr.New(sqlerr.ErrMultiStatementDisabled)
		}
		if pending != nil {
			if err := c.writeEnd(pending, true); err != nil {
				ioErr = &ioError{err}
				return ioErr
			}
			pending = nil
		}
		end, err := c.writeResult(ctx, r, false)
		var ie *ioError
		if errors.As(err, &ie) {
			ioErr = err
			return err
		}
		if err != nil {
			resultErr = err
			return err
		}
		pending = end
		return nil
	}
	ctx = context.WithValue(ctx, multiStmtKey{}, c.capability&ClientMultiStatements != 0)
	err := c.sess.ExecuteText(ctx, sql, emit)
	if ioErr != nil {
		return ioErr
	}
	if resultErr != nil && err == nil {
		err = resultErr
	}
	if err != nil {
		if pending != nil {
			if werr := c.writeEnd(pending, true); werr != nil {
				return werr
			}
		}
		return c.writeErrAndFlush(err)
	}
	if pending == nil {
		// No statement produced a result (an empty query or comments only).
		return c.writeOKAndFlush(0, 0)
	}
	if err := c.writeEnd(pending, false); err != nil {
		return err
	}
	return c.pkt.flush()
}

// writeResult writes r's column definitions and rows (text or binary
// protocol) and returns its end packet, not yet written. An *ioError means
// the client is gone; any other error came from r.Next, after which the
// caller must send ERR.
func (c *conn) writeResult(ctx context.Context, r Result, binary bool) (*resultEnd, error) {
	cols := r.Columns()
	if cols == nil {
		return &resultEnd{affected: r.AffectedRows(), lastInsertID: r.LastInsertID(),
			status: c.status(), warnings: c.warnings()}, nil
	}
	c.buf = appendLenencInt(c.buf[:0], uint64(len(cols)))
	if err := c.pkt.writePacket(c.buf); err != nil {
		return nil, &ioError{err}
	}
	if err := c.writeColumnDefs(cols); err != nil {
		return nil, &ioError{err}
	}
	for {
		rows, err := r.Next(ctx)
		if err != nil {
			return nil, err
		}
		if len(rows) == 0 {
			break
		}
		for _, row := range rows {
			if binary {
				c.buf = appendBinaryRow(c.buf[:0], row, cols)
			} else {
				c.buf = appendTextRow(c.buf[:0], row, cols)
			}
			if err := c.pkt.writePacket(c.buf); err != nil {
				return nil, &ioError{err}
			}
		}
	}
	return &resultEnd{rows: true, status: c.status(), warnings: c.warnings()}, nil
}

// handleFieldList runs COM_FIELD_LIST: column definitions then EOF.
func (c *conn) handleFieldList(ctx context.Context, body []byte) error {
	r := &reader{b: body}
	table := string(r.nulString())
	wildcard := string(r.rest())
	cols, err := c.sess.FieldList(ctx, table, wildcard)
	if err != nil {
		return c.writeErrAndFlush(err)
	}
	for _, col := range cols {
		c.buf = appendColumnDef(c.buf[:0], col)
		c.buf = append(c.buf, 0xfb) // default value: NULL
		if err := c.pkt.writePacket(c.buf); err != nil {
			return err
		}
	}
	if err := c.writeEOF(c.status(), c.warnings()); err != nil {
		return err
	}
	return c.pkt.flush()
}
