package expr

import (
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/charset"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	ptypes "github.com/pingcap/tidb/pkg/parser/types"
	"github.com/strata-db/strata/internal/types"
)

// The parser driver: github.com/pingcap/tidb/pkg/parser builds literals and
// '?' markers through these hooks, so its AST carries our Datum.
func init() {
	ast.NewValueExpr = newValueExpr
	ast.NewParamMarkerExpr = newParamMarkerExpr
	ast.NewDecimal = func(s string) (any, error) { return types.ParseDecimal(s) }
	ast.NewHexLiteral = func(s string) (any, error) { return ParseHexLiteral(s) }
	ast.NewBitLiteral = func(s string) (any, error) { return ParseBitLiteral(s) }
}

var (
	_ ast.ValueExpr       = (*ValueExpr)(nil)
	_ ast.ParamMarkerExpr = (*ParamMarkerExpr)(nil)
)

// HexLiteral is the value of x'4142' or 0x4142: a binary string that acts
// as an unsigned integer in numeric context.
type HexLiteral []byte

// BitLiteral is the value of b'0101' or 0b0101: like HexLiteral.
type BitLiteral []byte

// ParseHexLiteral parses x'..', X'..' or 0x.. into its bytes (an odd
// number of digits in 0x form gets a leading 0; x'..' must be even).
func ParseHexLiteral(s string) (HexLiteral, error) {
	var digits string
	switch {
	case len(s) >= 3 && (s[0] == 'x' || s[0] == 'X') && s[1] == '\'':
		digits = strings.Trim(s[1:], "'")
		if len(digits)%2 != 0 {
			return nil, fmt.Errorf("invalid hexadecimal literal %s: odd number of digits", s)
		}
	case strings.HasPrefix(s, "0x"):
		digits = s[2:]
	default:
		return nil, fmt.Errorf("invalid hexadecimal literal %s", s)
	}
	if len(digits)%2 != 0 {
		digits = "0" + digits
	}
	b, err := hex.DecodeString(digits)
	if err != nil {
		return nil, fmt.Errorf("invalid hexadecimal literal %s: %w", s, err)
	}
	return HexLiteral(b), nil
}

// ParseBitLiteral parses b'..', B'..' or 0b.. into big-endian bytes.
func ParseBitLiteral(s string) (BitLiteral, error) {
	var digits string
	switch {
	case len(s) >= 3 && (s[0] == 'b' || s[0] == 'B') && s[1] == '\'':
		digits = strings.Trim(s[1:], "'")
	case strings.HasPrefix(s, "0b"):
		digits = s[2:]
	default:
		return nil, fmt.Errorf("invalid bit literal %s", s)
	}
	if len(digits) == 0 {
		return BitLiteral{}, nil
	}
	n := (len(digits) + 7) / 8
	out := make([]byte, n)
	for i := 0; i < len(digits); i++ {
		c := digits[len(digits)-1-i]
		switch c {
		case '0':
		case '1':
			out[n-1-i/8] |= 1 << (i % 8)
		default:
			return nil, fmt.Errorf("invalid bit literal %s", s)
		}
	}
	return BitLiteral(out), nil
}

// LiteralKind says how a ValueExpr was written when its datum alone does
// not: hex and bit literals are byte strings that are numbers in numeric
// context.
type LiteralKind byte

// Literal kinds.
const (
	LitPlain LiteralKind = iota
	LitHex
	LitBit
)

// ValueExpr is a literal in the AST: the parser's field type (in the
// embedded TexprNode: charset and collation, introducer flags, IsBooleanFlag
// for TRUE/FALSE) and the value as our Datum.
type ValueExpr struct {
	ast.TexprNode
	// Datum is the literal's value.
	Datum types.Datum
	// Lit marks hex and bit literals.
	Lit              LiteralKind
	projectionOffset int
}

