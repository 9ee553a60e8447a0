package session

import (
	"context"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/types"
)

// execSelectNoFrom runs SELECT of constant expressions (SELECT
// @@version_comment LIMIT 1, SELECT DATABASE(), ...). Values are returned
// as strings or NULL until the expression package is wired in.
func (s *Session) execSelectNoFrom(ctx context.Context, st *ast.SelectStmt) (server.Result, error) {
	var (
		names []string
		fts   []*types.FieldType
		row   []types.Datum
	)
	for _, f := range st.Fields.Fields {
		if f.WildCard != nil {
			return nil, errNoTablesUsed
		}
		v, null, err := s.constString(ctx, f.Expr)
		if err != nil {
			return nil, err
		}
		name := f.AsName.O
		if name == "" {
			name = f.Text()
		}
		names = append(names, name)
		ft := types.NewFieldType(mysql.TypeVarString)
		ft.Flen = max(len(v), 1)
		fts = append(fts, ft)
		if null {
			row = append(row, types.NewNullDatum())
		} else {
			row = append(row, types.NewStringDatum(v))
		}
	}
	rows := [][]types.Datum{row}
	if st.Limit != nil {
		if c, ok := st.Limit.Count.(ast.ValueExpr); ok && c.GetString() == "0" {
			rows = nil
		}
	}
	return newRowsResult(names, fts, rows), nil
}

func uintString(v uint64) string { return strconv.FormatUint(v, 10) }
