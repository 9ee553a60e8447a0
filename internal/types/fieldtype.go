package types

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	ptypes "github.com/pingcap/tidb/pkg/parser/types"
)

// UnspecifiedLength marks a Flen or Decimal that the column definition left
// out.
const UnspecifiedLength = -1

// MaxFsp is the largest fractional seconds precision (microseconds).
const MaxFsp = 6

// FieldType is a column or expression type: a mysql type code (mysql.TypeLong,
// mysql.TypeVarchar, ...), mysql flags (mysql.UnsignedFlag,
// mysql.NotNullFlag, mysql.PriKeyFlag, ...), the display length, the
// decimals (scale for DECIMAL, fsp for time types, -1 for unspecified) and
// the character set and collation.
type FieldType struct {
	Tp      byte
	Flag    uint
	Flen    int
	Decimal int
	Charset string
	Collate string
	// Elems are the members of an ENUM or SET, in definition order.
	Elems []string `json:",omitempty"`
}

// NewFieldType returns a FieldType of type code tp with MySQL's default
// length and decimals, binary charset for non-string types and utf8mb4
// (utf8mb4_bin) for string types.
func NewFieldType(tp byte) *FieldType {
	flen, dec := DefaultLengthAndDecimal(tp)
	ft := &FieldType{Tp: tp, Flen: flen, Decimal: dec}
	ft.setDefaultCharset()
	return ft
}

func (ft *FieldType) setDefaultCharset() {
	if ft.EvalType() == ETString && !ft.IsBinaryString() {
		ft.Charset, ft.Collate = "utf8mb4", "utf8mb4_bin"
		return
	}
	ft.Charset, ft.Collate = "binary", "binary"
	if ft.EvalType() != ETString {
		ft.Flag |= mysql.BinaryFlag
	}
}

// DefaultLengthAndDecimal returns MySQL's display length and decimals of a
// column of type tp declared without them (INT → 11, BIGINT → 20, DECIMAL →
// 10,0, DATETIME → 19, ...); -1, -1 for an unknown type.
func DefaultLengthAndDecimal(tp byte) (flen, decimal int) {
	return mysql.GetDefaultFieldLengthAndDecimal(tp)
}

// FromParser converts the parser's field type (from a column definition or
// CAST) into ours, filling MySQL's defaults for unspecified length and
// decimals.
func FromParser(pft *ptypes.FieldType) *FieldType {
	ft := &FieldType{
		Tp:      pft.GetType(),
		Flag:    pft.GetFlag(),
		Flen:    pft.GetFlen(),
		Decimal: pft.GetDecimal(),
		Charset: pft.GetCharset(),
		Collate: pft.GetCollate(),
	}
	if elems := pft.GetElems(); len(elems) > 0 {
		ft.Elems = make([]string, len(elems))
		for i, e := range elems {
			// MySQL strips trailing spaces from member names.
			ft.Elems[i] = strings.TrimRight(e, " ")
		}
	}
	if ft.Tp == mysql.TypeBit {
		ft.Flag |= mysql.UnsignedFlag
	}
	defFlen, defDec := DefaultLengthAndDecimal(ft.Tp)
	if ft.Flen == UnspecifiedLength {
		ft.Flen = defFlen
		if ft.IsUnsignedInt() && ft.Tp != mysql.TypeLonglong && ft.Tp != mysql.TypeYear {
			// Unsigned ints display one digit shorter (no sign): INT
			// UNSIGNED is 10 wide; BIGINT UNSIGNED stays 20.
			ft.Flen--
		}
	}
	if ft.Decimal == UnspecifiedLength {
		switch {
		case ft.IsTime() || ft.Tp == mysql.TypeDuration:
			ft.Decimal = 0
		case ft.Tp == mysql.TypeNewDecimal:
			ft.Decimal = defDec
		}
	}
	if ft.IsTime() || ft.Tp == mysql.TypeDuration {
		// DATETIME(fsp) displays 19 (+1+fsp) characters, TIME 10 (+1+fsp).
		flen := 19
		switch ft.Tp {
		case mysql.TypeDate:
			flen = 10
		case mysql.TypeDuration:
			flen = 10
		}
		if ft.Tp != mysql.TypeDate && ft.Decimal > 0 {
			flen += 1 + ft.Decimal
		}
		ft.Flen = flen
	}
	if ft.Charset == "" {
		ft.setDefaultCharset()
	} else if ft.Charset == "binary" && ft.EvalType() != ETString {
		ft.Flag |= mysql.BinaryFlag
	}
	return ft
}

// Clone returns a copy of ft (sharing Elems, which are never modified).
func (ft *FieldType) Clone() *FieldType {
	c := *ft
	return &c
}

// IsUnsigned reports whether the UNSIGNED flag is set.
func (ft *FieldType) IsUnsigned() bool { return mysql.HasUnsignedFlag(ft.Flag) }

// IsNotNull reports whether the NOT NULL flag is set.
func (ft *FieldType) IsNotNull() bool { return mysql.HasNotNullFlag(ft.Flag) }

// IsPriKey reports whether the column is part of the primary key.
func (ft *FieldType) IsPriKey() bool { return ft.Flag&mysql.PriKeyFlag != 0 }

// IsInteger reports whether the type is TINYINT, SMALLINT, MEDIUMINT, INT,
// BIGINT (or YEAR, stored as an integer).
func (ft *FieldType) IsInteger() bool {
	return mysql.IsIntegerType(ft.Tp) || ft.Tp == mysql.TypeYear
}

// IsUnsignedInt reports whether the type is an unsigned integer type.
func (ft *FieldType) IsUnsignedInt() bool { return ft.IsInteger() && ft.IsUnsigned() }

