package expr

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// Build turns an AST expression into an Expression over rows of schema,
// with MySQL's types, folding deterministic functions of constants.
// Errors are *sqlerr.Error: 1054/1052 from the schema, 1305 for an unknown
// function, 1582 for a wrong argument count, 1235 for what Strata does not
// support here (subqueries and aggregates belong to the planner, through
// NodeResolver).
//
// A nil ctx is an empty SimpleContext (no parameters or variables), for
// callers such as DDL that build expressions outside a statement; a nil
// schema has no columns.
func Build(ctx BuildContext, node ast.ExprNode, schema Schema) (Expression, error) {
	if ctx == nil {
		ctx = &SimpleContext{}
	}
	b := &builder{ctx: ctx, schema: schema}
	b.resolver, _ = schema.(NodeResolver)
	return b.build(node)
}

type builder struct {
	ctx      BuildContext
	schema   Schema
	resolver NodeResolver
}

func notSupported(what string) error {
	return sqlerr.New(sqlerr.ErrNotSupportedYet, what)
}

func (b *builder) build(node ast.ExprNode) (Expression, error) {
	if b.resolver != nil {
		e, ok, err := b.resolver.ResolveNode(node)
		if err != nil || ok {
			return e, err
		}
	}
	switch n := node.(type) {
	case *ParamMarkerExpr:
		return NewParam(b.ctx, n.Order), nil
	case *ValueExpr:
		return literal(n), nil
	case *ast.ColumnNameExpr:
		return b.column(n.Name)
	case *ast.ParenthesesExpr:
		return b.build(n.Expr)
	case *ast.UnaryOperationExpr:
		return b.unary(n)
	case *ast.BinaryOperationExpr:
		return b.binary(n)
	case *ast.IsNullExpr:
		a, err := b.build(n.Expr)
		if err != nil {
			return nil, err
		}
		return b.maybeNot(n.Not, b.newFunc(FnIsNull, []Expression{a}, boolType(), &isFunc{op: FnIsNull}))
	case *ast.IsTruthExpr:
		a, err := b.build(n.Expr)
		if err != nil {
			return nil, err
		}
		op := FnIsFalse
		if n.True != 0 {
			op = FnIsTrue
		}
		return b.maybeNot(n.Not, b.newFunc(op, []Expression{a}, boolType(), &isFunc{op: op}))
	case *ast.PatternInExpr:
		return b.in(n)
	case *ast.BetweenExpr:
		return b.between(n)
	case *ast.PatternLikeOrIlikeExpr:
		return b.like(n)
	case *ast.PatternRegexpExpr:
		return b.regexp(n)
	case *ast.CaseExpr:
		return b.caseExpr(n)
	case *ast.FuncCallExpr:
		return b.funcCall(n)
	case *ast.FuncCastExpr:
		a, err := b.build(n.Expr)
		if err != nil {
			return nil, err
		}
		ft := castType(types.FromParser(n.Tp))
		if ft.EvalType() != types.ETString {
			a = numArg(a)
		}
		f := &castFunc{ft: ft, limit: ft.Flen}
		if ft.EvalType() == types.ETString && n.Tp.GetFlen() == types.UnspecifiedLength {
			// CAST(x AS CHAR) without a length keeps all of x.
			f.limit = -1
			ft.Flen = max(a.Type().Flen, 1)
			if ft.Tp == mysql.TypeJSON {
				ft.Flen = types.NewFieldType(mysql.TypeJSON).Flen
			}
		}
		return b.newFunc(FnCast, []Expression{a}, ft, f), nil
	case *ast.VariableExpr:
		return b.variable(n)
	case *ast.SetCollationExpr:
		a, err := b.build(n.Expr)
		if err != nil {
			return nil, err
		}
		ft := a.Type().Clone()
		if ft.EvalType() != types.ETString {
			ft = stringType(n.Collate, false, ft.Flen)
		}
		ft.Collate = strings.ToLower(n.Collate)
		ft.Charset = charsetOfCollation(ft.Collate)
		return b.newFunc(FnCollate, []Expression{a}, ft, passFunc{}), nil
	case *ast.SubqueryExpr, *ast.ExistsSubqueryExpr, *ast.CompareSubqueryExpr:
		return nil, notSupported("subqueries in this context")
	case *ast.AggregateFuncExpr:
		return nil, sqlerr.New(mysql.ErrInvalidGroupFuncUse)
	case *ast.DefaultExpr:
		return nil, notSupported("DEFAULT in this context")
	case *ast.RowExpr:
		return nil, notSupported("row constructors")
	}
	return nil, notSupported(fmt.Sprintf("expression %T", node))
}

