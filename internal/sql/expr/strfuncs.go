package expr

import (
	"bytes"
	"unicode/utf8"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// strResult wraps bytes as the function's string type.
func strResult(b []byte, ft *types.FieldType) types.Datum {
	if ft.IsBinaryString() {
		return types.NewBytesDatum(b)
	}
	return types.NewStringDatumBytes(b)
}

// concatFunc is CONCAT(a, ...): NULL if any argument is.
type concatFunc struct{ ft *types.FieldType }

func (f *concatFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var out []byte
	for _, a := range args {
		d, err := a.Eval(ctx, row)
		if err != nil || d.IsNull() {
			return types.NewNullDatum(), err
		}
		out = append(out, toBytes(&d)...)
	}
	if out == nil {
		out = []byte{}
	}
	return strResult(out, f.ft), nil
}

// concatWSFunc is CONCAT_WS(sep, a, ...): NULL if sep is; NULL arguments
// are skipped.
type concatWSFunc struct{ ft *types.FieldType }

func (f *concatWSFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	sd, err := args[0].Eval(ctx, row)
	if err != nil || sd.IsNull() {
		return types.NewNullDatum(), err
	}
	sep := toBytes(&sd)
	out := []byte{}
	first := true
	for _, a := range args[1:] {
		d, err := a.Eval(ctx, row)
		if err != nil {
			return d, err
		}
		if d.IsNull() {
			continue
		}
		if !first {
			out = append(out, sep...)
		}
		first = false
		out = append(out, toBytes(&d)...)
	}
	return strResult(out, f.ft), nil
}

// lengthFunc is LENGTH (bytes) and CHAR_LENGTH (characters; bytes for
// binary strings).
type lengthFunc struct{ chars bool }

func (f *lengthFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	b := toBytes(&d)
	if f.chars && !args[0].Type().IsBinaryString() {
		return types.NewIntDatum(int64(utf8.RuneCount(b))), nil
	}
	return types.NewIntDatum(int64(len(b))), nil
}

// caseConvFunc is UPPER and LOWER; binary strings are returned unchanged,
// as MySQL does.
type caseConvFunc struct {
	upper bool
	ft    *types.FieldType
}

func (f *caseConvFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	b := toBytes(&d)
	if f.ft.IsBinaryString() {
		return types.NewBytesDatum(b), nil
	}
	if f.upper {
		return types.NewStringDatumBytes(bytes.ToUpper(b)), nil
	}
	return types.NewStringDatumBytes(bytes.ToLower(b)), nil
}

// substringFunc is SUBSTRING(s, pos[, len]) in characters (bytes for
// binary strings): pos 1 is the first character, negative pos counts from
// the end, pos 0 or len <= 0 give the empty string.
type substringFunc struct{ ft *types.FieldType }

func (f *substringFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var vals [3]types.Datum
	if null, err := evalArgs(ctx, row, args, vals[:len(args)]); err != nil || null {
		return types.NewNullDatum(), err
	}
	s := toBytes(&vals[0])
	pos := toInt(ctx, &vals[1])
	binary := f.ft.IsBinaryString()
	var n int64
	if binary {
		n = int64(len(s))
	} else {
		n = int64(utf8.RuneCount(s))
	}
	p := pos.v
	if pos.unsigned && p < 0 {
		p = n + 1 // beyond any string
	}
	start := int64(0)
	switch {
	case p > 0:
		start = p - 1
	case p < 0:
		start = n + p
	default:
		return strResult([]byte{}, f.ft), nil
	}
	if start < 0 || start >= n {
		return strResult([]byte{}, f.ft), nil
	}
	end := n
	if len(args) == 3 {
		l := toInt(ctx, &vals[2])
		if !l.unsigned && l.v <= 0 {
			return strResult([]byte{}, f.ft), nil
		}
		if !l.unsigned && start+l.v < n {
			end = start + l.v
		}
	}
	if binary {
		return types.NewBytesDatum(s[start:end]), nil
	}
	return types.NewStringDatumBytes(runeSlice(s, int(start), int(end))), nil
}

// runeSlice returns the characters [from, to) of s.
func runeSlice(s []byte, from, to int) []byte {
	i, c := 0, 0
	bs := len(s)
	for i < len(s) {
		if c == from {
			bs = i
		}
		if c == to {
			return s[bs:i]
		}
		_, n := decodeRune(s[i:])
		i += n
		c++
	}
	if c == from {
		bs = i
	}
	return s[bs:]
}
