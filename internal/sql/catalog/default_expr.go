package catalog

import (
	"math"
	"reflect"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// setDefault applies a DEFAULT clause to col: NULL, a literal (converted
// to the column type; an impossible conversion is 1067) or
// CURRENT_TIMESTAMP / NOW() for DATETIME and TIMESTAMP columns.
func setDefault(col *ColumnInfo, e ast.ExprNode) error {
	invalid := sqlerr.New(mysql.ErrInvalidDefault, col.Name)
	col.HasDefault = true
	col.DefaultNull, col.DefaultValue, col.DefaultExpr = false, "", ""
	if isCurrentTimestamp(e) {
		if !col.FieldType.IsTime() || col.FieldType.Tp == mysql.TypeDate {
			return invalid
		}
		col.DefaultExpr = DefaultCurrentTimestamp
		return nil
	}
	d, ok := literalDatum(e)
	if !ok {
		return invalid
	}
	if d.IsNull() {
		if col.NotNull() {
			return invalid
		}
		col.DefaultNull = true
		return nil
	}
	if isBlobOrText(&col.FieldType) || col.FieldType.Tp == mysql.TypeJSON {
		// MySQL 8's text of 1101 (the parser's table has 5.7's).
		return sqlerr.Newf(mysql.ErrBlobCantHaveDefault,
			"BLOB, TEXT, GEOMETRY or JSON column '%s' can't have a default value", col.Name)
	}
	v, err := types.ConvertDatum(d, &col.FieldType)
	if err != nil {
		return invalid
	}
	col.DefaultValue = storeText(v)
	return nil
}

func isBlobOrText(ft *types.FieldType) bool {
	switch ft.Tp {
	case mysql.TypeTinyBlob, mysql.TypeBlob, mysql.TypeMediumBlob, mysql.TypeLongBlob:
		return true
	}
	return false
}

// isCurrentTimestamp recognises CURRENT_TIMESTAMP[(n)], NOW([n]),
// LOCALTIME and LOCALTIMESTAMP.
func isCurrentTimestamp(e ast.ExprNode) bool {
	f, ok := e.(*ast.FuncCallExpr)
	if !ok {
		return false
	}
	switch strings.ToLower(f.FnName.L) {
	case "current_timestamp", "now", "localtime", "localtimestamp":
		return true
	}
	return false
}

// literalDatum evaluates a literal default: a value, or a signed value.
func literalDatum(e ast.ExprNode) (types.Datum, bool) {
	switch x := e.(type) {
	case ast.ValueExpr:
		return valueDatum(x.GetValue())
	case *ast.UnaryOperationExpr:
		d, ok := literalDatum(x.V)
		if !ok {
			return d, false
		}
		switch x.Op {
		case opcode.Plus:
			return d, true
		case opcode.Minus:
			return negate(d)
		}
	case *ast.ParenthesesExpr:
		return literalDatum(x.Expr)
	}
	return types.Datum{}, false
}

// valueDatum turns the parser driver's Go value into a datum.
func valueDatum(v any) (types.Datum, bool) {
	switch x := v.(type) {
	case nil:
		return types.NewNullDatum(), true
	case types.Datum:
		return x, true
	case int64:
		return types.NewIntDatum(x), true
	case int:
		return types.NewIntDatum(int64(x)), true
	case uint64:
		return types.NewUintDatum(x), true
	case float32:
		return types.NewFloat32Datum(x), true
	case float64:
		return types.NewFloat64Datum(x), true
	case string:
		return types.NewStringDatum(x), true
	case []byte:
		return types.NewBytesDatum(x), true
	case *types.Decimal:
		return types.NewDecimalDatum(x), true
	case types.Time:
		return types.NewTimeDatum(x), true
	case types.Duration:
		return types.NewDurationDatum(x), true
	}
	// Named byte slices (hex and bit literals of the driver).
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
		return types.NewBytesDatum(rv.Bytes()), true
	}
	return types.Datum{}, false
}

func negate(d types.Datum) (types.Datum, bool) {
	switch d.Kind() {
	case types.KindInt64:
		if d.GetInt64() == math.MinInt64 {
			return types.Datum{}, false
		}
		return types.NewIntDatum(-d.GetInt64()), true
	case types.KindUint64:
		u := d.GetUint64()
		if u > 1<<63 {
			return types.NewDecimalDatum(mustDecimal("-" + d.String())), true
		}
		return types.NewIntDatum(int64(-u)), true
	case types.KindFloat32:
		return types.NewFloat32Datum(-d.GetFloat32()), true
	case types.KindFloat64:
		return types.NewFloat64Datum(-d.GetFloat64()), true
	case types.KindDecimal:
		r, err := types.NewDecFromInt(0).Sub(d.GetDecimal())
		if err != nil {
			return types.Datum{}, false
		}
		return types.NewDecimalDatum(r), true
	case types.KindString:
		return types.NewStringDatum("-" + d.GetString()), true
	}
	return types.Datum{}, false
}

func mustDecimal(s string) *types.Decimal {
	d, err := types.ParseDecimal(s)
	if err != nil {
		return types.NewDecFromInt(0)
	}
	return d
}