// literal makes the Constant of a parser literal: its datum, and a type
// with the literal's charset and collation for strings.
func literal(n *ValueExpr) *Constant {
	d := n.Datum
	c := NewConstant(d, nil)
	switch d.Kind() {
	case types.KindString:
		if cs, coll := n.Type.GetCharset(), n.Type.GetCollate(); coll != "" {
			c.Ft.Charset, c.Ft.Collate = cs, coll
			if coll == "binary" {
				c.Value = types.NewBytesDatum(d.GetBytes())
				c.Ft.Flag |= mysql.BinaryFlag
			}
		}
	case types.KindBytes:
		c.binLit = n.Lit != LitPlain
	case types.KindInt64:
		if n.Type.GetFlag()&mysql.IsBooleanFlag != 0 {
			c.Ft.Flen = 1
		}
	}
	return c
}

func (b *builder) column(name *ast.ColumnName) (Expression, error) {
	if b.schema == nil {
		return nil, ErrUnknownColumn(name.Name.O, "field list")
	}
	idx, ft, err := b.schema.Resolve(name.Schema.O, name.Table.O, name.Name.O)
	if err != nil {
		return nil, err
	}
	return &Column{Index: idx, Name: name.Name.O, Ft: ft}, nil
}

// newFunc makes a ScalarFunction and folds it when it is deterministic and
// all its arguments are (non-parameter) constants.
func (b *builder) newFunc(name string, args []Expression, ft *types.FieldType, fn builtin) Expression {
	sf := &ScalarFunction{Name: name, Args: args, Ft: ft, fn: fn}
	if !foldable(name, fn) {
		return sf
	}
	for _, a := range args {
		c, ok := a.(*Constant)
		if !ok || c.IsParam() {
			return sf
		}
	}
	fc := foldCtx{EvalContext: b.ctx}
	d, err := sf.Eval(&fc, chunk.Row{})
	if err != nil || fc.failsStrictDML() {
		// Leave the error to evaluation: a branch not taken never raises
		// it, and a strict data-changing statement fails at every
		// execution, of a cached plan too.
		return sf
	}
	for _, w := range fc.warnings {
		b.ctx.AppendWarning(w)
	}
	return &Constant{Value: d.Clone(), Ft: ft, ParamIndex: -1}
}

// StrictDMLContext is implemented by the context of a statement that
// Build may learn is data-changing under a strict sql_mode without IGNORE
// (StrictContext): a call whose fold raises a warning that such a
// statement fails with is then left to evaluation.
type StrictDMLContext interface {
	StrictDML() bool
}

// foldCtx is the context of a fold: it keeps the warnings, which reach
// the statement only if the call is folded.
type foldCtx struct {
	EvalContext
	warnings []error
}

// AppendWarning implements EvalContext.
func (c *foldCtx) AppendWarning(err error) { c.warnings = append(c.warnings, err) }

// failsStrictDML reports whether a kept warning is the error of a strict
// data-changing statement.
func (c *foldCtx) failsStrictDML() bool {
	s, ok := c.EvalContext.(StrictDMLContext)
	if !ok || len(c.warnings) == 0 || !s.StrictDML() {
		return false
	}
	sc := StrictContext{EvalContext: c.EvalContext}
	for _, w := range c.warnings {
		if sc.promotes(w) {
			return true
		}
	}
	return false
}

// volatileFn is implemented by the builtins whose value depends on more
// than their arguments (the clock, the session, a random generator): they
// are never folded, since a cached plan runs in later statements.
type volatileFn interface{ volatile() bool }

// foldable reports whether a call of fn can be folded into a constant when
// its arguments are constants: unless fn is volatile (COLLATE is kept too:
// its explicit coercibility matters to the parent).
func foldable(name string, fn builtin) bool {
	if name == FnCollate {
		return false
	}
	v, ok := fn.(volatileFn)
	return !ok || !v.volatile()
}

// constValue returns the value of e when it is known at build time: a
// non-NULL constant that is not a parameter.
func constValue(e Expression) (*types.Datum, bool) {
	if c, ok := e.(*Constant); ok && !c.IsParam() && !c.Value.IsNull() {
		return &c.Value, true
	}
	return nil, false
}

// constDecimals is the number of decimals ROUND and TRUNCATE keep for a
// decimal argument: a constant d clamped to 0..30, else dflt.
func constDecimals(e Expression, dflt int) int {
	if v, ok := constValue(e); ok {
		return max(min(int(toInt(nil, v).v), types.MaxDecimalScale), 0)
	}
	return dflt
}

func (b *builder) maybeNot(not bool, e Expression) (Expression, error) {
	if !not {
		return e, nil
	}
	return b.newFunc(FnNot, []Expression{e}, boolType(), notFunc{}), nil
}

