package expr

import (
	"cmp"
	"math"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// Row states of IntVec.Eval.
const (
	VecValue uint8 = iota // the row has a value
	VecNull               // the row is NULL
	VecSlow               // Eval must decide the row (an error or a warning is due)
)

// IntVec is a signed integer expression compiled to run a chunk at a
// time: signed integer columns, integer literals and parameters, and
// + - * DIV % between them (the shapes fastInt and arithFunc's signed
// fast path take). A row on which Eval would raise an error or a warning
// (an overflow, a zero divisor) is marked slow, for the caller to send
// through Eval; every other row gets exactly Eval's value. An IntVec
// holds scratch buffers: one per executor, used by one goroutine.
type IntVec struct {
	root intNode
}

// CompileInt returns e compiled for whole chunks, or nil when e is not
// one of the shapes IntVec runs.
func CompileInt(e Expression) *IntVec {
	n := compileInt(e)
	if n == nil {
		return nil
	}
	if _, ok := n.(*intCol); ok {
		return nil // a plain column gains nothing
	}
	return &IntVec{root: n}
}

// Eval evaluates the expression on rows sel of chk. vals and states are
// indexed by row (sized chk.NumRows()): states[r] is VecValue, VecNull or
// VecSlow. ok is false when the chunk must go through Eval row by row (a
// parameter's value is not an integer now). The slices are the IntVec's
// and are overwritten by the next call.
func (v *IntVec) Eval(ctx EvalContext, chk *chunk.Chunk, sel []int) (vals []int64, states []uint8, ok bool) {
	b := v.root.fill(ctx, chk, sel)
	if b == nil {
		return nil, nil, false
	}
	return b.vals, b.states, true
}

// intBuf is one node's output, indexed by row.
type intBuf struct {
	vals   []int64
	states []uint8
}

func (b *intBuf) size(n int) {
	if cap(b.vals) < n {
		b.vals = make([]int64, n)
		b.states = make([]uint8, n)
	}
	b.vals, b.states = b.vals[:n], b.states[:n]
}

// intNode is one node of a compiled integer expression. fill computes
// rows sel of chk and returns its buffer, or nil when the chunk must be
// evaluated row by row.
type intNode interface {
	fill(ctx EvalContext, chk *chunk.Chunk, sel []int) *intBuf
}

func compileInt(e Expression) intNode {
	switch x := e.(type) {
	case *Column:
		if x.Ft.EvalType() != types.ETInt || x.Ft.IsUnsigned() {
			return nil
		}
		return &intCol{idx: x.Index}
	case *Constant:
		if x.ParamIndex >= 0 {
			return &intConst{param: x.ParamIndex}
		}
		switch x.Value.Kind() {
		case types.KindInt64:
			return &intConst{param: -1, v: x.Value.GetInt64()}
		case types.KindNull:
			return &intConst{param: -1, null: true}
		}
	case *ScalarFunction:
		f, ok := x.fn.(*arithFunc)
		if !ok || f.cls != types.ETInt || f.unsigned || len(x.Args) != 2 {
			return nil
		}
		switch f.code {
		case opPlus, opMinus, opMul, opIntDiv, opMod:
		default:
			return nil
		}
		a, b := compileInt(x.Args[0]), compileInt(x.Args[1])
		if a == nil || b == nil {
			return nil
		}
		return &intArith{code: f.code, a: a, b: b}
	}
	return nil
}

type intCol struct {
	idx int
	buf intBuf
}

func (n *intCol) fill(_ EvalContext, chk *chunk.Chunk, sel []int) *intBuf {
	c := chk.Column(n.idx)
	n.buf.size(chk.NumRows())
	nulls := c.NullCount() > 0
	for _, r := range sel {
		if nulls && c.IsNull(r) {
			n.buf.states[r] = VecNull
			continue
		}
		n.buf.vals[r], n.buf.states[r] = c.GetInt64(r), VecValue
	}
	return &n.buf
}

// intConst is a literal, or a parameter (param >= 0) read once per chunk.
type intConst struct {
	param int
	v     int64
	null  bool
	buf   intBuf
}

func (n *intConst) fill(ctx EvalContext, chk *chunk.Chunk, sel []int) *intBuf {
	v, null := n.v, n.null
	if n.param >= 0 {
		d := ctx.Param(n.param)
		switch d.Kind() {
		case types.KindInt64:
			v, null = d.GetInt64(), false
		case types.KindNull:
			null = true
		default:
			return nil
		}
	}
	n.buf.size(chk.NumRows())
	st := VecValue
	if null {
		st = VecNull
	}
	for _, r := range sel {
		n.buf.vals[r], n.buf.states[r] = v, st
	}
	return &n.buf
}

// intArith is arithFunc's signed fast path (evalInt) over a chunk; what
// it would turn into an error or a warning is left slow.
type intArith struct {
	code opCode
	a, b intNode
	buf  intBuf
}

func (n *intArith) fill(ctx EvalContext, chk *chunk.Chunk, sel []int) *intBuf {
	ba := n.a.fill(ctx, chk, sel)
	if ba == nil {
		return nil
	}
	bb := n.b.fill(ctx, chk, sel)
	if bb == nil {
		return nil
	}
	n.buf.size(chk.NumRows())
	out := &n.buf
	for _, r := range sel {
		sa, sb := ba.states[r], bb.states[r]
		if sa != VecValue || sb != VecValue {
			// Eval: a NULL operand gives NULL; an operand it must decide
			// (slow) may raise first.
			out.states[r] = max(sa, sb)
			continue
		}
		x, y := ba.vals[r], bb.vals[r]
		var v int64
		st := VecValue
		switch n.code {
		case opPlus:
			v = x + y
			if (x >= 0) == (y >= 0) && (v >= 0) != (x >= 0) {
				st = VecSlow
			}
		case opMinus:
			v = x - y
			if (x >= 0) != (y >= 0) && (v >= 0) != (x >= 0) {
				st = VecSlow
			}
		case opMul:
			if x != 0 && y != 0 {
				v = x * y
				if v/y != x || (x == -1 && y == math.MinInt64) || (y == -1 && x == math.MinInt64) {
					st = VecSlow
				}
			}
		case opIntDiv:
			if y == 0 || (x == math.MinInt64 && y == -1) {
				st = VecSlow
			} else {
				v = x / y
			}
		case opMod:
			switch y {
			case 0:
				st = VecSlow
			case -1:
				v = 0
			default:
				v = x % y
			}
		}
		out.vals[r], out.states[r] = v, st
	}
	return out
}

// IntFilter is a comparison of two signed integer expressions (= <> < <=
// > >=, or BETWEEN) compiled to filter a chunk at a time.
type IntFilter struct {
	e    Expression
	code opCode
	args []intNode // two, or three for BETWEEN (x, lo, hi)
}

// CompileIntFilter returns condition e compiled for whole chunks, or nil
// when e is not a comparison IntFilter runs.
func CompileIntFilter(e Expression) *IntFilter {
	f, ok := e.(*ScalarFunction)
	if !ok {
		return nil
	}
	var code opCode
	switch fn := f.fn.(type) {
	case *compareFunc:
		if fn.c.cls != cmpInt || fn.code == opNullEQ || len(f.Args) != 2 {
			return nil
		}
		code = fn.code
	case *betweenFunc:
		if fn.lo.cls != cmpInt || fn.hi.cls != cmpInt || len(f.Args) != 3 {
			return nil
		}
		code = opBetween
	default:
		return nil
	}
	args := make([]intNode, len(f.Args))
	for i, a := range f.Args {
		if args[i] = compileInt(a); args[i] == nil {
			return nil
		}
	}
	return &IntFilter{e: e, code: code, args: args}
}

// opBetween marks an IntFilter for BETWEEN (not a builtin's op code).
const opBetween opCode = 255

// Keep narrows sel (rows of chk, ascending) to the rows on which the
// condition is TRUE, reusing sel's memory. Rows Eval must decide are
// evaluated with Eval, in row order, so an error is the one Eval would
// raise on the first such row.
func (f *IntFilter) Keep(ctx EvalContext, chk *chunk.Chunk, sel []int) ([]int, error) {
	bufs := [3]*intBuf{}
	for i, a := range f.args {
		if bufs[i] = a.fill(ctx, chk, sel); bufs[i] == nil {
			return keepByEval(ctx, f.e, chk, sel)
		}
	}
	out := sel[:0]
	for _, r := range sel {
		st := bufs[0].states[r]
		for _, b := range bufs[1:len(f.args)] {
			st = max(st, b.states[r])
		}
		var keep bool
		switch st {
		case VecSlow:
			ok, err := evalTrue(ctx, f.e, chk.GetRow(r))
			if err != nil {
				return nil, err
			}
			keep = ok
		case VecValue:
			x, y := bufs[0].vals[r], bufs[1].vals[r]
			if f.code == opBetween {
				keep = x >= y && x <= bufs[2].vals[r]
			} else {
				keep = cmpResult(f.code, cmp.Compare(x, y))
			}
		}
		if keep {
			out = append(out, r)
		}
	}
	return out, nil
}

// keepByEval is Keep through Eval, row by row.
func keepByEval(ctx EvalContext, e Expression, chk *chunk.Chunk, sel []int) ([]int, error) {
	out := sel[:0]
	for _, r := range sel {
		ok, err := evalTrue(ctx, e, chk.GetRow(r))
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// evalTrue reports whether e is TRUE on row.
func evalTrue(ctx EvalContext, e Expression, row chunk.Row) (bool, error) {
	d, err := e.Eval(ctx, row)
	if err != nil {
		return false, err
	}
	v, ok := d.ToBool()
	return ok && v, nil
}

// ChunkFilter is a conjunction of conditions applied a chunk at a time:
// those IntFilter runs are vectorized, the others go through Eval row by
// row. Each condition sees only the rows the ones before it kept, so the
// rows a condition is evaluated on, and the warnings it can raise, are
// those of a row-by-row AND.
type ChunkFilter struct {
	conds []Expression
	vecs  []*IntFilter // nil where a condition is not vectorized
}

// NewChunkFilter returns the filter for conds, or nil when none of them
// is vectorized (a row loop is then as fast).
func NewChunkFilter(conds []Expression) *ChunkFilter {
	f := &ChunkFilter{conds: conds, vecs: make([]*IntFilter, len(conds))}
	any := false
	for i, c := range conds {
		f.vecs[i] = CompileIntFilter(c)
		any = any || f.vecs[i] != nil
	}
	if !any {
		return nil
	}
	return f
}

// Keep narrows sel (rows of chk, ascending) to the rows on which every
// condition is TRUE, reusing sel's memory.
func (f *ChunkFilter) Keep(ctx EvalContext, chk *chunk.Chunk, sel []int) ([]int, error) {
	var err error
	for i, c := range f.conds {
		if len(sel) == 0 {
			break
		}
		if v := f.vecs[i]; v != nil {
			sel, err = v.Keep(ctx, chk, sel)
		} else {
			sel, err = keepByEval(ctx, c, chk, sel)
		}
		if err != nil {
			return nil, err
		}
	}
	return sel, nil
}
