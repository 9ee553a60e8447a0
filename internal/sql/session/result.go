package session

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/types"
)

// okResult is the result of a statement without rows.
type okResult struct {
	affected, lastInsertID uint64
}

func (r *okResult) Columns() []*server.Column                  { return nil }
func (r *okResult) Next(context.Context) ([]server.Row, error) { return nil, nil }
func (r *okResult) AffectedRows() uint64                       { return r.affected }
func (r *okResult) LastInsertID() uint64                       { return r.lastInsertID }
func (r *okResult) Close()                                     {}

// rowsResult is a result held in one chunk (SHOW, SELECT without FROM).
type rowsResult struct {
	cols []*server.Column
	chk  *chunk.Chunk
	done bool
}

// newRowsResult builds a result from rows of datums typed by fts.
func newRowsResult(names []string, fts []*types.FieldType, rows [][]types.Datum) *rowsResult {
	r := &rowsResult{cols: make([]*server.Column, len(names)), chk: chunk.New(fts, max(len(rows), 1))}
	for i, n := range names {
		r.cols[i] = columnOf(n, fts[i])
	}
	for _, row := range rows {
		for c := range row {
			r.chk.AppendDatum(c, &row[c])
		}
	}
	return r
}

// stringsResult builds a result of VARCHAR columns (SHOW statements).
func stringsResult(names []string, rows [][]string) *rowsResult {
	fts := make([]*types.FieldType, len(names))
	for i := range fts {
		fts[i] = types.NewFieldType(mysql.TypeVarchar)
		fts[i].Flen = 64
	}
	drows := make([][]types.Datum, len(rows))
	for i, row := range rows {
		drows[i] = make([]types.Datum, len(row))
		for c, v := range row {
			drows[i][c] = types.NewStringDatum(v)
		}
	}
	return newRowsResult(names, fts, drows)
}

func (r *rowsResult) Columns() []*server.Column { return r.cols }

func (r *rowsResult) Next(context.Context) ([]server.Row, error) {
	if r.done {
		return nil, nil
	}
	r.done = true
	rows := make([]server.Row, r.chk.NumRows())
	for i := range rows {
		rows[i] = r.chk.GetRow(i)
	}
	return rows, nil
}

func (r *rowsResult) AffectedRows() uint64 { return 0 }
func (r *rowsResult) LastInsertID() uint64 { return 0 }
func (r *rowsResult) Close()               {}

// columnOf is the column definition of a result column of type ft.
func columnOf(name string, ft *types.FieldType) *server.Column {
	coll := mysql.CollationNames[ft.Collate]
	if coll == 0 {
		coll = mysql.BinaryDefaultCollationID
	}
	flen := ft.Flen
	if flen < 0 {
		flen, _ = types.DefaultLengthAndDecimal(ft.Tp)
	}
	if ft.EvalType() == types.ETString && ft.Charset == "utf8mb4" {
		flen *= 4 // MySQL reports the byte length: 4 per utf8mb4 character
	}
	dec := ft.Decimal
	if dec < 0 {
		dec = 0x1f // MySQL's "not fixed" decimals for floats and strings
	}
	return &server.Column{
		Name: name, OrgName: name, Charset: coll, Length: uint32(max(flen, 0)),
		Type: ft.Tp, Flags: uint16(ft.Flag), Decimals: uint8(dec),
	}
}