func (b *builder) buildArgs(nodes []ast.ExprNode) ([]Expression, error) {
	out := make([]Expression, len(nodes))
	for i, n := range nodes {
		e, err := b.build(n)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// numArg turns a hex or bit literal into the unsigned integer it is in
// numeric context (x'41' + 0 = 65).
func numArg(e Expression) Expression {
	c, ok := e.(*Constant)
	if !ok || !c.binLit {
		return e
	}
	var v uint64
	bs := c.Value.GetBytes()
	if len(bs) > 8 {
		v = 1<<64 - 1
	} else {
		for _, x := range bs {
			v = v<<8 | uint64(x)
		}
	}
	return NewConstant(types.NewUintDatum(v), intType(true))
}

func (b *builder) unary(n *ast.UnaryOperationExpr) (Expression, error) {
	a, err := b.build(n.V)
	if err != nil {
		return nil, err
	}
	switch n.Op {
	case opcode.Plus:
		return a, nil
	case opcode.Minus:
		a = numArg(a)
		if c, ok := a.(*Constant); ok && !c.IsParam() && c.Value.Kind() == types.KindUint64 {
			// -9223372036854775808 is a BIGINT literal; beyond it, a
			// decimal.
			v := c.Value.GetUint64()
			if v <= 1<<63 {
				return NewConstant(types.NewIntDatum(int64(-v)), nil), nil
			}
			d := types.NewDecFromUint(v)
			d.Negative = true
			return NewConstant(types.NewDecimalDatum(d), nil), nil
		}
		cls := numClass(a.Type())
		var ft *types.FieldType
		switch cls {
		case types.ETInt:
			ft = intType(false)
		case types.ETReal:
			ft = doubleType()
		default:
			ft = decimalType(a.Type().Flen+1, decScale(a.Type()))
		}
		return b.newFunc(FnUnaryMinus, []Expression{a}, ft, &unaryMinus{cls: cls}), nil
	case opcode.Not, opcode.Not2:
		return b.newFunc(FnNot, []Expression{a}, boolType(), notFunc{}), nil
	case opcode.BitNeg:
		return b.newFunc(FnBitNeg, []Expression{numArg(a)}, intType(true), &bitFunc{op: FnBitNeg}), nil
	}
	return nil, notSupported("operator " + n.Op.String())
}

var binaryOps = map[opcode.Op]string{
	opcode.Plus: FnPlus, opcode.Minus: FnMinus, opcode.Mul: FnMul, opcode.Div: FnDiv,
	opcode.IntDiv: FnIntDiv, opcode.Mod: FnMod,
	opcode.EQ: FnEQ, opcode.NE: FnNE, opcode.LT: FnLT, opcode.LE: FnLE, opcode.GT: FnGT,
	opcode.GE: FnGE, opcode.NullEQ: FnNullEQ,
	opcode.LogicAnd: FnAnd, opcode.LogicOr: FnOr, opcode.LogicXor: FnXor,
	opcode.And: FnBitAnd, opcode.Or: FnBitOr, opcode.Xor: FnBitXor,
	opcode.LeftShift: FnLeftShift, opcode.RightShift: FnRightShift,
}

func (b *builder) binary(n *ast.BinaryOperationExpr) (Expression, error) {
	name, ok := binaryOps[n.Op]
	if !ok {
		return nil, notSupported("operator " + n.Op.String())
	}
	l, err := b.build(n.L)
	if err != nil {
		return nil, err
	}
	r, err := b.build(n.R)
	if err != nil {
		return nil, err
	}
	return b.binaryFunc(name, l, r)
}

// binaryFunc builds a two-argument operator by name.
func (b *builder) binaryFunc(name string, l, r Expression) (Expression, error) {
	switch name {
	case FnPlus, FnMinus, FnMul, FnDiv, FnIntDiv, FnMod:
		l, r = numArg(l), numArg(r)
		f := newArith(b.ctx, name, l, r)
		return b.newFunc(name, []Expression{l, r}, f.ft, f), nil
	case FnEQ, FnNE, FnLT, FnLE, FnGT, FnGE, FnNullEQ:
		l, r = cmpArgs(l, r)
		return b.newFunc(name, []Expression{l, r}, boolType(), &compareFunc{op: name, code: opCodes[name], c: newComparator(l, r)}), nil
	case FnAnd, FnOr, FnXor:
		return b.newFunc(name, []Expression{l, r}, boolType(), &logicFunc{op: name}), nil
	}
	return b.newFunc(name, []Expression{numArg(l), numArg(r)}, intType(true), &bitFunc{op: name}), nil
}

// cmpArgs turns hex/bit literals compared with a non-string into numbers.
func cmpArgs(l, r Expression) (Expression, Expression) {
	if r.Type().EvalType() != types.ETString {
		l = numArg(l)
	}
	if l.Type().EvalType() != types.ETString {
		r = numArg(r)
	}
	return l, r
}

func (b *builder) in(n *ast.PatternInExpr) (Expression, error) {
	if n.Sel != nil {
		return nil, notSupported("IN (subquery) in this context")
	}
	a, err := b.build(n.Expr)
	if err != nil {
		return nil, err
	}
	list, err := b.buildArgs(n.List)
	if err != nil {
		return nil, err
	}
	f := &inFunc{cmps: make([]comparator, len(list))}
	args := make([]Expression, 0, len(list)+1)
	args = append(args, a)
	for i, e := range list {
		_, e = cmpArgs(a, e)
		f.cmps[i] = newComparator(a, e)
		args = append(args, e)
	}
	return b.maybeNot(n.Not, b.newFunc(FnIn, args, boolType(), f))
}

func (b *builder) between(n *ast.BetweenExpr) (Expression, error) {
	args, err := b.buildArgs([]ast.ExprNode{n.Expr, n.Left, n.Right})
	if err != nil {
		return nil, err
	}
	_, args[1] = cmpArgs(args[0], args[1])
	_, args[2] = cmpArgs(args[0], args[2])
	f := &betweenFunc{lo: newComparator(args[0], args[1]), hi: newComparator(args[0], args[2])}
	return b.maybeNot(n.Not, b.newFunc(FnBetween, args, boolType(), f))
}

func (b *builder) like(n *ast.PatternLikeOrIlikeExpr) (Expression, error) {
	args, err := b.buildArgs([]ast.ExprNode{n.Expr, n.Pattern})
	if err != nil {
		return nil, err
	}
	coll, _ := deriveCollation(args)
	f := &likeFunc{escape: rune(n.Escape), coll: getCollator(coll)}
	if !n.IsLike { // ILIKE
		f.coll = collator{ci: true}
	}
	switch {
	case n.Escape == 0 && n.EscapeExplicit:
		f.escape = -1 // ESCAPE '': no escape character
	case n.Escape == 0:
		f.escape = '\\'
	}
	if v, ok := constValue(args[1]); ok {
		f.fixed = f.compile(toBytes(v))
	}
	return b.maybeNot(n.Not, b.newFunc(FnLike, args, boolType(), f))
}

func (b *builder) regexp(n *ast.PatternRegexpExpr) (Expression, error) {
	args, err := b.buildArgs([]ast.ExprNode{n.Expr, n.Pattern})
	if err != nil {
		return nil, err
	}
	coll, bin := deriveCollation(args)
	f := &regexpFunc{ci: !bin && getCollator(coll).ci}
	if v, ok := constValue(args[1]); ok {
		if f.fixed, err = compileRegexp(string(toBytes(v)), f.ci); err != nil {
			return nil, err
		}
	}
	return b.maybeNot(n.Not, b.newFunc(FnRegexp, args, boolType(), f))
}

func (b *builder) caseExpr(n *ast.CaseExpr) (Expression, error) {
	f := &caseFunc{}
	var args, results []Expression
	var value Expression
	if n.Value != nil {
		v, err := b.build(n.Value)
		if err != nil {
			return nil, err
		}
		value = v
		f.hasValue = true
		args = append(args, v)
	}
	for _, w := range n.WhenClauses {
		we, err := b.build(w.Expr)
		if err != nil {
			return nil, err
		}
		re, err := b.build(w.Result)
		if err != nil {
			return nil, err
		}
		if value != nil {
			_, we = cmpArgs(value, we)
			f.cmps = append(f.cmps, newComparator(value, we))
		}
		args = append(args, we, re)
		results = append(results, re)
	}
	if n.ElseClause != nil {
		e, err := b.build(n.ElseClause)
		if err != nil {
			return nil, err
		}
		f.hasElse = true
		args = append(args, e)
		results = append(results, e)
	}
	f.ft = mergeTypes(results)
	return b.newFunc(FnCase, args, f.ft, f), nil
}

func (b *builder) variable(n *ast.VariableExpr) (Expression, error) {
	if n.Value != nil {
		return nil, notSupported("assignment to a variable in an expression")
	}
	name := strings.ToLower(n.Name)
	if n.IsSystem {
		v, err := b.ctx.GetSysVar(name, n.IsGlobal)
		if err != nil {
			return nil, err
		}
		ft := sysVarType(v)
		return b.newFunc(FnSysVar, nil, ft, &sysVarFunc{name: name, global: n.IsGlobal, ft: ft}), nil
	}
	d, _ := b.ctx.GetUserVar(name)
	ft := types.FieldTypeOfDatum(&d)
	return b.newFunc(FnGetVar, nil, ft, &userVarFunc{name: name, ft: ft}), nil
}
