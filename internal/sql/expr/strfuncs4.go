package expr

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// String functions of the function table: UNHEX, SHA2, ORD, CHAR, FIELD,
// ELT, FIND_IN_SET, STRCMP, SUBSTRING_INDEX, INSERT, QUOTE, BIN, OCT,
// CONV, TO_BASE64, FROM_BASE64. FORMAT is in format.go.

func init() {
	register("unhex", 1, 1, fixed(binaryType, binFn(unhexFn)))
	register("sha2", 2, 2, fixed(textType(128), strFn(sha2Fn)))
	register("to_base64", 1, 1, fixed(textType(255), strFn(toBase64Fn)))
	register("from_base64", 1, 1, fixed(binaryType, binFn(fromBase64Fn)))
	register("quote", 1, 1, buildQuote)
	register("ord", 1, 1, func(b *builder, c *call) (Expression, error) {
		return b.newFunc(c.name, c.args, intType(true), &ordFunc{binary: c.args[0].Type().IsBinaryString()}), nil
	})
	register("char_func", 2, -1, buildChar)
	register("field", 2, -1, buildField)
	register("elt", 2, -1, buildElt)
	register("find_in_set", 2, 2, buildCollFunc(func(coll collator) builtin { return &findInSetFunc{coll: coll} }))
	register("strcmp", 2, 2, buildCollFunc(func(coll collator) builtin { return &strcmpFunc{coll: coll} }))
	register("substring_index", 3, 3, buildSameString(func(ft *types.FieldType) builtin { return &substringIndexFunc{ft: ft} }))
	register("insert_func", 4, 4, buildSameString(func(ft *types.FieldType) builtin { return &insertFunc{ft: ft} }))
	register("bin", 1, 1, buildConv(2))
	register("oct", 1, 1, buildConv(8))
	register("conv", 3, 3, buildConv(0))
}

// strFn is a function of string arguments (NULL if any is NULL) whose
// result is computed from their bytes; ok false gives NULL.
type strFn func(ctx EvalContext, v [][]byte, ds []types.Datum) (out []byte, ok bool)

func (f strFn) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	v, ds, null, err := evalStrArgs(ctx, row, args)
	if err != nil || null {
		return types.NewNullDatum(), err
	}
	out, ok := f(ctx, v, ds)
	if !ok {
		return types.NewNullDatum(), nil
	}
	if out == nil {
		out = []byte{}
	}
	return types.NewStringDatumBytes(out), nil
}

// binFn is a strFn whose result is a byte string.
type binFn strFn

func (f binFn) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := strFn(f).eval(ctx, row, args)
	if err != nil || d.IsNull() {
		return d, err
	}
	return types.NewBytesDatum(d.GetBytes()), nil
}

func unhexFn(_ EvalContext, v [][]byte, _ []types.Datum) ([]byte, bool) {
	s := v[0]
	if len(s)%2 == 1 {
		s = append([]byte{'0'}, s...)
	}
	out := make([]byte, len(s)/2)
	if _, err := hex.Decode(out, s); err != nil {
		return nil, false
	}
	return out, true
}

func sha2Fn(ctx EvalContext, v [][]byte, ds []types.Datum) ([]byte, bool) {
	var sum []byte
	switch toInt(ctx, &ds[1]).v {
	case 224:
		s := sha256.Sum224(v[0])
		sum = s[:]
	case 256, 0:
		s := sha256.Sum256(v[0])
		sum = s[:]
	case 384:
		s := sha512.Sum384(v[0])
		sum = s[:]
	case 512:
		s := sha512.Sum512(v[0])
		sum = s[:]
	default:
		return nil, false
	}
	return []byte(hex.EncodeToString(sum)), true
}

// toBase64Fn encodes as MySQL does: lines of 76 characters joined by
// newlines.
func toBase64Fn(_ EvalContext, v [][]byte, _ []types.Datum) ([]byte, bool) {
	enc := base64.StdEncoding.EncodeToString(v[0])
	var out []byte
	for len(enc) > 76 {
		out = append(out, enc[:76]...)
		out = append(out, '\n')
		enc = enc[76:]
	}
	return append(out, enc...), true
}

// fromBase64Fn decodes, ignoring white space; bad input is NULL.
func fromBase64Fn(_ EvalContext, v [][]byte, _ []types.Datum) ([]byte, bool) {
	s := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
			return -1
		}
		return r
	}, string(v[0]))
	out, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		if out, err = base64.RawStdEncoding.DecodeString(s); err != nil {
			return nil, false
		}
	}
	return out, true
}

