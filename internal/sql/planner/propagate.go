package planner

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/types"
)

// propagateConstants adds to conds, a conjunction over the columns of a
// group of inner joins, the column-to-constant comparisons that follow
// from its column equalities: from a = b and a > 5 it derives b > 5, so
// that b's table can read a range too (MySQL and TiDB do the same). The
// derived comparison is the original with the column replaced, so it is
// added only when both columns compare alike (same class, signedness,
// collation and temporal type): then b op c holds exactly when a op c
// does for rows with a = b. Equalities chain: a = b, b = c and a = 1 give
// c = 1.
func propagateConstants(conds []expr.Expression) []expr.Expression {
	type pair struct{ a, b *expr.Column }
	var eqs []pair
	for _, c := range conds {
		if f, ok := c.(*expr.ScalarFunction); ok && f.Name == expr.FnEQ && len(f.Args) == 2 {
			x, xok := f.Args[0].(*expr.Column)
			y, yok := f.Args[1].(*expr.Column)
			if xok && yok && x.Index != y.Index && compareAlike(x.Ft, y.Ft) {
				eqs = append(eqs, pair{x, y})
			}
		}
	}
	if len(eqs) == 0 {
		return conds
	}
	seen := map[string]bool{}
	for _, c := range conds {
		seen[condKey(c)] = true
	}
	out := conds
	// Each round derives from the conditions of the one before; a chain of
	// n equalities needs at most n rounds.
	for round, from := 0, conds; round < len(eqs) && len(from) > 0; round++ {
		var next []expr.Expression
		for _, c := range from {
			col := constComparedColumn(c)
			if col < 0 {
				continue
			}
			for _, e := range eqs {
				var to *expr.Column
				switch col {
				case e.a.Index:
					to = e.b
				case e.b.Index:
					to = e.a
				default:
					continue
				}
				d, _ := expr.Transform(c, func(x expr.Expression) (expr.Expression, error) {
					if xc, ok := x.(*expr.Column); ok && xc.Index == col {
						return &expr.Column{Index: to.Index, Name: to.Name, Ft: to.Ft}, nil
					}
					return x, nil
				})
				if s := condKey(d); !seen[s] {
					seen[s] = true
					next = append(next, d)
				}
			}
		}
		out = append(out, next...)
		from = next
	}
	return out
}

// constComparedColumn returns the column index of a comparison of one
// bare column with constants (col op c, c op col, col BETWEEN c1 AND c2,
// col IN (c, ...)), or -1.
func constComparedColumn(e expr.Expression) int {
	f, ok := e.(*expr.ScalarFunction)
	if !ok || len(f.Args) < 2 {
		return -1
	}
	col := -1
	switch f.Name {
	case expr.FnEQ, expr.FnLT, expr.FnLE, expr.FnGT, expr.FnGE:
		if len(f.Args) != 2 {
			return -1
		}
		for _, a := range f.Args {
			if c, ok := a.(*expr.Column); ok {
				if col >= 0 {
					return -1
				}
				col = c.Index
			} else if _, ok := a.(*expr.Constant); !ok {
				return -1
			}
		}
		return col
	case expr.FnBetween, expr.FnIn:
		c, ok := f.Args[0].(*expr.Column)
		if !ok {
			return -1
		}
		for _, a := range f.Args[1:] {
			if _, ok := a.(*expr.Constant); !ok {
				return -1
			}
		}
		return c.Index
	}
	return -1
}

// compareAlike reports whether columns of types a and b compare with any
// constant the same way: the comparison's class and rules depend only on
// what the two types share.
func compareAlike(a, b *types.FieldType) bool {
	if a == nil || b == nil {
		return false
	}
	intType := func(tp byte) bool {
		switch tp {
		case mysql.TypeTiny, mysql.TypeShort, mysql.TypeInt24, mysql.TypeLong, mysql.TypeLonglong:
			return true
		}
		return false
	}
	stringType := func(tp byte) bool {
		switch tp {
		case mysql.TypeString, mysql.TypeVarchar, mysql.TypeVarString,
			mysql.TypeTinyBlob, mysql.TypeMediumBlob, mysql.TypeLongBlob, mysql.TypeBlob:
			return true
		}
		return false
	}
	switch {
	case intType(a.Tp) && intType(b.Tp):
		return a.IsUnsigned() == b.IsUnsigned()
	case stringType(a.Tp) && stringType(b.Tp):
		return a.Collate == b.Collate
	case a.Tp != b.Tp:
		return false
	}
	switch a.Tp {
	case mysql.TypeNewDecimal, mysql.TypeFloat, mysql.TypeDouble,
		mysql.TypeDate, mysql.TypeDatetime, mysql.TypeTimestamp, mysql.TypeDuration:
		return true
	}
	return false
}

// condKey tells conditions apart: their text and the positions of the
// columns they read (two tables' columns may share a name).
func condKey(e expr.Expression) string {
	var sb strings.Builder
	sb.WriteString(e.String())
	for _, c := range expr.ExtractColumns(e) {
		sb.WriteByte('#')
		sb.WriteString(strconv.Itoa(c.Index))
	}
	return sb.String()
}
