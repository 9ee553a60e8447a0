package server

import (
	"context"
	"errors"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// stmtState is the connection's view of a prepared statement: what the
// binary protocol needs to decode COM_STMT_EXECUTE.
type stmtState struct {
	id        uint32
	numParams int
	columns   []*Column
	// boundTypes are the 2-byte parameter types of the last execute that
	// sent them (new-params-bound flag 1); later executes may omit them.
	boundTypes []byte
	// longData holds SEND_LONG_DATA chunks per parameter until the next
	// execute or reset.
	longData map[int][]byte
}

// defaultParamColumn describes a parameter when the session gives none.
var defaultParamColumn = &Column{Name: "?", Type: mysql.TypeVarString, Charset: binaryCollation, Flags: binaryFlag}

// handleStmtPrepare runs COM_STMT_PREPARE.
func (c *conn) handleStmtPrepare(ctx context.Context, sql string) error {
	p, err := c.sess.Prepare(ctx, sql)
	if err != nil {
		return c.writeErrAndFlush(err)
	}
	if len(p.Params) > 0xffff || len(p.Columns) > 0xffff {
		c.sess.ClosePrepared(p.ID)
		return c.writeErrAndFlush(sqlerr.New(sqlerr.ErrPsManyParam))
	}
	if c.stmts == nil {
		c.stmts = make(map[uint32]*stmtState)
	}
	c.stmts[p.ID] = &stmtState{id: p.ID, numParams: len(p.Params), columns: p.Columns}
	b := append(c.buf[:0], headerOK)
	b = appendU32(b, p.ID)
	b = appendU16(b, uint16(len(p.Columns)))
	b = appendU16(b, uint16(len(p.Params)))
	b = append(b, 0)
	b = appendU16(b, c.warnings())
	c.buf = b
	if err := c.pkt.writePacket(b); err != nil {
		return err
	}
	if len(p.Params) > 0 {
		params := make([]*Column, len(p.Params))
		for i, col := range p.Params {
			if col == nil {
				col = defaultParamColumn
			}
			params[i] = col
		}
		if err := c.writeColumnDefs(params); err != nil {
			return err
		}
	}
	if len(p.Columns) > 0 {
		if err := c.writeColumnDefs(p.Columns); err != nil {
			return err
		}
	}
	return c.pkt.flush()
}

// unknownStmt is ERR 1243 for a statement id the connection does not know.
func unknownStmt(id uint32, cmd string) error {
	return sqlerr.New(sqlerr.ErrUnknownStmtHandler, strconv.FormatUint(uint64(id), 10), cmd)
}

// handleStmtExecute runs COM_STMT_EXECUTE and sends a binary result set.
func (c *conn) handleStmtExecute(ctx context.Context, body []byte) error {
	if len(body) < 4 {
		return c.writeErrAndFlush(sqlerr.New(sqlerr.ErrMalformedPacket))
	}
	id := uint32(body[0]) | uint32(body[1])<<8 | uint32(body[2])<<16 | uint32(body[3])<<24
	st := c.stmts[id]
	if st == nil {
		return c.writeErrAndFlush(unknownStmt(id, "mysqld_stmt_execute"))
	}
	_, args, types, err := decodeExecute(body, st.numParams, st.boundTypes, st.longData)
	st.longData = nil
	if err != nil {
		return c.writeErrAndFlush(sqlerr.Newf(sqlerr.ErrWrongArguments, "Incorrect arguments to mysqld_stmt_execute: %v", err))
	}
	st.boundTypes = types
	r, err := c.sess.ExecutePrepared(ctx, id, args)
	if err != nil {
		return c.writeErrAndFlush(err)
	}
	defer r.Close()
	end, err := c.writeResult(ctx, r, true)
	if err != nil {
		var ie *ioError
		if errors.As(err, &ie) {
			return err
		}
		return c.writeErrAndFlush(err)
	}
	if err := c.writeEnd(end, false); err != nil {
		return err
	}
	return c.pkt.flush()
}

// handleStmtSendLongData appends a chunk to a parameter; no response, and
// errors are silent (the following execute fails instead), as in MySQL.
func (c *conn) handleStmtSendLongData(body []byte) {
	r := &reader{b: body}
	id := r.u32()
	param := int(r.u16())
	if r.err != nil {
		return
	}
	st := c.stmts[id]
	if st == nil || param >= st.numParams {
		return
	}
	if st.longData == nil {
		st.longData = make(map[int][]byte)
	}
	st.longData[param] = append(st.longData[param], r.rest()...)
}

// handleStmtClose runs COM_STMT_CLOSE (no response).
func (c *conn) handleStmtClose(body []byte) {
	r := &reader{b: body}
	id := r.u32()
	if r.err != nil {
		return
	}
	if _, ok := c.stmts[id]; ok {
		delete(c.stmts, id)
		c.sess.ClosePrepared(id)
	}
}

// handleStmtReset runs COM_STMT_RESET: drops long data, resets the
// session's statement, answers OK.
func (c *conn) handleStmtReset(body []byte) error {
	r := &reader{b: body}
	id := r.u32()
	if r.err != nil {
		return c.writeErrAndFlush(sqlerr.New(sqlerr.ErrMalformedPacket))
	}
	st := c.stmts[id]
	if st == nil {
		return c.writeErrAndFlush(unknownStmt(id, "mysqld_stmt_reset"))
	}
	st.longData = nil
	if err := c.sess.ResetPrepared(id); err != nil {
		return c.writeErrAndFlush(err)
	}
	return c.writeOKAndFlush(0, 0)
}
