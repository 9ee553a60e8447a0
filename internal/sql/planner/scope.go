package planner

import (
	"errors"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// scope is one query level's names for its subqueries: the columns of
// the plan the level's expressions read (a subquery's Apply sits on that
// plan, so these positions are the Apply's outer columns), and the
// enclosing level. A subquery naming a column of an enclosing level gets a
// CorrelatedColumn; the level records it in corr, and the Apply that runs
// the subquery binds the slots recorded while the subquery was built.
type scope struct {
	cols   []OutCol
	parent *scope
	corr   []corrRef
}

// corrRef is one correlated column made for a column of a scope.
type corrRef struct {
	outer int
	col   *expr.CorrelatedColumn
}

// resolveOuter resolves a column name in the enclosing scopes, innermost
// first, and returns the correlated column reading it.
func (s *scope) resolveOuter(n *ast.ColumnNameExpr) (expr.Expression, bool, error) {
	for sc := s; sc != nil; sc = sc.parent {
		sch := &schema{cols: sc.cols}
		idx, ft, err := sch.Resolve(n.Name.Schema.O, n.Name.Table.O, n.Name.Name.O)
		if err != nil {
			var se *sqlerr.Error
			if errors.As(err, &se) && se.Code == sqlerr.ErrBadField {
				continue
			}
			return nil, false, err
		}
		cc := &expr.CorrelatedColumn{Slot: new(types.Datum), Name: n.Name.Name.O, Ft: ft}
		sc.corr = append(sc.corr, corrRef{outer: idx, col: cc})
		return cc, true, nil
	}
	return nil, false, nil
}

// bindings returns the Apply bindings of the correlated columns recorded
// since mark (len(corr) before the subquery was built).
func (s *scope) bindings(mark int) []CorrBinding {
	var out []CorrBinding
	for _, r := range s.corr[mark:] {
		out = append(out, CorrBinding{Slot: r.col.Slot, Outer: r.outer})
	}
	return out
}