func buildQuote(b *builder, c *call) (Expression, error) {
	coll, bin := deriveCollation(c.args)
	ft := stringType(coll, bin, 2*max(c.args[0].Type().Flen, 0)+2)
	return b.newFunc(c.name, c.args, ft, &quoteFunc{ft: ft}), nil
}

// quoteFunc is QUOTE(s): s in single quotes with \, ', NUL and Ctrl-Z
// escaped; QUOTE(NULL) is the word NULL.
type quoteFunc struct{ ft *types.FieldType }

func (f *quoteFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil {
		return d, err
	}
	if d.IsNull() {
		return strResult([]byte("NULL"), f.ft), nil
	}
	s := toBytes(&d)
	out := make([]byte, 0, len(s)+2)
	out = append(out, '\'')
	for _, c := range s {
		switch c {
		case '\\', '\'':
			out = append(out, '\\', c)
		case 0:
			out = append(out, '\\', '0')
		case 26:
			out = append(out, '\\', 'Z')
		default:
			out = append(out, c)
		}
	}
	return strResult(append(out, '\''), f.ft), nil
}

// ordFunc is ORD(s): the code of s's first character as its bytes read
// big-endian (the first byte for binary strings).
type ordFunc struct{ binary bool }

func (f *ordFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	s := toBytes(&d)
	if len(s) == 0 {
		return types.NewUintDatum(0), nil
	}
	n := 1
	if !f.binary {
		if _, size := utf8.DecodeRune(s); size > 1 {
			n = size
		}
	}
	var v uint64
	for _, c := range s[:n] {
		v = v<<8 | uint64(c)
	}
	return types.NewUintDatum(v), nil
}

// buildChar builds CHAR(n, ... [USING charset]); the parser passes the
// charset (or NULL) as the last argument.
func buildChar(b *builder, c *call) (Expression, error) {
	ft := binaryType()
	last := c.args[len(c.args)-1]
	if v, ok := constValue(last); ok {
		cs := strings.ToLower(string(toBytes(v)))
		if cs != "binary" {
			ft = stringType(cs+"_bin", false, 255)
			ft.Charset = cs
		}
	}
	args := c.args[:len(c.args)-1]
	for i := range args {
		args[i] = numArg(args[i])
	}
	return b.newFunc(c.name, args, ft, &charFunc{ft: ft}), nil
}

// charFunc is CHAR(n, ...): each integer's bytes big-endian without
// leading zero bytes (0 is one zero byte); NULLs are skipped. A result
// that is not valid in a text charset is NULL.
type charFunc struct{ ft *types.FieldType }

func (f *charFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var out []byte
	for _, a := range args {
		d, err := a.Eval(ctx, row)
		if err != nil {
			return d, err
		}
		if d.IsNull() {
			continue
		}
		v := uint64(toInt(ctx, &d).v)
		var tmp [8]byte
		i := 8
		for {
			i--
			tmp[i] = byte(v)
			v >>= 8
			if v == 0 {
				break
			}
		}
		out = append(out, tmp[i:]...)
	}
	if out == nil {
		out = []byte{}
	}
	if f.ft.IsBinaryString() {
		return types.NewBytesDatum(out), nil
	}
	if !utf8.Valid(out) {
		return types.NewNullDatum(), nil
	}
	return types.NewStringDatumBytes(out), nil
}

func buildField(b *builder, c *call) (Expression, error) {
	f := &fieldFunc{cmps: make([]comparator, len(c.args)-1)}
	for i := 1; i < len(c.args); i++ {
		c.args[0], c.args[i] = cmpArgs(c.args[0], c.args[i])
		f.cmps[i-1] = newComparator(c.args[0], c.args[i])
	}
	return b.newFunc(c.name, c.args, intType(false), f), nil
}

// fieldFunc is FIELD(s, s1, s2, ...): the 1-based index of the first si
// equal to s, 0 when none is or s is NULL.
type fieldFunc struct{ cmps []comparator }

