package expr

// ScalarFunction names. Operators use these names; functions use their
// lower-case SQL names (aliases resolved: ceiling → ceil, substr → substring,
// lcase → lower, ucase → upper, current_timestamp → now, ...).
const (
	FnEQ         = "eq"
	FnNE         = "ne"
	FnLT         = "lt"
	FnLE         = "le"
	FnGT         = "gt"
	FnGE         = "ge"
	FnNullEQ     = "nulleq"
	FnPlus       = "plus"
	FnMinus      = "minus"
	FnMul        = "mul"
	FnDiv        = "div"
	FnIntDiv     = "intdiv"
	FnMod        = "mod"
	FnUnaryMinus = "unaryminus"
	FnAnd        = "and"
	FnOr         = "or"
	FnXor        = "xor"
	FnNot        = "not"
	FnIsNull     = "isnull"
	FnIsTrue     = "istrue"
	FnIsFalse    = "isfalse"
	FnIn         = "in"
	FnBetween    = "between"
	FnLike       = "like"
	FnRegexp     = "regexp"
	FnCase       = "case"
	FnIf         = "if"
	FnIfNull     = "ifnull"
	FnCoalesce   = "coalesce"
	FnNullIf     = "nullif"
	FnCast       = "cast"
	FnCollate    = "collate"
	FnGetVar     = "getvar"
	FnSysVar     = "sysvar"
	FnBitAnd     = "bitand"
	FnBitOr      = "bitor"
	FnBitXor     = "bitxor"
	FnBitNeg     = "bitneg"
	FnLeftShift  = "leftshift"
	FnRightShift = "rightshift"
)

// IsComparison reports whether name is one of eq, ne, lt, le, gt, ge,
// nulleq: a function of two arguments the planner may turn into a range
// when one argument is a column and the other a constant.
func IsComparison(name string) bool {
	switch name {
	case FnEQ, FnNE, FnLT, FnLE, FnGT, FnGE, FnNullEQ:
		return true
	}
	return false
}

// ReverseComparison returns the comparison with swapped arguments (a < b
// is b > a).
func ReverseComparison(name string) string {
	switch name {
	case FnLT:
		return FnGT
	case FnLE:
		return FnGE
	case FnGT:
		return FnLT
	case FnGE:
		return FnLE
	}
	return name
}

// opCode numbers the operators whose evaluation is hot, so that the
// evaluators switch on a byte rather than compare name strings.
type opCode byte

const (
	opOther opCode = iota
	opPlus
	opMinus
	opMul
	opDiv
	opIntDiv
	opMod
	opEQ
	opNE
	opLT
	opLE
	opGT
	opGE
	opNullEQ
)

var opCodes = map[string]opCode{
	FnPlus: opPlus, FnMinus: opMinus, FnMul: opMul, FnDiv: opDiv, FnIntDiv: opIntDiv, FnMod: opMod,
	FnEQ: opEQ, FnNE: opNE, FnLT: opLT, FnLE: opLE, FnGT: opGT, FnGE: opGE, FnNullEQ: opNullEQ,
}