// newValueExpr is ast.NewValueExpr: value is a Go value from the lexer
// (nil, bool, int, int64, uint64, float64, string, []byte, *types.Decimal,
// HexLiteral, BitLiteral) or an existing *ValueExpr.
func newValueExpr(value any, cs, collate string) ast.ValueExpr {
	if ve, ok := value.(*ValueExpr); ok {
		return ve
	}
	ve := &ValueExpr{projectionOffset: -1}
	ve.SetValue(value)
	defaultTypeForValue(value, &ve.Type, cs, collate)
	return ve
}

// SetValue implements ast.ValueExpr.
func (n *ValueExpr) SetValue(value any) {
	n.Lit = LitPlain
	switch x := value.(type) {
	case nil:
		n.Datum = types.NewNullDatum()
	case bool:
		if x {
			n.Datum = types.NewIntDatum(1)
		} else {
			n.Datum = types.NewIntDatum(0)
		}
	case int:
		n.Datum = types.NewIntDatum(int64(x))
	case int64:
		n.Datum = types.NewIntDatum(x)
	case uint64:
		n.Datum = types.NewUintDatum(x)
	case float32:
		n.Datum = types.NewFloat32Datum(x)
	case float64:
		n.Datum = types.NewFloat64Datum(x)
	case string:
		n.Datum = types.NewStringDatum(x)
	case []byte:
		n.Datum = types.NewBytesDatum(x)
	case *types.Decimal:
		n.Datum = types.NewDecimalDatum(x)
	case HexLiteral:
		n.Datum = types.NewBytesDatum([]byte(x))
		n.Lit = LitHex
	case BitLiteral:
		n.Datum = types.NewBytesDatum([]byte(x))
		n.Lit = LitBit
	case types.Datum:
		n.Datum = x
	default:
		n.Datum = types.NewStringDatum(fmt.Sprint(x))
	}
}

func setBinary(tp *ptypes.FieldType) {
	tp.SetCharset(charset.CharsetBin)
	tp.SetCollate(charset.CollationBin)
	tp.AddFlag(mysql.BinaryFlag)
}

// defaultTypeForValue sets the parser's field type of a literal, as the
// parser's own test driver does.
func defaultTypeForValue(value any, tp *ptypes.FieldType, cs, collate string) {
	switch x := value.(type) {
	case nil:
		tp.SetType(mysql.TypeNull)
		tp.SetFlen(0)
		tp.SetDecimal(0)
		setBinary(tp)
	case bool:
		tp.SetType(mysql.TypeLonglong)
		tp.SetFlen(1)
		tp.SetDecimal(0)
		tp.AddFlag(mysql.IsBooleanFlag)
		setBinary(tp)
	case int:
		tp.SetType(mysql.TypeLonglong)
		tp.SetFlen(len(strconv.Itoa(x)))
		tp.SetDecimal(0)
		setBinary(tp)
	case int64:
		tp.SetType(mysql.TypeLonglong)
		tp.SetFlen(len(strconv.FormatInt(x, 10)))
		tp.SetDecimal(0)
		setBinary(tp)
	case uint64:
		tp.SetType(mysql.TypeLonglong)
		tp.AddFlag(mysql.UnsignedFlag)
		tp.SetFlen(len(strconv.FormatUint(x, 10)))
		tp.SetDecimal(0)
		setBinary(tp)
	case string:
		tp.SetType(mysql.TypeVarString)
		tp.SetFlen(len(x))
		tp.SetDecimal(types.UnspecifiedLength)
		tp.SetCharset(cs)
		tp.SetCollate(collate)
	case float32:
		tp.SetType(mysql.TypeFloat)
		tp.SetFlen(len(strconv.FormatFloat(float64(x), 'f', -1, 32)))
		tp.SetDecimal(types.UnspecifiedLength)
		setBinary(tp)
	case float64:
		tp.SetType(mysql.TypeDouble)
		tp.SetFlen(len(strconv.FormatFloat(x, 'f', -1, 64)))
		tp.SetDecimal(types.UnspecifiedLength)
		setBinary(tp)
	case []byte:
		tp.SetType(mysql.TypeBlob)
		tp.SetFlen(len(x))
		tp.SetDecimal(types.UnspecifiedLength)
		setBinary(tp)
	case BitLiteral:
		tp.SetType(mysql.TypeVarString)
		tp.SetFlen(len(x))
		tp.SetDecimal(0)
		setBinary(tp)
	case HexLiteral:
		tp.SetType(mysql.TypeVarString)
		tp.SetFlen(len(x) * 3)
		tp.SetDecimal(0)
		tp.AddFlag(mysql.UnsignedFlag)
		setBinary(tp)
	case *types.Decimal:
		tp.SetType(mysql.TypeNewDecimal)
		tp.SetFlen(len(x.String()))
		tp.SetDecimal(x.Scale())
		setBinary(tp)
	default:
		tp.SetType(mysql.TypeUnspecified)
		tp.SetFlen(types.UnspecifiedLength)
		tp.SetDecimal(types.UnspecifiedLength)
	}
}