func (f *fieldFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	v, err := args[0].Eval(ctx, row)
	if err != nil || v.IsNull() {
		return types.NewIntDatum(0), err
	}
	for i, a := range args[1:] {
		d, err := a.Eval(ctx, row)
		if err != nil {
			return d, err
		}
		if !d.IsNull() && f.cmps[i].compare(ctx, &v, &d) == 0 {
			return types.NewIntDatum(int64(i + 1)), nil
		}
	}
	return types.NewIntDatum(0), nil
}

func buildElt(b *builder, c *call) (Expression, error) {
	ft := mergeTypes(c.args[1:])
	if ft.EvalType() != types.ETString {
		coll, bin := deriveCollation(c.args[1:])
		ft = stringType(coll, bin, ft.Flen)
	}
	return b.newFunc(c.name, c.args, ft, &eltFunc{ft: ft}), nil
}

// eltFunc is ELT(n, s1, s2, ...): sn, NULL when n is out of range.
type eltFunc struct{ ft *types.FieldType }

func (f *eltFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	nd, err := args[0].Eval(ctx, row)
	if err != nil || nd.IsNull() {
		return types.NewNullDatum(), err
	}
	n := toInt(ctx, &nd)
	if n.unsigned || n.v < 1 || n.v >= int64(len(args)) {
		return types.NewNullDatum(), nil
	}
	return evalAs(ctx, row, args[n.v], f.ft)
}

// buildCollFunc builds a function of two strings compared by their
// derived collation.
func buildCollFunc(mk func(collator) builtin) func(b *builder, c *call) (Expression, error) {
	return func(b *builder, c *call) (Expression, error) {
		coll, _ := deriveCollation(c.args)
		return b.newFunc(c.name, c.args, intType(false), mk(getCollator(coll))), nil
	}
}

// findInSetFunc is FIND_IN_SET(s, list): the 1-based position of s among
// list's comma-separated items, 0 when absent or s contains a comma.
type findInSetFunc struct{ coll collator }

func (f *findInSetFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	v, _, null, err := evalStrArgs(ctx, row, args)
	if err != nil || null {
		return types.NewNullDatum(), err
	}
	if bytes.IndexByte(v[0], ',') >= 0 || len(v[1]) == 0 {
		return types.NewIntDatum(0), nil
	}
	for i, item := range bytes.Split(v[1], []byte{','}) {
		if f.coll.compare(item, v[0]) == 0 {
			return types.NewIntDatum(int64(i + 1)), nil
		}
	}
	return types.NewIntDatum(0), nil
}

// strcmpFunc is STRCMP(a, b): -1, 0 or 1 by the collation.
type strcmpFunc struct{ coll collator }

func (f *strcmpFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	v, _, null, err := evalStrArgs(ctx, row, args)
	if err != nil || null {
		return types.NewNullDatum(), err
	}
	r := f.coll.compare(v[0], v[1])
	return types.NewIntDatum(int64(max(min(r, 1), -1))), nil
}

// buildSameString builds a function whose result has the first
// argument's string type.
func buildSameString(mk func(*types.FieldType) builtin) func(b *builder, c *call) (Expression, error) {
	return func(b *builder, c *call) (Expression, error) {
		coll, bin := deriveCollation(c.args[:1])
		ft := stringType(coll, bin, c.args[0].Type().Flen)
		return b.newFunc(c.name, c.args, ft, mk(ft)), nil
	}
}

// substringIndexFunc is SUBSTRING_INDEX(s, delim, n): s before the n-th
// delim (n > 0) or after the n-th from the end (n < 0); delim matches
// case-sensitively.
type substringIndexFunc struct{ ft *types.FieldType }

func (f *substringIndexFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	v, ds, null, err := evalStrArgs(ctx, row, args)
	if err != nil || null {
		return types.NewNullDatum(), err
	}
	s, delim := v[0], v[1]
	n := toInt(ctx, &ds[2])
	if len(delim) == 0 || n.v == 0 {
		return strResult([]byte{}, f.ft), nil
	}
	if n.unsigned || n.v > 0 {
		cnt := uint64(n.v)
		off := 0
		for i := uint64(0); i < cnt; i++ {
			j := bytes.Index(s[off:], delim)
			if j < 0 {
				return strResult(s, f.ft), nil
			}
			if i == cnt-1 {
				return strResult(s[:off+j], f.ft), nil
			}
			off += j + len(delim)
		}
		return strResult(s, f.ft), nil
	}
	cnt := -n.v
	end := len(s)
	for i := int64(0); i < cnt; i++ {
		j := bytes.LastIndex(s[:end], delim)
		if j < 0 {
			return strResult(s, f.ft), nil
		}
		if i == cnt-1 {
			return strResult(s[j+len(delim):], f.ft), nil
		}
		end = j
	}
	return strResult(s, f.ft), nil
}

