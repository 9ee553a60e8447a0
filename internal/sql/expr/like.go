package expr

import (
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// likeFunc is expr LIKE pattern [ESCAPE c]: '%' matches any run of
// characters, '_' one character, the escape character makes the next one
// literal. Characters compare by the derived collation: case-insensitively
// under *_ci collations, byte-wise (one byte per '_') for binary strings.
// Trailing spaces count (LIKE does not pad). A constant pattern is compiled
// once.
type likeFunc struct {
	escape rune
	coll   collator
	fixed  []patElem // compiled constant pattern, nil if not constant
}

type patKind byte

const (
	patLit patKind = iota
	patOne
	patAny
)

type patElem struct {
	kind patKind
	r    rune
}

func (f *likeFunc) compile(p []byte) []patElem {
	out := make([]patElem, 0, len(p))
	for i := 0; i < len(p); {
		r, n := f.next(p[i:])
		i += n
		switch {
		case r == f.escape && i < len(p):
			r2, n2 := f.next(p[i:])
			i += n2
			out = append(out, patElem{kind: patLit, r: f.fold(r2)})
		case r == '%':
			if len(out) == 0 || out[len(out)-1].kind != patAny {
				out = append(out, patElem{kind: patAny})
			}
		case r == '_':
			out = append(out, patElem{kind: patOne})
		default:
			out = append(out, patElem{kind: patLit, r: f.fold(r)})
		}
	}
	return out
}

func (f *likeFunc) next(b []byte) (rune, int) {
	if f.coll.binary {
		return rune(b[0]), 1
	}
	return decodeRune(b)
}

func (f *likeFunc) fold(r rune) rune {
	if f.coll.ci {
		return foldRune(r)
	}
	return r
}

func (f *likeFunc) match(s []byte, p []patElem) bool {
	pi, si := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch e := p[pi]; e.kind {
			case patAny:
				starP, starS = pi, si
				pi++
				continue
			case patOne:
				_, n := f.next(s[si:])
				si += n
				pi++
				continue
			default:
				r, n := f.next(s[si:])
				if f.fold(r) == e.r {
					si += n
					pi++
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		_, n := f.next(s[starS:])
		starS += n
		si, pi = starS, starP+1
	}
	for pi < len(p) && p[pi].kind == patAny {
		pi++
	}
	return pi == len(p)
}

func (f *likeFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	a, err := args[0].Eval(ctx, row)
	if err != nil || a.IsNull() {
		return types.NewNullDatum(), err
	}
	pat := f.fixed
	if pat == nil {
		p, err := args[1].Eval(ctx, row)
		if err != nil || p.IsNull() {
			return types.NewNullDatum(), err
		}
		pat = f.compile(toBytes(&p))
	}
	return boolDatum(f.match(toBytes(&a), pat)), nil
}
