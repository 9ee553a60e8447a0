package session

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// execSet runs SET of system and user variables, SET NAMES and SET
// CHARACTER SET. Assignments apply left to right; the first error stops.
func (s *Session) execSet(ctx context.Context, st *ast.SetStmt) (server.Result, error) {
	for _, a := range st.Variables {
		switch a.Name {
		case ast.SetNames:
			cs, coll := "", ""
			if v, ok := a.Value.(ast.ValueExpr); ok {
				cs = v.GetString()
			}
			if a.ExtendValue != nil {
				coll = a.ExtendValue.GetString()
			}
			if cs == "" || strings.EqualFold(cs, "default") {
				cs = "utf8mb4"
			}
			if err := s.vars.SetNames(cs, coll); err != nil {
				return nil, sysvarErr(err)
			}
			continue
		case ast.SetCharset:
			cs := "utf8mb4"
			if v, ok := a.Value.(ast.ValueExpr); ok && v.GetString() != "" {
				cs = v.GetString()
			}
			if err := s.vars.SetCharacterSet(cs); err != nil {
				return nil, sysvarErr(err)
			}
			continue
		}
		if !a.IsSystem {
			v, _, err := s.constString(ctx, a.Value)
			if err != nil {
				return nil, err
			}
			s.userVars[strings.ToLower(a.Name)] = v
			continue
		}
		if _, isDefault := a.Value.(*ast.DefaultExpr); isDefault {
			if a.IsGlobal {
				return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "SET GLOBAL ... = DEFAULT")
			}
			warns, err := s.vars.SetSessionDefault(a.Name)
			if err != nil {
				return nil, sysvarErr(err)
			}
			s.warnings = append(s.warnings, warns...)
			continue
		}
		v, _, err := s.constString(ctx, a.Value)
		if err != nil {
			return nil, err
		}
		if a.IsGlobal {
			warns, err := s.d.globals.Set(ctx, a.Name, v)
			if err != nil {
				return nil, sysvarErr(err)
			}
			s.warnings = append(s.warnings, warns...)
			s.d.applyTSOMode()
			continue
		}
		warns, err := s.vars.SetSession(a.Name, v)
		if err != nil {
			return nil, sysvarErr(err)
		}
		s.warnings = append(s.warnings, warns...)
	}
	return &okResult{}, nil
}

// constString evaluates the value of a SET assignment to its string
// form; isNull reports NULL. A bare word is its own name (SET autocommit =
// ON, SET tx_isolation = READ-COMMITTED is quoted in practice); anything
// else is an expression evaluated without a table.
func (s *Session) constString(ctx context.Context, e ast.ExprNode) (v string, isNull bool, err error) {
	if c, ok := e.(*ast.ColumnNameExpr); ok && c.Name.Table.L == "" {
		return c.Name.Name.O, false, nil
	}
	qc := s.newQueryCtx(nil)
	ex, err := expr.Build(qc, e, noColumns{})
	if err != nil {
		return "", false, err
	}
	d, err := ex.Eval(qc, chunk.Row{})
	if err != nil {
		return "", false, err
	}
	if d.Kind() == types.KindNull {
		return "", true, nil
	}
	return d.String(), false, nil
}