// GetValue implements ast.ValueExpr: the value as a Go value (nil, int64,
// uint64, float32, float64, string, []byte, *types.Decimal, HexLiteral,
// BitLiteral, types.Time, types.Duration).
func (n *ValueExpr) GetValue() any {
	d := &n.Datum
	switch d.Kind() {
	case types.KindNull:
		return nil
	case types.KindInt64:
		return d.GetInt64()
	case types.KindUint64:
		return d.GetUint64()
	case types.KindFloat32:
		return d.GetFloat32()
	case types.KindFloat64:
		return d.GetFloat64()
	case types.KindString:
		return d.GetString()
	case types.KindBytes:
		switch n.Lit {
		case LitHex:
			return HexLiteral(d.GetBytes())
		case LitBit:
			return BitLiteral(d.GetBytes())
		}
		return d.GetBytes()
	case types.KindDecimal:
		return d.GetDecimal()
	case types.KindTime:
		return d.GetTime()
	case types.KindDuration:
		return d.GetDuration()
	}
	return nil
}

// GetDatumString implements ast.ValueExpr.
func (n *ValueExpr) GetDatumString() string { return n.GetString() }

// GetString implements ast.ValueExpr: the value's text ("" for NULL).
func (n *ValueExpr) GetString() string {
	if n.Datum.IsNull() {
		return ""
	}
	return n.Datum.String()
}

// GetProjectionOffset implements ast.ValueExpr.
func (n *ValueExpr) GetProjectionOffset() int { return n.projectionOffset }

// SetProjectionOffset implements ast.ValueExpr.
func (n *ValueExpr) SetProjectionOffset(offset int) { n.projectionOffset = offset }

func (n *ValueExpr) isBoolean() bool { return n.Type.GetFlag()&mysql.IsBooleanFlag != 0 }

// Restore implements ast.Node: the literal as SQL text.
func (n *ValueExpr) Restore(ctx *format.RestoreCtx) error {
	d := &n.Datum
	switch d.Kind() {
	case types.KindNull:
		ctx.WriteKeyWord("NULL")
	case types.KindInt64:
		if n.isBoolean() {
			if d.GetInt64() > 0 {
				ctx.WriteKeyWord("TRUE")
			} else {
				ctx.WriteKeyWord("FALSE")
			}
		} else {
			ctx.WritePlain(strconv.FormatInt(d.GetInt64(), 10))
		}
	case types.KindUint64:
		ctx.WritePlain(strconv.FormatUint(d.GetUint64(), 10))
	case types.KindFloat32:
		ctx.WritePlain(strconv.FormatFloat(d.GetFloat64(), 'e', -1, 32))
	case types.KindFloat64:
		ctx.WritePlain(strconv.FormatFloat(d.GetFloat64(), 'e', -1, 64))
	case types.KindString:
		cs := n.Type.GetCharset()
		if cs != "" && !ctx.Flags.HasStringWithoutCharset() &&
			(!ctx.Flags.HasStringWithoutDefaultCharset() || cs != mysql.DefaultCharset) {
			ctx.WritePlain("_")
			ctx.WriteKeyWord(cs)
		}
		ctx.WriteString(d.GetString())
	case types.KindBytes:
		switch n.Lit {
		case LitHex:
			ctx.WritePlainf("x'%x'", d.GetBytes())
		case LitBit:
			ctx.WritePlain(bitString(d.GetBytes()))
		default:
			ctx.WriteString(d.GetString())
		}
	case types.KindDecimal:
		ctx.WritePlain(d.GetDecimal().String())
	case types.KindTime, types.KindDuration:
		ctx.WriteString(d.String())
	default:
		return fmt.Errorf("cannot restore a %s literal", d.Kind())
	}
	return nil
}

