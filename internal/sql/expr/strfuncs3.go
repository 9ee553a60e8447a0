package expr

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// evalStrArgs evaluates all arguments as text; null reports a NULL one.
func evalStrArgs(ctx EvalContext, row chunk.Row, args []Expression) (vals [][]byte, ds []types.Datum, null bool, err error) {
	ds = make([]types.Datum, len(args))
	if null, err := evalArgs(ctx, row, args, ds); err != nil || null {
		return nil, nil, true, err
	}
	vals = make([][]byte, len(args))
	for i := range ds {
		vals[i] = toBytes(&ds[i])
	}
	return vals, ds, false, nil
}

// strFunc is one of the simple string functions: INSTR, LOCATE, LPAD,
// RPAD, REVERSE, HEX, MD5, SHA1, ASCII, SPACE. Positions and lengths are
// in characters (bytes for binary strings); searches follow the
// collation's case sensitivity.
type strFunc struct {
	name string
	ci   bool
	ft   *types.FieldType
}

func (f *strFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	v, ds, null, err := evalStrArgs(ctx, row, args)
	if err != nil || null {
		return types.NewNullDatum(), err
	}
	binary := f.ft.IsBinaryString()
	switch f.name {
	case "instr", "locate":
		hay, needle, start := v[0], v[1], int64(1)
		if f.name == "locate" {
			hay, needle = v[1], v[0]
			if len(args) == 3 {
				start = toInt(ctx, &ds[2]).v
			}
		}
		return types.NewIntDatum(f.locate(hay, needle, start)), nil
	case "lpad", "rpad":
		n := toInt(ctx, &ds[1])
		if n.unsigned || n.v < 0 || n.v > 64<<20 {
			return types.NewNullDatum(), nil
		}
		out, ok := pad(v[0], int(n.v), v[2], f.name == "lpad")
		if !ok {
			return types.NewNullDatum(), nil
		}
		return strResult(out, f.ft), nil
	case "reverse":
		if binary {
			out := make([]byte, len(v[0]))
			for i, c := range v[0] {
				out[len(out)-1-i] = c
			}
			return strResult(out, f.ft), nil
		}
		r := []rune(string(v[0]))
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return strResult([]byte(string(r)), f.ft), nil
	case "hex":
		switch ds[0].Kind() {
		case types.KindInt64, types.KindUint64:
			return strResult([]byte(strings.ToUpper(strconv.FormatUint(uint64(ds[0].GetInt64()), 16))), f.ft), nil
		case types.KindDecimal, types.KindFloat32, types.KindFloat64:
			// Numbers are rounded to a 64-bit integer first: HEX(1.5) = '2'.
			return strResult([]byte(strings.ToUpper(strconv.FormatUint(uint64(toInt(ctx, &ds[0]).v), 16))), f.ft), nil
		}
		return strResult([]byte(strings.ToUpper(hex.EncodeToString(v[0]))), f.ft), nil
	case "md5":
		s := md5.Sum(v[0])
		return strResult([]byte(hex.EncodeToString(s[:])), f.ft), nil
	case "sha1":
		s := sha1.Sum(v[0])
		return strResult([]byte(hex.EncodeToString(s[:])), f.ft), nil
	case "ascii":
		if len(v[0]) == 0 {
			return types.NewIntDatum(0), nil
		}
		return types.NewIntDatum(int64(v[0][0])), nil
	case "space":
		n := toInt(ctx, &ds[0])
		if n.unsigned || n.v > 64<<20 {
			return types.NewNullDatum(), nil
		}
		return strResult(bytes.Repeat([]byte(" "), int(max(n.v, 0))), f.ft), nil
	}
	return types.NewNullDatum(), nil
}

// locate returns the 1-based character position of needle in hay at or
// after start, 0 when absent.
func (f *strFunc) locate(hay, needle []byte, start int64) int64 {
	if start < 1 {
		return 0
	}
	binary := f.ft.IsBinaryString()
	h, nd := string(hay), string(needle)
	if f.ci && !binary {
		h, nd = foldString(h), foldString(nd)
	}
	if binary {
		if start-1 > int64(len(h)) {
			return 0
		}
		i := strings.Index(h[start-1:], nd)
		if i < 0 {
			return 0
		}
		return int64(i) + start
	}
	off := 0
	for c := int64(1); c < start; c++ {
		if off >= len(h) {
			return 0
		}
		_, n := utf8.DecodeRuneInString(h[off:])
		off += n
	}
	i := strings.Index(h[off:], nd)
	if i < 0 {
		return 0
	}
	return start + int64(utf8.RuneCountInString(h[off:off+i]))
}

// foldString maps a string to its case-insensitive form, rune by rune
// (keeping the rune count, so positions stay valid).
func foldString(s string) string {
	return strings.Map(foldRune, s)
}

// pad pads or cuts s to n characters with padStr on the left or right;
// ok false (NULL, as in MySQL) when padding is needed and padStr is empty.
func pad(s []byte, n int, padStr []byte, left bool) ([]byte, bool) {
	r := []rune(string(s))
	if n <= len(r) {
		return []byte(string(r[:n])), true
	}
	p := []rune(string(padStr))
	if len(p) == 0 {
		return nil, false
	}
	fill := make([]rune, 0, n-len(r))
	for len(fill) < n-len(r) {
		fill = append(fill, p[len(fill)%len(p)])
	}
	if left {
		return []byte(string(fill) + string(r)), true
	}
	return []byte(string(r) + string(fill)), true
}
