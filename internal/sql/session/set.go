package session

import (
	"context"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
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

// constString evaluates a constant expression of SET or SELECT without
// FROM to its string form. isNull reports NULL. Only literals, bare words
// (SET autocommit = ON), variables and a few functions are understood
// until the expression package is wired in.
func (s *Session) constString(ctx context.Context, e ast.ExprNode) (v string, isNull bool, err error) {
	switch x := e.(type) {
	case ast.ValueExpr:
		if x.GetValue() == nil {
			return "", true, nil
		}
		return x.GetString(), false, nil
	case *ast.ColumnNameExpr:
		return x.Name.Name.O, false, nil
	case *ast.UnaryOperationExpr:
		inner, null, err := s.constString(ctx, x.V)
		if err != nil || null {
			return inner, null, err
		}
		if x.Op.String() == "minus" {
			return "-" + inner, false, nil
		}
		return inner, false, nil
	case *ast.VariableExpr:
		return s.readVariable(x)
	case *ast.FuncCallExpr:
		return s.callConstFunc(x)
	}
	return "", false, sqlerr.New(sqlerr.ErrNotSupportedYet, "this expression")
}

// readVariable reads @@[global.|session.]name or @name.
func (s *Session) readVariable(x *ast.VariableExpr) (string, bool, error) {
	if !x.IsSystem {
		v, ok := s.userVars[strings.ToLower(x.Name)]
		return v, !ok, nil
	}
	var (
		v   string
		err error
	)
	switch {
	case x.IsGlobal:
		v, err = s.vars.GetGlobal(x.Name)
	case x.ExplicitScope:
		v, err = s.vars.GetSession(x.Name)
	default:
		v, err = s.vars.Get(x.Name)
	}
	if err != nil {
		return "", false, sysvarErr(err)
	}
	return v, false, nil
}

// callConstFunc evaluates the session functions clients call at connect.
func (s *Session) callConstFunc(x *ast.FuncCallExpr) (string, bool, error) {
	switch x.FnName.L {
	case "database", "schema":
		return s.db, s.db == "", nil
	case "version":
		v, err := s.vars.Get("version")
		return v, false, err
	case "user", "current_user", "session_user", "system_user":
		return s.conn.User + "@" + s.conn.Host, false, nil
	case "connection_id":
		return uintString(uint64(s.conn.ID)), false, nil
	case "last_insert_id":
		return uintString(s.vars.LastInsertID()), false, nil
	}
	return "", false, sqlerr.New(sqlerr.ErrNotSupportedYet, "function "+x.FnName.O)
}