func bitString(b []byte) string {
	var sb strings.Builder
	sb.WriteString("b'")
	started := false
	for _, c := range b {
		for i := 7; i >= 0; i-- {
			bit := c>>uint(i)&1 == 1
			if bit {
				started = true
			}
			if started {
				if bit {
					sb.WriteByte('1')
				} else {
					sb.WriteByte('0')
				}
			}
		}
	}
	if !started {
		sb.WriteByte('0')
	}
	sb.WriteByte('\'')
	return sb.String()
}

// Format implements ast.ExprNode: the literal for messages.
func (n *ValueExpr) Format(w io.Writer) {
	d := &n.Datum
	var s string
	switch d.Kind() {
	case types.KindInt64:
		s = strconv.FormatInt(d.GetInt64(), 10)
		if n.isBoolean() {
			s = "FALSE"
			if d.GetInt64() > 0 {
				s = "TRUE"
			}
		}
	case types.KindString:
		s = strconv.Quote(d.GetString())
	case types.KindBytes:
		switch n.Lit {
		case LitHex:
			s = fmt.Sprintf("x'%x'", d.GetBytes())
		case LitBit:
			s = bitString(d.GetBytes())
		default:
			s = strconv.Quote(d.GetString())
		}
	case types.KindFloat32:
		s = strconv.FormatFloat(d.GetFloat64(), 'e', -1, 32)
	case types.KindFloat64:
		s = strconv.FormatFloat(d.GetFloat64(), 'e', -1, 64)
	default:
		s = d.String()
	}
	_, _ = io.WriteString(w, s)
}

// Accept implements ast.Node.
func (n *ValueExpr) Accept(v ast.Visitor) (ast.Node, bool) {
	newNode, skip := v.Enter(n)
	if skip {
		return v.Leave(newNode)
	}
	return v.Leave(newNode)
}

// ParamMarkerExpr is a '?' of a prepared statement. Offset is its byte
// offset in the SQL text; Order is its 0-based position among the
// statement's markers (the index into the EXECUTE parameters).
type ParamMarkerExpr struct {
	ValueExpr
	// Offset is the marker's byte offset in the statement text.
	Offset int
	// Order is the marker's index among the statement's parameters.
	Order int
}

func newParamMarkerExpr(offset int) ast.ParamMarkerExpr {
	return &ParamMarkerExpr{ValueExpr: ValueExpr{projectionOffset: -1}, Offset: offset}
}

// SetOrder implements ast.ParamMarkerExpr.
func (n *ParamMarkerExpr) SetOrder(order int) { n.Order = order }

// Restore implements ast.Node.
func (n *ParamMarkerExpr) Restore(ctx *format.RestoreCtx) error {
	ctx.WritePlain("?")
	return nil
}

// Format implements ast.ExprNode.
func (n *ParamMarkerExpr) Format(w io.Writer) { _, _ = io.WriteString(w, "?") }

// Accept implements ast.Node.
func (n *ParamMarkerExpr) Accept(v ast.Visitor) (ast.Node, bool) {
	newNode, skip := v.Enter(n)
	if skip {
		return v.Leave(newNode)
	}
	return v.Leave(newNode)
}
