package expr

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Schema resolves column names for Build: the columns of the input rows
// of the expression. db and table are "" when the name is unqualified.
// Errors are MySQL's: ErrUnknownColumn (1054) and ErrAmbiguousColumn
// (1052).
type Schema interface {
	Resolve(db, table, column string) (index int, ft *types.FieldType, err error)
}

// NodeResolver is an optional interface of a Schema: Build asks it first
// about every AST node, so the planner can map nodes it owns (aggregates,
// subqueries, window functions, VALUES(col), DEFAULT, GROUP BY
// expressions already computed below) to expressions of its own. ok false
// lets Build go on as usual.
type NodeResolver interface {
	ResolveNode(node ast.ExprNode) (e Expression, ok bool, err error)
}

// ErrUnknownColumn returns MySQL error 1054, "Unknown column 'name' in
// 'clause'" (clause: "field list", "where clause", "order clause", ...).
func ErrUnknownColumn(name, clause string) error {
	return sqlerr.New(sqlerr.ErrBadField, name, clause)
}

// ErrAmbiguousColumn returns MySQL error 1052, "Column 'name' in clause is
// ambiguous".
func ErrAmbiguousColumn(name, clause string) error {
	return sqlerr.New(sqlerr.ErrNonUniq, name, clause)
}

// SchemaColumn is one column of a Columns schema.
type SchemaColumn struct {
	DB, Table, Name string
	Ft              *types.FieldType
}

// Columns is a simple Schema: a list of columns matched by name
// case-insensitively, the qualifiers only when given. Clause names the
// clause in errors ("field list" when empty).
type Columns struct {
	Cols   []SchemaColumn
	Clause string
}

// Resolve implements Schema.
func (s *Columns) Resolve(db, table, column string) (int, *types.FieldType, error) {
	found := -1
	for i, c := range s.Cols {
		if !strings.EqualFold(c.Name, column) ||
			(table != "" && !strings.EqualFold(c.Table, table)) ||
			(db != "" && !strings.EqualFold(c.DB, db)) {
			continue
		}
		if found >= 0 {
			return 0, nil, ErrAmbiguousColumn(column, s.clause())
		}
		found = i
	}
	if found < 0 {
		name := column
		if table != "" {
			name = table + "." + column
		}
		if db != "" {
			name = db + "." + name
		}
		return 0, nil, ErrUnknownColumn(name, s.clause())
	}
	return found, s.Cols[found].Ft, nil
}

func (s *Columns) clause() string {
	if s.Clause == "" {
		return "field list"
	}
	return s.Clause
}
