package expr

import (
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// funcAliases maps SQL function names to the Name of their
// ScalarFunction.
var funcAliases = map[string]string{
	"ceiling": "ceil", "substr": "substring", "mid": "substring",
	"lcase": "lower", "ucase": "upper", "octet_length": "length",
	"character_length": "char_length", "current_timestamp": "now",
	"localtime": "now", "localtimestamp": "now",
	"current_date": "curdate", "schema": "database",
	"session_user": "user", "system_user": "user", "power": "pow",
	"dayofmonth": "day", "adddate": "date_add", "subdate": "date_sub",
	"position": "locate", "sha": "sha1",
}

// arity is a function's allowed argument counts (max -1: unbounded).
type arity struct{ min, max int }

var funcArity = map[string]arity{
	"if": {3, 3}, "ifnull": {2, 2}, "coalesce": {1, -1}, "nullif": {2, 2},
	"concat": {1, -1}, "concat_ws": {2, -1}, "length": {1, 1}, "char_length": {1, 1},
	"upper": {1, 1}, "lower": {1, 1}, "substring": {2, 3},
	"abs": {1, 1}, "ceil": {1, 1}, "floor": {1, 1}, "round": {1, 2}, "mod": {2, 2},
	"now": {0, 1}, "curdate": {0, 0}, "database": {0, 0}, "user": {0, 0},
	"current_user": {0, 0}, "version": {0, 0}, "connection_id": {0, 0},
	"last_insert_id": {0, 1}, "row_count": {0, 0}, "found_rows": {0, 0},
	"greatest": {2, -1}, "least": {2, -1}, "trim": {1, 3}, "ltrim": {1, 1}, "rtrim": {1, 1},
	"replace": {3, 3}, "left": {2, 2}, "right": {2, 2}, "repeat": {2, 2},
	"sign": {1, 1}, "pow": {2, 2}, "sqrt": {1, 1},
	"date": {1, 1}, "year": {1, 1}, "month": {1, 1}, "day": {1, 1}, "quarter": {1, 1},
	"dayofweek": {1, 1}, "dayofyear": {1, 1}, "datediff": {2, 2},
	"instr": {2, 2}, "locate": {2, 3}, "lpad": {3, 3}, "rpad": {3, 3}, "reverse": {1, 1},
	"hex": {1, 1}, "md5": {1, 1}, "sha1": {1, 1}, "ascii": {1, 1}, "space": {1, 1},
	"isnull": {1, 1},
}

func (b *builder) funcCall(n *ast.FuncCallExpr) (Expression, error) {
	if e, ok, err := b.temporalLiteral(n); ok {
		return e, err
	}
	name := n.FnName.L
	if a, ok := funcAliases[name]; ok {
		name = a
	}
	if want, ok := unitFuncArity[name]; ok {
		return b.unitFuncCall(n, name, want)
	}
	if def, ok := funcDefs[name]; ok {
		if len(n.Args) < def.min || (def.max >= 0 && len(n.Args) > def.max) {
			return nil, sqlerr.New(mysql.ErrWrongParamcountToNativeFct, n.FnName.O)
		}
		args, err := b.buildArgs(n.Args)
		if err != nil {
			return nil, err
		}
		return def.build(b, &call{name: name, args: args})
	}
	ar, ok := funcArity[name]
	if !ok && name == "grouping" {
		// GROUPING() is resolved by GROUP BY ... WITH ROLLUP (planner):
		// anywhere else it is misplaced, as in MySQL.
		return nil, sqlerr.New(mysql.ErrInvalidGroupFuncUse)
	}
	if !ok {
		full := n.FnName.O
		if n.Schema.O != "" {
			full = n.Schema.O + "." + full
		} else if db := b.ctx.CurrentDB(); db != "" {
			full = db + "." + full
		}
		return nil, sqlerr.New(mysql.ErrSpDoesNotExist, "FUNCTION", full)
	}
	if len(n.Args) < ar.min || (ar.max >= 0 && len(n.Args) > ar.max) {
		return nil, sqlerr.New(mysql.ErrWrongParamcountToNativeFct, n.FnName.O)
	}
	nodes := n.Args
	leading, trailing := name != "rtrim", name != "ltrim"
	if name == "trim" {
		leading, trailing, nodes = trimDirection(nodes)
	}
	args, err := b.buildArgs(nodes)
	if err != nil {
		return nil, err
	}
	switch name {
	case "isnull":
		return b.newFunc(FnIsNull, args, boolType(), &isFunc{op: FnIsNull}), nil
	case "instr", "locate", "lpad", "rpad", "reverse", "hex", "md5", "sha1", "ascii", "space":
		var ft *types.FieldType
		coll, bin := deriveCollation(args)
		switch name {
		case "instr", "locate", "ascii":
			ft = intType(false)
		case "hex", "md5", "sha1", "space":
			ft = stringType("utf8mb4_bin", false, 64)
		default:
			ft = stringType(coll, bin, args[0].Type().Flen)
		}
		return b.newFunc(name, args, ft, &strFunc{name: name, ci: getCollator(coll).ci && !bin, ft: ft}), nil
	case "date":
		return b.newFunc(name, args, types.NewFieldType(mysql.TypeDate), &timePartFunc{part: name}), nil
	case "year", "month", "day", "quarter", "dayofweek", "dayofyear":
		return b.newFunc(name, args, intType(false), &timePartFunc{part: name}), nil
	case "datediff":
		return b.newFunc(name, args, intType(false), dateDiffFunc{}), nil
	case "trim", "ltrim", "rtrim":
		coll, bin := deriveCollation(args[:1])
		ft := stringType(coll, bin, args[0].Type().Flen)
		return b.newFunc(name, args, ft, &trimFunc{leading: leading, trailing: trailing, ft: ft}), nil
	case "replace", "left", "right", "repeat":
		coll, bin := deriveCollation(args[:1])
		ft := stringType(coll, bin, args[0].Type().Flen)
		switch name {
		case "replace":
			return b.newFunc(name, args, ft, &replaceFunc{ft: ft}), nil
		case "repeat":
			return b.newFunc(name, args, ft, &repeatFunc{ft: ft}), nil
		}
		return b.newFunc(name, args, ft, &leftRightFunc{right: name == "right", ft: ft}), nil
	case "greatest", "least":
		for i := range args {
			args[i] = numArgIfNumeric(args[i], args)
		}
		ft := mergeTypes(args)
		return b.newFunc(name, args, ft, &greatestFunc{least: name == "least", c: comparatorForType(ft), ft: ft}), nil
	case "sign":
		return b.newFunc(name, args, intType(false), &realFunc{name: name}), nil
	case "pow", "sqrt":
		return b.newFunc(name, args, doubleType(), &realFunc{name: name}), nil
	case "if":
		ft := mergeTypes(args[1:])
		return b.newFunc(name, args, ft, &ifFunc{ft: ft}), nil
	case "ifnull", "coalesce":
		ft := mergeTypes(args)
		return b.newFunc(name, args, ft, &coalesceFunc{ft: ft}), nil
	case "nullif":
		args[0], args[1] = cmpArgs(args[0], args[1])
		ft := args[0].Type()
		return b.newFunc(name, args, ft, &nullIfFunc{c: newComparator(args[0], args[1]), ft: ft}), nil
	case "concat", "concat_ws":
		coll, bin := deriveCollation(args)
		flen := 0
		for _, a := range args {
			flen += max(a.Type().Flen, 0)
		}
		ft := stringType(coll, bin, flen)
		if name == "concat" {
			return b.newFunc(name, args, ft, &concatFunc{ft: ft}), nil
		}
		return b.newFunc(name, args, ft, &concatWSFunc{ft: ft}), nil
	case "length", "char_length":
		return b.newFunc(name, args, intType(false), &lengthFunc{chars: name == "char_length"}), nil
	case "upper", "lower":
		coll, bin := deriveCollation(args[:1])
		ft := stringType(coll, bin, args[0].Type().Flen)
		return b.newFunc(name, args, ft, &caseConvFunc{upper: name == "upper", ft: ft}), nil
	case "substring":
		coll, bin := deriveCollation(args[:1])
		ft := stringType(coll, bin, args[0].Type().Flen)
		return b.newFunc(name, args, ft, &substringFunc{ft: ft}), nil
	case "abs":
		args[0] = numArg(args[0])
		cls := numClass(args[0].Type())
		return b.newFunc(name, args, numResultType(cls, args[0].Type()), &absFunc{cls: cls}), nil
	case "ceil", "floor":
		args[0] = numArg(args[0])
		cls := numClass(args[0].Type())
		ft := numResultType(cls, args[0].Type())
		if cls == types.ETDecimal {
			ft = intType(false)
		}
		return b.newFunc(name, args, ft, &ceilFloorFunc{ceil: name == "ceil", cls: cls, ft: ft}), nil
	case "round":
		args[0] = numArg(args[0])
		cls := numClass(args[0].Type())
		ft := numResultType(cls, args[0].Type())
		if cls == types.ETDecimal {
			scale := 0
			if len(args) == 2 {
				scale = constDecimals(args[1], ft.Decimal)
			}
			ft = decimalType(ft.Flen-ft.Decimal+scale+1, scale)
		}
		return b.newFunc(name, args, ft, &roundFunc{cls: cls, ft: ft}), nil
	case "mod":
		return b.binaryFunc(FnMod, args[0], args[1])
	case "now":
		fsp, err := clockFspArg(name, args)
		if err != nil {
			return nil, err
		}
		ft := types.NewFieldType(mysql.TypeDatetime)
		ft.Decimal = fsp
		if fsp > 0 {
			ft.Flen = 20 + fsp
		}
		return b.newFunc(name, nil, ft, &ctxFunc{name: name, ft: ft}), nil
	case "curdate":
		ft := types.NewFieldType(mysql.TypeDate)
		return b.newFunc(name, nil, ft, &ctxFunc{name: name, ft: ft}), nil
	case "database", "user", "current_user", "version":
		ft := stringType("utf8mb4_bin", false, 64)
		return b.newFunc(name, nil, ft, &ctxFunc{name: name, ft: ft}), nil
	case "connection_id", "last_insert_id":
		ft := intType(true)
		return b.newFunc(name, args, ft, &ctxFunc{name: name, ft: ft}), nil
	case "row_count", "found_rows":
		ft := intType(false)
		return b.newFunc(name, nil, ft, &ctxFunc{name: name, ft: ft}), nil
	}
	return nil, sqlerr.New(mysql.ErrSpDoesNotExist, "FUNCTION", n.FnName.O)
}

// numResultType is the type of ABS, CEIL, ROUND of an argument of class
// cls.
func numResultType(cls types.EvalType, arg *types.FieldType) *types.FieldType {
	switch cls {
	case types.ETInt:
		return intType(arg.IsUnsigned())
	case types.ETReal:
		return doubleType()
	}
	return decimalType(decIntDigits(arg)+decScale(arg), decScale(arg))
}

// numArgIfNumeric turns a hex literal into a number when another argument
// is not a string.
func numArgIfNumeric(e Expression, all []Expression) Expression {
	for _, o := range all {
		if o != e && o.Type().EvalType() != types.ETString {
			return numArg(e)
		}
	}
	return e
}