// IsTime reports whether the type is DATE, DATETIME or TIMESTAMP.
func (ft *FieldType) IsTime() bool {
	switch ft.Tp {
	case mysql.TypeDate, mysql.TypeDatetime, mysql.TypeTimestamp, mysql.TypeNewDate:
		return true
	}
	return false
}

// IsBinaryString reports whether the type is a byte string (BINARY,
// VARBINARY, BLOB, or any string type in the binary charset).
func (ft *FieldType) IsBinaryString() bool {
	return ft.EvalType() == ETString && (ft.Charset == "binary" || ft.Collate == "binary")
}

// Fsp returns the fractional seconds precision of a time or duration type
// (0 when unspecified).
func (ft *FieldType) Fsp() int8 {
	if ft.Decimal < 0 {
		return 0
	}
	if ft.Decimal > MaxFsp {
		return MaxFsp
	}
	return int8(ft.Decimal)
}

// String renders the type the way SHOW COLUMNS does, e.g. "int(11)
// unsigned", "decimal(10,2)", "varchar(20)", "datetime(3)".
func (ft *FieldType) String() string {
	name := TypeName(ft.Tp)
	if ft.EvalType() == ETString {
		name = ft.stringTypeName()
	}
	var s string
	switch {
	case ft.Tp == mysql.TypeEnum || ft.Tp == mysql.TypeSet:
		var sb strings.Builder
		sb.WriteString(name)
		sb.WriteByte('(')
		for i, e := range ft.Elems {
			if i > 0 {
				sb.WriteByte(',')
			}
			sb.WriteByte('\'')
			sb.WriteString(strings.ReplaceAll(strings.ReplaceAll(e, `\`, `\\`), "'", "''"))
			sb.WriteByte('\'')
		}
		sb.WriteByte(')')
		return sb.String()
	case ft.Tp == mysql.TypeJSON:
		return "json"
	case ft.Tp == mysql.TypeBit:
		return fmt.Sprintf("bit(%d)", max(ft.Flen, 1))
	case ft.Tp == mysql.TypeNewDecimal:
		s = fmt.Sprintf("%s(%d,%d)", name, ft.Flen, ft.Decimal)
	case ft.Tp == mysql.TypeFloat || ft.Tp == mysql.TypeDouble:
		if ft.Decimal > 0 && ft.Flen > 0 {
			s = fmt.Sprintf("%s(%d,%d)", name, ft.Flen, ft.Decimal)
		} else {
			s = name
		}
	case ft.IsTime() || ft.Tp == mysql.TypeDuration:
		if ft.Decimal > 0 {
			s = fmt.Sprintf("%s(%d)", name, ft.Decimal)
		} else {
			s = name
		}
	case ft.Tp == mysql.TypeTinyBlob || ft.Tp == mysql.TypeBlob || ft.Tp == mysql.TypeMediumBlob || ft.Tp == mysql.TypeLongBlob:
		s = name
	case ft.Flen > 0:
		s = fmt.Sprintf("%s(%d)", name, ft.Flen)
	default:
		s = name
	}
	if ft.IsUnsigned() && ft.EvalType() != ETString {
		s += " unsigned"
	}
	return s
}

// TypeName returns the SQL name of a type code as SHOW COLUMNS prints it
// (binary-charset strings print as their byte-string names only through
// FieldType.String's caller, which knows the charset).
func TypeName(tp byte) string {
	switch tp {
	case mysql.TypeTiny:
		return "tinyint"
	case mysql.TypeShort:
		return "smallint"
	case mysql.TypeInt24:
		return "mediumint"
	case mysql.TypeLong:
		return "int"
	case mysql.TypeLonglong:
		return "bigint"
	case mysql.TypeFloat:
		return "float"
	case mysql.TypeDouble:
		return "double"
	case mysql.TypeNewDecimal:
		return "decimal"
	case mysql.TypeDate, mysql.TypeNewDate:
		return "date"
	case mysql.TypeDatetime:
		return "datetime"
	case mysql.TypeTimestamp:
		return "timestamp"
	case mysql.TypeDuration:
		return "time"
	case mysql.TypeYear:
		return "year"
	case mysql.TypeString:
		return "char"
	case mysql.TypeVarchar, mysql.TypeVarString:
		return "varchar"
	case mysql.TypeTinyBlob:
		return "tinyblob"
	case mysql.TypeBlob:
		return "blob"
	case mysql.TypeMediumBlob:
		return "mediumblob"
	case mysql.TypeLongBlob:
		return "longblob"
	case mysql.TypeBit:
		return "bit"
	case mysql.TypeJSON:
		return "json"
	case mysql.TypeEnum:
		return "enum"
	case mysql.TypeSet:
		return "set"
	case mysql.TypeNull:
		return "null"
	}
	return "unknown"
}

// stringTypeName names string types by charset: text vs blob, char vs
// binary, varchar vs varbinary.
func (ft *FieldType) stringTypeName() string {
	bin := ft.IsBinaryString()
	switch ft.Tp {
	case mysql.TypeString:
		if bin {
			return "binary"
		}
		return "char"
	case mysql.TypeVarchar, mysql.TypeVarString:
		if bin {
			return "varbinary"
		}
		return "varchar"
	case mysql.TypeTinyBlob, mysql.TypeBlob, mysql.TypeMediumBlob, mysql.TypeLongBlob:
		name := TypeName(ft.Tp)
		if bin {
			return name
		}
		return strings.Replace(name, "blob", "text", 1)
	}
	return TypeName(ft.Tp)
}
