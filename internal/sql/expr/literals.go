package expr

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	ptypes "github.com/pingcap/tidb/pkg/parser/types"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// temporalLiteral builds DATE '...', TIME '...' and TIMESTAMP '...'
// (the parser passes them as calls of internal functions): the string
// converted to the type, with as many fractional digits as it has; a
// string that is not such a value is MySQL's 1525.
func (b *builder) temporalLiteral(n *ast.FuncCallExpr) (Expression, bool, error) {
	var tp byte
	var what string
	switch n.FnName.L {
	case ast.DateLiteral:
		tp, what = mysql.TypeDate, "DATE"
	case ast.TimeLiteral:
		tp, what = mysql.TypeDuration, "TIME"
	case ast.TimestampLiteral:
		tp, what = mysql.TypeDatetime, "DATETIME"
	default:
		return nil, false, nil
	}
	if len(n.Args) != 1 {
		return nil, true, sqlerr.New(mysql.ErrWrongParamcountToNativeFct, what)
	}
	v, ok := n.Args[0].(ast.ValueExpr)
	if !ok {
		return nil, true, sqlerr.New(mysql.ErrWrongValue, what, "")
	}
	s := v.GetString()
	ft := ptypes.NewFieldType(tp)
	if tp != mysql.TypeDate {
		fsp := 0
		if i := strings.LastIndexByte(s, '.'); i >= 0 {
			fsp = min(len(strings.TrimSpace(s[i+1:])), 6)
		}
		ft.SetDecimal(fsp)
	}
	e, err := b.build(&ast.FuncCastExpr{Expr: n.Args[0], Tp: ft, FunctionType: ast.CastFunction})
	if err != nil {
		return nil, true, err
	}
	// The literal must be a valid value of its type. A cast whose warning
	// fails a strict DML statement is left unfolded (newFunc): fold the
	// literal here.
	if sf, isFunc := e.(*ScalarFunction); isFunc {
		d, err := sf.Eval(b.ctx, chunk.Row{})
		if err != nil {
			return nil, true, err
		}
		e = NewConstant(d.Clone(), sf.Ft)
	}
	if c, isConst := e.(*Constant); isConst && c.Value.IsNull() {
		return nil, true, sqlerr.New(mysql.ErrWrongValue, what, s)
	}
	return e, true, nil
}
