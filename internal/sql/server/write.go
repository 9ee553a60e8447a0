package server

import (
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// status returns the session's status flags (autocommit before a session
// exists).
func (c *conn) status() uint16 {
	if c.sess == nil {
		return StatusAutocommit
	}
	return c.sess.Status()
}

func (c *conn) warnings() uint16 {
	if c.sess == nil {
		return 0
	}
	return c.sess.WarningCount()
}

// writeOK buffers an OK packet with the session's status and warnings.
func (c *conn) writeOK(affected, lastInsertID uint64) error {
	return c.writeOKStatus(headerOK, affected, lastInsertID, c.status(), c.warnings())
}

// writeOKStatus buffers an OK packet (header 0x00, or 0xfe for the
// OK-that-ends-a-result-set of CLIENT_DEPRECATE_EOF).
func (c *conn) writeOKStatus(header byte, affected, lastInsertID uint64, status, warnings uint16) error {
	b := append(c.buf[:0], header)
	b = appendLenencInt(b, affected)
	b = appendLenencInt(b, lastInsertID)
	b = appendU16(b, status)
	b = appendU16(b, warnings)
	c.buf = b
	return c.pkt.writePacket(b)
}

func (c *conn) writeOKAndFlush(affected, lastInsertID uint64) error {
	if err := c.writeOK(affected, lastInsertID); err != nil {
		return err
	}
	return c.pkt.flush()
}

// writeEOF buffers an EOF packet: a real one, or the OK packet with header
// 0xfe that replaces it under CLIENT_DEPRECATE_EOF. Use only at the end of
// a result set, or where MySQL sends EOF outside result sets.
func (c *conn) writeEOF(status, warnings uint16) error {
	if c.capability&ClientDeprecateEOF != 0 {
		return c.writeOKStatus(headerEOF, 0, 0, status, warnings)
	}
	return c.writeRealEOF(status, warnings)
}

// writeRealEOF buffers a classic EOF packet.
func (c *conn) writeRealEOF(status, warnings uint16) error {
	b := append(c.buf[:0], headerEOF)
	b = appendU16(b, warnings)
	b = appendU16(b, status)
	c.buf = b
	return c.pkt.writePacket(b)
}

// writeMetaEOF buffers the EOF that ends column definitions; none under
// CLIENT_DEPRECATE_EOF.
func (c *conn) writeMetaEOF() error {
	if c.capability&ClientDeprecateEOF != 0 {
		return nil
	}
	return c.writeRealEOF(c.status(), c.warnings())
}

// writeErr buffers an ERR packet for err (mapped by sqlerr.From).
func (c *conn) writeErr(err error) error {
	e := sqlerr.From(err)
	b := append(c.buf[:0], headerErr)
	b = appendU16(b, e.Code)
	if c.capability&ClientProtocol41 != 0 || c.sess == nil {
		b = append(b, '#')
		b = append(b, e.State...)
	}
	b = append(b, e.Message...)
	c.buf = b
	return c.pkt.writePacket(b)
}

// writeErrAndFlush writes an ERR packet and flushes.
func (c *conn) writeErrAndFlush(err error) error {
	if werr := c.writeErr(err); werr != nil {
		return werr
	}
	return c.pkt.flush()
}

// appendColumnDef appends Protocol::ColumnDefinition41.
func appendColumnDef(b []byte, col *Column) []byte {
	b = appendLenencString(b, "def")
	b = appendLenencString(b, col.Schema)
	b = appendLenencString(b, col.Table)
	b = appendLenencString(b, col.OrgTable)
	b = appendLenencString(b, col.Name)
	b = appendLenencString(b, col.OrgName)
	b = append(b, 0x0c)
	b = appendU16(b, col.Charset)
	b = appendU32(b, col.Length)
	b = append(b, col.Type)
	b = appendU16(b, col.Flags)
	b = append(b, col.Decimals, 0, 0)
	return b
}

// writeColumnDefs buffers column definitions and the EOF after them.
func (c *conn) writeColumnDefs(cols []*Column) error {
	for _, col := range cols {
		c.buf = appendColumnDef(c.buf[:0], col)
		if err := c.pkt.writePacket(c.buf); err != nil {
			return err
		}
	}
	return c.writeMetaEOF()
}