// insertFunc is INSERT(s, pos, len, new): s with the len characters at
// pos replaced by new; s unchanged when pos is out of range.
type insertFunc struct{ ft *types.FieldType }

func (f *insertFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	v, ds, null, err := evalStrArgs(ctx, row, args)
	if err != nil || null {
		return types.NewNullDatum(), err
	}
	s, repl := v[0], v[3]
	pos, ln := toInt(ctx, &ds[1]), toInt(ctx, &ds[2])
	binary := f.ft.IsBinaryString()
	n := int64(len(s))
	if !binary {
		n = int64(utf8.RuneCount(s))
	}
	if pos.unsigned || pos.v < 1 || pos.v > n {
		return strResult(s, f.ft), nil
	}
	start := pos.v - 1
	end := n
	if !ln.unsigned && ln.v >= 0 && ln.v < n-start {
		end = start + ln.v
	}
	var out []byte
	if binary {
		out = append(append(append(out, s[:start]...), repl...), s[end:]...)
	} else {
		out = append(append(append(out, runeSlice(s, 0, int(start))...), repl...), runeSlice(s, int(end), int(n))...)
	}
	return strResult(out, f.ft), nil
}

// buildConv builds CONV(n, from, to); BIN and OCT are CONV(n, 10, base).
func buildConv(base int64) func(b *builder, c *call) (Expression, error) {
	return func(b *builder, c *call) (Expression, error) {
		args := c.args
		args[0] = numArg(args[0])
		return b.newFunc(c.name, args, textType(64)(), &convFunc{base: base}), nil
	}
}

// convFunc is CONV(n, from_base, to_base) with MySQL's rules: bases
// 2..36 in absolute value (else NULL); a negative from_base reads n as
// signed, a negative to_base writes a signed result; numbers are 64-bit,
// negative ones as two's complement unless to_base is negative; a string
// is read up to its first character that is not a digit of the base.
type convFunc struct{ base int64 }

func (f *convFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var ds [3]types.Datum // n, and from_base and to_base for CONV
	if null, err := evalArgs(ctx, row, args, ds[:len(args)]); err != nil || null {
		return types.NewNullDatum(), err
	}
	d := ds[0]
	from, to := int64(10), f.base
	if f.base == 0 {
		from, to = toInt(ctx, &ds[1]).v, toInt(ctx, &ds[2]).v
	}
	af, at := abs64(from), abs64(to)
	if af < 2 || af > 36 || at < 2 || at > 36 {
		return types.NewNullDatum(), nil
	}
	var v uint64
	switch d.Kind() {
	case types.KindString, types.KindBytes:
		v = parseBase(string(d.GetBytes()), int(af), from < 0)
	default:
		v = uint64(toInt(ctx, &d).v)
	}
	neg := false
	if to < 0 && int64(v) < 0 {
		neg, v = true, uint64(-int64(v))
	}
	s := strings.ToUpper(strconv.FormatUint(v, int(at)))
	if neg {
		s = "-" + s
	}
	return types.NewStringDatum(s), nil
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// parseBase reads s's leading number in base (MySQL's my_strntoull and,
// for signed, my_strntoll: overflow clamps).
func parseBase(s string, base int, signed bool) uint64 {
	s = strings.TrimLeft(s, " \t\n")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var v uint64
	overflow := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		var dg int
		switch {
		case c >= '0' && c <= '9':
			dg = int(c - '0')
		case c >= 'a' && c <= 'z':
			dg = int(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			dg = int(c-'A') + 10
		default:
			dg = 99
		}
		if dg >= base {
			break
		}
		nv := v*uint64(base) + uint64(dg)
		if nv/uint64(base) != v || nv < v {
			overflow = true
		}
		v = nv
	}
	if signed {
		switch {
		case overflow || (!neg && v > 1<<63-1):
			if neg {
				return 1 << 63
			}
			return 1<<63 - 1
		case neg && v > 1<<63:
			return 1 << 63
		case neg:
			return uint64(-int64(v))
		}
		return v
	}
	if overflow {
		return 1<<64 - 1
	}
	if neg {
		return -v
	}
	return v
}
