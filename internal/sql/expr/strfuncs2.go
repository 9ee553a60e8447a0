package expr

import (
	"bytes"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// trimFunc is TRIM([BOTH|LEADING|TRAILING] [remstr] FROM s), LTRIM, RTRIM:
// removes repeated occurrences of remstr (default ' ') from the chosen
// ends.
type trimFunc struct {
	leading, trailing bool
	ft                *types.FieldType
}

func (f *trimFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	rem := []byte(" ")
	if len(args) > 1 {
		r, err := args[1].Eval(ctx, row)
		if err != nil || r.IsNull() {
			return types.NewNullDatum(), err
		}
		rem = toBytes(&r)
	}
	s := toBytes(&d)
	if len(rem) > 0 {
		if f.leading {
			for bytes.HasPrefix(s, rem) {
				s = s[len(rem):]
			}
		}
		if f.trailing {
			for bytes.HasSuffix(s, rem) {
				s = s[:len(s)-len(rem)]
			}
		}
	}
	return strResult(s, f.ft), nil
}

// trimDirection reads TRIM's optional direction argument.
func trimDirection(nodes []ast.ExprNode) (leading, trailing bool, rest []ast.ExprNode) {
	if len(nodes) == 3 {
		if d, ok := nodes[2].(*ast.TrimDirectionExpr); ok {
			switch d.Direction {
			case ast.TrimLeading:
				return true, false, nodes[:2]
			case ast.TrimTrailing:
				return false, true, nodes[:2]
			}
			return true, true, nodes[:2]
		}
	}
	return true, true, nodes
}

// replaceFunc is REPLACE(s, from, to), case-sensitive as in MySQL.
type replaceFunc struct{ ft *types.FieldType }

func (f *replaceFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var v [3][]byte
	for i, a := range args {
		d, err := a.Eval(ctx, row)
		if err != nil || d.IsNull() {
			return types.NewNullDatum(), err
		}
		v[i] = toBytes(&d)
	}
	if len(v[1]) == 0 {
		return strResult(v[0], f.ft), nil
	}
	return strResult(bytes.ReplaceAll(v[0], v[1], v[2]), f.ft), nil
}

// leftRightFunc is LEFT(s, n) and RIGHT(s, n) in characters.
type leftRightFunc struct {
	right bool
	ft    *types.FieldType
}

func (f *leftRightFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	nd, err := args[1].Eval(ctx, row)
	if err != nil || nd.IsNull() {
		return types.NewNullDatum(), err
	}
	s := toBytes(&d)
	n := toInt(ctx, &nd)
	if !n.unsigned && n.v <= 0 {
		return strResult([]byte{}, f.ft), nil
	}
	binary := f.ft.IsBinaryString()
	total := int64(len(s))
	if !binary {
		total = int64(len([]rune(string(s))))
	}
	if n.unsigned || n.v >= total {
		return strResult(s, f.ft), nil
	}
	from, to := int64(0), n.v
	if f.right {
		from, to = total-n.v, total
	}
	if binary {
		return types.NewBytesDatum(s[from:to]), nil
	}
	return types.NewStringDatumBytes(runeSlice(s, int(from), int(to))), nil
}

// repeatFunc is REPEAT(s, n); a result beyond max_allowed_packet's
// default (64 MiB) is NULL, as MySQL returns with a warning.
type repeatFunc struct{ ft *types.FieldType }

func (f *repeatFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	d, err := args[0].Eval(ctx, row)
	if err != nil || d.IsNull() {
		return types.NewNullDatum(), err
	}
	nd, err := args[1].Eval(ctx, row)
	if err != nil || nd.IsNull() {
		return types.NewNullDatum(), err
	}
	s := toBytes(&d)
	n := toInt(ctx, &nd)
	if !n.unsigned && n.v <= 0 || len(s) == 0 {
		return strResult([]byte{}, f.ft), nil
	}
	if n.unsigned || n.v > (64<<20)/int64(len(s)) {
		return types.NewNullDatum(), nil
	}
	return strResult([]byte(strings.Repeat(string(s), int(n.v))), f.ft), nil
}
