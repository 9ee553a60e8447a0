package expr

import (
	"strconv"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// ctxFunc is a function of the evaluation context alone: NOW, CURDATE,
// DATABASE, USER, VERSION, CONNECTION_ID, LAST_INSERT_ID, ROW_COUNT,
// FOUND_ROWS. It is never folded into a constant (a cached plan runs in
// another statement).
type ctxFunc struct {
	name string
	ft   *types.FieldType
}

// volatile: every function but VERSION reads the session.
func (f *ctxFunc) volatile() bool { return f.name != "version" }

func (f *ctxFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	switch f.name {
	case "now":
		return types.NewTimeDatum(clockTime(ctx, false, false, f.ft.Fsp())), nil
	case "curdate":
		return types.NewTimeDatum(clockTime(ctx, false, false, 0).Date()), nil
	case "database":
		db := ctx.CurrentDB()
		if db == "" {
			return types.NewNullDatum(), nil
		}
		return types.NewStringDatum(db), nil
	case "user":
		return types.NewStringDatum(ctx.User()), nil
	case "current_user":
		return types.NewStringDatum(ctx.CurrentUser()), nil
	case "version":
		return types.NewStringDatum(Version), nil
	case "connection_id":
		return types.NewUintDatum(ctx.ConnectionID()), nil
	case "last_insert_id":
		if len(args) == 1 {
			// LAST_INSERT_ID(expr) returns expr (setting the session's
			// value is the executor's business).
			return evalAs(ctx, row, args[0], f.ft)
		}
		return types.NewUintDatum(ctx.LastInsertID()), nil
	case "row_count":
		return types.NewIntDatum(ctx.RowCount()), nil
	case "found_rows":
		return types.NewIntDatum(ctx.FoundRows()), nil
	}
	return types.NewNullDatum(), nil
}

// sysVarFunc reads @@[global.|session.]name. The value is text; its type
// is the one the value had when the expression was built (integers are
// BIGINT, so SELECT @@autocommit + 1 is 2).
type sysVarFunc struct {
	name   string
	global bool
	ft     *types.FieldType
}

func (*sysVarFunc) volatile() bool { return true }

func (f *sysVarFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	v, err := ctx.GetSysVar(f.name, f.global)
	if err != nil {
		return types.NewNullDatum(), err
	}
	return convertTo(ctx, types.NewStringDatum(v), f.ft)
}

// sysVarType types a system variable's current value.
func sysVarType(v string) *types.FieldType {
	if _, err := strconv.ParseInt(v, 10, 64); err == nil {
		return intType(false)
	}
	if _, err := strconv.ParseUint(v, 10, 64); err == nil {
		return intType(true)
	}
	return stringType("utf8mb4_bin", false, len(v))
}

// userVarFunc reads @name: NULL when unset.
type userVarFunc struct {
	name string
	ft   *types.FieldType
}

func (*userVarFunc) volatile() bool { return true }

func (f *userVarFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, ok := ctx.GetUserVar(f.name)
	if !ok {
		return types.NewNullDatum(), nil
	}
	return convertTo(ctx, d, f.ft)
}

// passFunc returns its argument unchanged (COLLATE: only the type, hence
// the comparison collation, changes).
type passFunc struct{}

func (passFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	return args[0].Eval(ctx, row)
}
