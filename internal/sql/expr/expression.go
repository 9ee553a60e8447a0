package expr

import (
	"fmt"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"strings"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// Expression is a scalar expression over the rows of a chunk.
//
// Eval returns a datum of the expression's evaluation class
// (Type().EvalType()): Int64 or Uint64 (by the UNSIGNED flag) for ETInt,
// Float64 (Float32 for FLOAT) for ETReal, Decimal, String or Bytes (by the
// charset), Time, Duration; or NULL. String, Bytes and Decimal results may
// alias the row's chunk: Clone them to keep them past the chunk's Reset.
//
// Signed integer expressions and comparisons also compile to forms that
// run a chunk at a time (CompileInt, CompileIntFilter in vec_int.go);
// VecEval over a whole chunk into a column is an optional interface an
// Expression may also implement, with Eval per row as the fallback.
type Expression interface {
	// Eval evaluates the expression on one row.
	Eval(ctx EvalContext, row chunk.Row) (types.Datum, error)
	// Type returns the result type.
	Type() *types.FieldType
	// String renders the expression (for EXPLAIN and error messages).
	String() string
}

// Column reads column Index of the input row.
type Column struct {
	// Index is the column's position in the input chunk.
	Index int
	// Name is the column's name for display.
	Name string
	// Ft is the column's type.
	Ft *types.FieldType
}

// Eval implements Expression.
func (c *Column) Eval(_ EvalContext, row chunk.Row) (types.Datum, error) {
	return row.GetDatum(c.Index, c.Ft), nil
}

// Type implements Expression.
func (c *Column) Type() *types.FieldType { return c.Ft }

// String implements Expression.
func (c *Column) String() string {
	if c.Name != "" {
		return c.Name
	}
	return fmt.Sprintf("#%d", c.Index)
}

// Constant is a value: a literal, a folded expression, or a '?' of a
// prepared statement (ParamIndex >= 0) whose value is read from the
// EvalContext at each evaluation.
type Constant struct {
	// Value is the constant's value (unused for parameters).
	Value types.Datum
	// Ft is the value's type. For a parameter it is the type of the value
	// it had when the expression was built: a plan that keeps a
	// param-backed constant is valid only for parameters of the same kinds.
	Ft *types.FieldType
	// ParamIndex is the 0-based parameter number, or -1.
	ParamIndex int
	// binLit marks hex and bit literals, unsigned integers in numeric
	// context.
	binLit bool
}

// NewConstant returns a constant of value d with type ft (nil: the type of
// the datum).
func NewConstant(d types.Datum, ft *types.FieldType) *Constant {
	if ft == nil {
		ft = types.FieldTypeOfDatum(&d)
	}
	return &Constant{Value: d, Ft: ft, ParamIndex: -1}
}

// NewParam returns the constant for parameter i, typed by its current value
// in ctx (nil ctx: untyped, as during PREPARE).
func NewParam(ctx EvalContext, i int) *Constant {
	var d types.Datum
	if ctx != nil {
		d = ctx.Param(i)
	}
	return &Constant{Ft: types.FieldTypeOfDatum(&d), ParamIndex: i}
}

// IsParam reports whether the constant is a '?'.
func (c *Constant) IsParam() bool { return c.ParamIndex >= 0 }

// Eval implements Expression.
func (c *Constant) Eval(ctx EvalContext, _ chunk.Row) (types.Datum, error) {
	if c.ParamIndex < 0 {
		return c.Value, nil
	}
	d := ctx.Param(c.ParamIndex)
	if d.IsNull() || c.Ft.Tp == mysql.TypeNull || kindFits(d.Kind(), c.Ft) {
		// Untyped (built without a value, as at PREPARE): the value as
		// it comes; the functions over it convert by their own types.
		return d, nil
	}
	// The parameter changed kind since the plan was built: convert it to
	// the type the plan expects.
	return convertTo(ctx, d, c.Ft)
}

// Type implements Expression.
func (c *Constant) Type() *types.FieldType { return c.Ft }

// String implements Expression.
func (c *Constant) String() string {
	if c.ParamIndex >= 0 {
		return "?"
	}
	switch c.Value.Kind() {
	case types.KindString, types.KindBytes:
		if c.binLit {
			return fmt.Sprintf("0x%x", c.Value.GetBytes())
		}
		return "'" + strings.ReplaceAll(c.Value.GetString(), "'", "''") + "'"
	}
	return c.Value.String()
}

// ScalarFunction is a function or operator applied to arguments. Name is
// the lower-case function name, with operators by their ast/opcode names:
// "eq", "ne", "lt", "le", "gt", "ge", "nulleq", "plus", "minus", "mul",
// "div", "intdiv", "mod", "and", "or", "xor", "not", "unaryminus",
// "isnull", "istrue", "isfalse", "in", "between", "like", "case", "if",
// ... ; see the Fn* constants. The planner reads Name and Args to build
// ranges (eq/in/between/lt/... with a *Column argument).
type ScalarFunction struct {
	// Name is the function's name (Fn* constants).
	Name string
	// Args are the arguments.
	Args []Expression
	// Ft is the result type.
	Ft *types.FieldType
	fn builtin
}

// builtin is one function's implementation, holding what the builder
// decided once (comparison class, collation, target type); it reads its
// arguments from the ScalarFunction so that rewriting Args keeps it valid.
type builtin interface {
	eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error)
}

// Eval implements Expression.
func (f *ScalarFunction) Eval(ctx EvalContext, row chunk.Row) (types.Datum, error) {
	return f.fn.eval(ctx, row, f.Args)
}

// Type implements Expression.
func (f *ScalarFunction) Type() *types.FieldType { return f.Ft }

// String implements Expression: name(arg, ...).
func (f *ScalarFunction) String() string {
	var sb strings.Builder
	sb.WriteString(f.Name)
	sb.WriteByte('(')
	for i, a := range f.Args {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(a.String())
	}
	sb.WriteByte(')')
	return sb.String()
}

// WithArgs returns a copy of f over new arguments of the same types (the
// planner's rewrites: column index remapping, substitution).
func (f *ScalarFunction) WithArgs(args []Expression) *ScalarFunction {
	c := *f
	c.Args = args
	return &c
}

// ExtractColumns returns the columns e reads, in order of appearance (with
// repeats).
func ExtractColumns(e Expression) []*Column {
	var out []*Column
	var walk func(Expression)
	walk = func(e Expression) {
		switch x := e.(type) {
		case *Column:
			out = append(out, x)
		case *ScalarFunction:
			for _, a := range x.Args {
				walk(a)
			}
		}
	}
	walk(e)
	return out
}

// Transform rebuilds e bottom-up: f is called on every node after its
// arguments were transformed and returns the node's replacement.
// ScalarFunctions whose arguments changed are copied, never mutated.
func Transform(e Expression, f func(Expression) (Expression, error)) (Expression, error) {
	if sf, ok := e.(*ScalarFunction); ok {
		var args []Expression
		for i, a := range sf.Args {
			na, err := Transform(a, f)
			if err != nil {
				return nil, err
			}
			if na != a && args == nil {
				args = append(make([]Expression, 0, len(sf.Args)), sf.Args[:i]...)
			}
			if args != nil {
				args = append(args, na)
			}
		}
		if args != nil {
			e = sf.WithArgs(args)
		}
	}
	return f(e)
}
