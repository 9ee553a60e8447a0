package expr

import (
	"github.com/strata-db/strata/internal/types"
)

// call is one function call being built: its resolved name and built
// arguments. (EXTRACT, TIMESTAMPDIFF, TIMESTAMPADD and DATE_ADD, whose
// time unit the parser passes as an argument node, are built by
// unitFuncCall instead.)
type call struct {
	name string
	args []Expression
}

// funcDef is a function the builder knows from the table: its argument
// counts (max -1: unbounded) and how to build a call of it.
type funcDef struct {
	min, max int
	build    func(b *builder, c *call) (Expression, error)
}

// funcDefs is the table of functions registered by the files that
// implement them (their init functions); builder_funcs.go's switch holds
// the older ones.
var funcDefs = map[string]funcDef{}

// register adds a function to funcDefs.
func register(name string, min, max int, build func(b *builder, c *call) (Expression, error)) {
	funcDefs[name] = funcDef{min: min, max: max, build: build}
}

// fixed returns a builder for a function of a fixed result type ft,
// implemented by fn.
func fixed(ft func() *types.FieldType, fn builtin) func(b *builder, c *call) (Expression, error) {
	return func(b *builder, c *call) (Expression, error) {
		return b.newFunc(c.name, c.args, ft(), fn), nil
	}
}

// textType is the type of functions that return generated text (HEX, MD5,
// DATE_FORMAT): utf8mb4 of at most flen characters.
func textType(flen int) func() *types.FieldType {
	return func() *types.FieldType { return stringType("utf8mb4_bin", false, flen) }
}

// binaryType is the type of functions that return bytes (UNHEX, CHAR,
// FROM_BASE64).
func binaryType() *types.FieldType { return stringType("binary", true, 255) }

func intResult() *types.FieldType  { return intType(false) }
func uintResult() *types.FieldType { return intType(true) }

func init() {
	// ANY_VALUE(x) is x: Strata resolves a non-aggregated column to its
	// group's first row, which is what ANY_VALUE asks for.
	register("any_value", 1, 1, func(b *builder, c *call) (Expression, error) {
		return b.newFunc(c.name, c.args, c.args[0].Type(), passFunc{}), nil
	})
}
