package expr

import (
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// numClass is the class an argument is computed in by arithmetic: strings
// are doubles, times and durations integers (fsp 0) or decimals.
func numClass(ft *types.FieldType) types.EvalType {
	switch et := ft.EvalType(); et {
	case types.ETInt, types.ETReal, types.ETDecimal:
		return et
	case types.ETDatetime, types.ETDuration:
		if ft.Decimal > 0 {
			return types.ETDecimal
		}
		return types.ETInt
	}
	if ft.Tp == mysql.TypeNull {
		return types.ETInt
	}
	return types.ETReal
}

func intType(unsigned bool) *types.FieldType {
	ft := types.NewFieldType(mysql.TypeLonglong)
	if unsigned {
		ft.Flag |= mysql.UnsignedFlag
	}
	return ft
}

func doubleType() *types.FieldType { return types.NewFieldType(mysql.TypeDouble) }

func decimalType(flen, scale int) *types.FieldType {
	ft := types.NewFieldType(mysql.TypeNewDecimal)
	ft.Decimal = min(max(scale, 0), types.MaxDecimalScale)
	ft.Flen = min(max(flen, ft.Decimal+1), types.MaxDecimalPrecision)
	return ft
}

// decScale returns the scale an argument contributes to a decimal result.
func decScale(ft *types.FieldType) int {
	switch ft.EvalType() {
	case types.ETDecimal, types.ETDatetime, types.ETDuration:
		if ft.Decimal > 0 {
			return ft.Decimal
		}
	}
	return 0
}

// decIntDigits returns the integer digits an argument contributes.
func decIntDigits(ft *types.FieldType) int {
	switch ft.EvalType() {
	case types.ETDecimal:
		return max(ft.Flen-ft.Decimal, 1)
	case types.ETInt:
		return 20
	}
	return 20
}

// boolType is the type of comparisons and logical operators: BIGINT(1).
func boolType() *types.FieldType {
	ft := types.NewFieldType(mysql.TypeLonglong)
	ft.Flen = 1
	return ft
}

func stringType(collate string, binary bool, flen int) *types.FieldType {
	ft := types.NewFieldType(mysql.TypeVarString)
	if binary {
		ft.Charset, ft.Collate = "binary", "binary"
		ft.Flag |= mysql.BinaryFlag
	} else if collate != "" {
		ft.Collate = collate
		ft.Charset = charsetOfCollation(collate)
	}
	ft.Flen = flen
	return ft
}

func charsetOfCollation(c string) string {
	for i := 0; i < len(c); i++ {
		if c[i] == '_' {
			return c[:i]
		}
	}
	return c
}

// isNullType reports the type of a NULL literal.
func isNullType(ft *types.FieldType) bool { return ft.Tp == mysql.TypeNull }

// mergeTypes is the result type of CASE, IF, IFNULL, COALESCE (MySQL's
// aggregation of types): NULLs ignored; all integers → BIGINT (unsigned
// only if all are); any string → string (binary if any is binary); all
// temporal of one kind → that kind; any double → DOUBLE; else DECIMAL.
func mergeTypes(args []Expression) *types.FieldType {
	var fts []*types.FieldType
	for _, a := range args {
		if !isNullType(a.Type()) {
			fts = append(fts, a.Type())
		}
	}
	if len(fts) == 0 {
		return types.NewFieldType(mysql.TypeNull)
	}
	allInt, allUnsigned, anyString, anyReal, anyDec := true, true, false, false, false
	allDatetime, allDuration := true, true
	scale, intDigits, flen := 0, 0, 0
	binary := false
	for _, ft := range fts {
		et := ft.EvalType()
		allInt = allInt && et == types.ETInt
		allUnsigned = allUnsigned && ft.IsUnsigned()
		anyString = anyString || et == types.ETString
		anyReal = anyReal || et == types.ETReal
		anyDec = anyDec || et == types.ETDecimal
		allDatetime = allDatetime && et == types.ETDatetime
		allDuration = allDuration && et == types.ETDuration
		binary = binary || ft.IsBinaryString()
		scale = max(scale, decScale(ft))
		intDigits = max(intDigits, decIntDigits(ft))
		flen = max(flen, ft.Flen)
	}
	switch {
	case allInt:
		return intType(allUnsigned)
	case allDatetime:
		ft := fts[0].Clone()
		for _, o := range fts[1:] {
			if o.Tp != ft.Tp {
				ft.Tp = mysql.TypeDatetime
			}
			ft.Decimal = max(ft.Decimal, o.Decimal)
		}
		return ft
	case allDuration:
		ft := fts[0].Clone()
		for _, o := range fts[1:] {
			ft.Decimal = max(ft.Decimal, o.Decimal)
		}
		return ft
	case anyString || allDatetime || allDuration:
		collate, bin := deriveCollation(args)
		return stringType(collate, bin || binary, flen)
	case anyReal:
		return doubleType()
	case anyDec:
		return decimalType(intDigits+scale, scale)
	}
	// Mixed temporal and numbers: MySQL returns a string.
	collate, bin := deriveCollation(args)
	return stringType(collate, bin, flen)
}

// Coercibility of collations (MySQL's): lower wins.
const (
	coercExplicit  = 0 // COLLATE clause
	coercImplicit  = 2 // column, function of columns
	coercCoercible = 4 // literal
	coercNumeric   = 5 // numbers, NULL
)

// collationOf returns an expression's collation and coercibility.
func collationOf(e Expression) (string, int) {
	ft := e.Type()
	if ft.EvalType() != types.ETString || isNullType(ft) {
		return "binary", coercNumeric
	}
	switch x := e.(type) {
	case *Column:
		return ft.Collate, coercImplicit
	case *Constant:
		return ft.Collate, coercCoercible
	case *ScalarFunction:
		if x.Name == FnCollate {
			return ft.Collate, coercExplicit
		}
		return ft.Collate, coercImplicit
	}
	return ft.Collate, coercImplicit
}

// deriveCollation picks the collation a string operation over args uses:
// "binary" (and binary true) if any string argument is binary, else the one of lowest
// coercibility (the first on ties).
func deriveCollation(args []Expression) (collate string, binary bool) {
	best := coercNumeric + 1
	anyString := false
	for _, a := range args {
		if a.Type().EvalType() != types.ETString || isNullType(a.Type()) {
			continue
		}
		anyString = true
		if a.Type().IsBinaryString() {
			return "binary", true
		}
		c, co := collationOf(a)
		if co < best {
			best, collate = co, c
		}
	}
	if !anyString {
		return "utf8mb4_bin", false
	}
	if collate == "" {
		collate = "utf8mb4_bin"
	}
	return collate, false
}
