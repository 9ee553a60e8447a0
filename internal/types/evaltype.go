package types

import "github.com/pingcap/tidb/pkg/parser/mysql"

// EvalType is the class a value is evaluated in: the expression evaluator
// and the executors have one code path per class.
type EvalType byte

// Evaluation classes.
const (
	ETInt EvalType = iota
	ETReal
	ETDecimal
	ETString
	ETDatetime
	ETDuration
)

// String returns the class name.
func (et EvalType) String() string {
	switch et {
	case ETInt:
		return "int"
	case ETReal:
		return "real"
	case ETDecimal:
		return "decimal"
	case ETString:
		return "string"
	case ETDatetime:
		return "datetime"
	case ETDuration:
		return "duration"
	}
	return "unknown"
}

// EvalType returns the evaluation class of the type.
func (ft *FieldType) EvalType() EvalType {
	switch ft.Tp {
	case mysql.TypeTiny, mysql.TypeShort, mysql.TypeInt24, mysql.TypeLong,
		mysql.TypeLonglong, mysql.TypeYear, mysql.TypeBit:
		return ETInt
	case mysql.TypeFloat, mysql.TypeDouble:
		return ETReal
	case mysql.TypeNewDecimal:
		return ETDecimal
	case mysql.TypeDate, mysql.TypeDatetime, mysql.TypeTimestamp, mysql.TypeNewDate:
		return ETDatetime
	case mysql.TypeDuration:
		return ETDuration
	}
	return ETString
}

// IntRange returns the range of an integer type of code tp: for signed types
// [lo, hi] of int64s; for unsigned types 0 and the largest value in umax.
func IntRange(tp byte) (lo, hi int64, umax uint64) {
	switch tp {
	case mysql.TypeTiny:
		return -1 << 7, 1<<7 - 1, 1<<8 - 1
	case mysql.TypeShort:
		return -1 << 15, 1<<15 - 1, 1<<16 - 1
	case mysql.TypeInt24:
		return mysql.MinInt24, mysql.MaxInt24, mysql.MaxUint24
	case mysql.TypeLong:
		return -1 << 31, 1<<31 - 1, 1<<32 - 1
	case mysql.TypeYear:
		return 0, 2155, 2155
	}
	return -1 << 63, 1<<63 - 1, 1<<64 - 1
}
