package catalog

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/format"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/types"
)

// ExprText prints an expression of a generated column or CHECK
// constraint as MySQL 8 stores and shows it (Item::print): every operator
// application in parentheses with spaces, "(`a` + `b`)"; function names
// lower-case with arguments separated by bare commas; names back-quoted
// and unqualified; string literals with their character set introducer,
// _utf8mb4'x'. The text parses back to the same expression, and is what
// the catalog stores.
func ExprText(n ast.ExprNode) string {
	var b strings.Builder
	printExpr(&b, n)
	return b.String()
}

var binaryOps = map[opcode.Op]string{
	opcode.LogicAnd: "and", opcode.LogicOr: "or", opcode.LogicXor: "xor",
	opcode.GE: ">=", opcode.LE: "<=", opcode.EQ: "=", opcode.NE: "<>", opcode.LT: "<", opcode.GT: ">",
	opcode.NullEQ: "<=>", opcode.Plus: "+", opcode.Minus: "-", opcode.Mul: "*", opcode.Div: "/",
	opcode.IntDiv: "DIV", opcode.Mod: "%", opcode.And: "&", opcode.Or: "|", opcode.Xor: "^",
	opcode.LeftShift: "<<", opcode.RightShift: ">>",
}

func printExprs(b *strings.Builder, ns []ast.ExprNode) {
	for i, a := range ns {
		if i > 0 {
			b.WriteByte(',')
		}
		printExpr(b, a)
	}
}

func printExpr(b *strings.Builder, n ast.ExprNode) {
	switch x := n.(type) {
	case *ast.ParenthesesExpr:
		printExpr(b, x.Expr)
		return
	case *ast.ColumnNameExpr:
		b.WriteString(QuoteIdent(x.Name.Name.O))
		return
	case *expr.ValueExpr:
		b.WriteString(literalText(x))
		return
	case *ast.BinaryOperationExpr:
		if op, ok := binaryOps[x.Op]; ok {
			b.WriteByte('(')
			printExpr(b, x.L)
			b.WriteString(" " + op + " ")
			printExpr(b, x.R)
			b.WriteByte(')')
			return
		}
	case *ast.UnaryOperationExpr:
		switch x.Op {
		case opcode.Minus:
			b.WriteString("-(")
			printExpr(b, x.V)
			b.WriteByte(')')
			return
		case opcode.Not, opcode.Not2:
			b.WriteString("(not(")
			printExpr(b, x.V)
			b.WriteString("))")
			return
		case opcode.BitNeg:
			b.WriteString("~(")
			printExpr(b, x.V)
			b.WriteByte(')')
			return
		case opcode.Plus:
			printExpr(b, x.V)
			return
		}
	case *ast.FuncCallExpr:
		b.WriteString(x.FnName.L + "(")
		printExprs(b, x.Args)
		b.WriteByte(')')
		return
	case *ast.IsNullExpr:
		b.WriteByte('(')
		printExpr(b, x.Expr)
		if x.Not {
			b.WriteString(" is not null)")
		} else {
			b.WriteString(" is null)")
		}
		return
	case *ast.PatternInExpr:
		if x.Sel == nil {
			openPredicate(b, x.Expr, x.Not, "in")
			b.WriteByte('(')
			printExprs(b, x.List)
			b.WriteString("))")
			return
		}
	case *ast.BetweenExpr:
		openPredicate(b, x.Expr, x.Not, "between")
		printExpr(b, x.Left)
		b.WriteString(" and ")
		printExpr(b, x.Right)
		b.WriteByte(')')
		return
	case *ast.PatternLikeOrIlikeExpr:
		if x.IsLike && x.Escape == '\\' {
			openPredicate(b, x.Expr, x.Not, "like")
			printExpr(b, x.Pattern)
			b.WriteByte(')')
			return
		}
	case *ast.CaseExpr:
		b.WriteString("(case ")
		if x.Value != nil {
			printExpr(b, x.Value)
			b.WriteByte(' ')
		}
		for _, w := range x.WhenClauses {
			b.WriteString("when ")
			printExpr(b, w.Expr)
			b.WriteString(" then ")
			printExpr(b, w.Result)
			b.WriteByte(' ')
		}
		if x.ElseClause != nil {
			b.WriteString("else ")
			printExpr(b, x.ElseClause)
			b.WriteByte(' ')
		}
		b.WriteString("end)")
		return
	}
	// Anything else in the parser's own restored form (valid SQL).
	var sb strings.Builder
	ctx := format.NewRestoreCtx(format.RestoreStringSingleQuotes|format.RestoreKeyWordLowercase|format.RestoreNameBackQuotes, &sb)
	if err := n.Restore(ctx); err != nil {
		b.WriteString(n.Text())
		return
	}
	b.WriteString(sb.String())
}

// openPredicate prints "(x [not] op " of a predicate whose operands
// the caller prints next, with its closing parenthesis.
func openPredicate(b *strings.Builder, x ast.ExprNode, not bool, op string) {
	b.WriteByte('(')
	printExpr(b, x)
	if not {
		b.WriteString(" not")
	}
	b.WriteString(" " + op + " ")
}

// literalText prints a literal: strings with their introducer and
// escaped quotes, numbers as written, NULL.
func literalText(v *expr.ValueExpr) string {
	d := v.Datum
	switch {
	case d.IsNull():
		return "NULL"
	case v.Lit == expr.LitHex, v.Lit == expr.LitBit:
		return fmt.Sprintf("0x%X", d.GetBytes())
	}
	switch d.Kind() {
	case types.KindString:
		cs := v.Type.GetCharset()
		if cs == "" {
			cs = "utf8mb4"
		}
		return "_" + cs + quoteString(d.GetString())
	case types.KindBytes:
		return "_binary" + quoteString(string(d.GetBytes()))
	}
	return d.String()
}

// parseExprText parses stored expression text back into an AST (the
// value-expression driver is ours, registered by package expr).
func parseExprText(text string) (ast.ExprNode, error) {
	stmts, _, err := parser.New().ParseSQL("SELECT " + text)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, fmt.Errorf("catalog: bad expression text %q", text)
	}
	sel, ok := stmts[0].(*ast.SelectStmt)
	if !ok || sel.Fields == nil || len(sel.Fields.Fields) != 1 {
		return nil, fmt.Errorf("catalog: bad expression text %q", text)
	}
	return sel.Fields.Fields[0].Expr, nil
}
