package catalog

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/opcode"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// CheckInfo is a CHECK constraint (MySQL 8.0.16+). Expr is the condition
// in MySQL's printed form (ExprText); a row violates the constraint when
// the condition is false (NULL passes). Column names the column of a
// column-level constraint ("" for a table-level one).
type CheckInfo struct {
	Name     string `json:"name"`
	Expr     string `json:"expr"`
	Enforced bool   `json:"enforced"`
	Column   string `json:"column,omitempty"`
}

// Check returns the CHECK constraint named name, or nil.
func (t *TableInfo) Check(name string) *CheckInfo {
	for _, c := range t.Checks {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

// nextCheckName is MySQL's name for an unnamed CHECK constraint:
// <table>_chk_<n>, n one more than the largest such number in use.
func nextCheckName(t *TableInfo) string {
	return nextGeneratedName(t.Name+"_chk_", func(yield func(string)) {
		for _, c := range t.Checks {
			yield(c.Name)
		}
	})
}

// nextGeneratedName returns prefix followed by one more than the largest
// number that follows prefix in the names.
func nextGeneratedName(prefix string, names func(yield func(string))) string {
	n := 0
	names(func(name string) {
		if rest, ok := cutPrefixFold(name, prefix); ok {
			if v, err := strconv.Atoi(rest); err == nil && v > n {
				n = v
			}
		}
	})
	return prefix + strconv.Itoa(n+1)
}

// cutPrefixFold returns what follows prefix (matched case-insensitively)
// in name, and false when name does not start with it or is only it.
func cutPrefixFold(name, prefix string) (string, bool) {
	if len(name) > len(prefix) && strings.EqualFold(name[:len(prefix)], prefix) {
		return name[len(prefix):], true
	}
	return "", false
}

// checkConstraint turns a column-level CHECK option into a constraint.
func checkConstraint(col string, o *ast.ColumnOption) *ast.Constraint {
	return &ast.Constraint{Tp: ast.ConstraintCheck, Name: o.ConstraintName, Expr: o.Expr,
		Enforced: o.Enforced, InColumn: true, InColumnName: col}
}

// addCheckInfo validates a CHECK constraint against t (complete) and
// appends it.
func addCheckInfo(t *TableInfo, k *ast.Constraint) (*CheckInfo, error) {
	ck := &CheckInfo{Name: k.Name, Enforced: k.Enforced, Expr: ExprText(k.Expr)}
	if k.InColumn {
		ck.Column = k.InColumnName
	}
	if ck.Name == "" {
		ck.Name = nextCheckName(t)
	} else {
		if err := checkIdent(ck.Name); err != nil {
			return nil, err
		}
		if t.Check(ck.Name) != nil {
			return nil, sqlerr.New(sqlerr.ErrCheckDupName, ck.Name)
		}
	}
	if err := validateCheck(t, ck, k.Expr); err != nil {
		return nil, err
	}
	t.Checks = append(t.Checks, ck)
	return ck, nil
}

// validateCheck applies MySQL's rules to a CHECK expression: no
// disallowed functions (3814, 3815), variables (3816), unknown columns
// (3820), other columns in a column-level constraint (3813), the
// AUTO_INCREMENT column (3818), and a boolean condition (3812).
func validateCheck(t *TableInfo, ck *CheckInfo, n ast.ExprNode) error {
	s := scanExpr(n)
	if s.fn != "" {
		return sqlerr.New(sqlerr.ErrCheckNamedFunction, ck.Name, s.fn)
	}
	if s.variable {
		return sqlerr.New(sqlerr.ErrCheckVariables, ck.Name)
	}
	if s.other {
		return sqlerr.New(sqlerr.ErrCheckFunction, ck.Name)
	}
	for _, name := range s.cols {
		c := t.Column(name)
		if c == nil || c.Hidden {
			return sqlerr.New(sqlerr.ErrCheckUnknownColumn, ck.Name, name)
		}
		if ck.Column != "" && !strings.EqualFold(name, ck.Column) {
			return sqlerr.New(sqlerr.ErrColumnCheckRefersOther, ck.Name)
		}
		if c.AutoIncrement {
			return sqlerr.New(sqlerr.ErrCheckRefersAutoInc, ck.Name)
		}
	}
	if !isBooleanExpr(n) {
		return sqlerr.New(sqlerr.ErrCheckNotBoolean, ck.Name)
	}
	_, err := expr.Build(nil, n, t.exprSchema())
	return err
}

// isBooleanExpr reports whether MySQL takes n as a condition: a
// comparison, logical operator, IS, IN, BETWEEN, LIKE, REGEXP, a function
// (whose type MySQL checks; Strata lets it through) or TRUE/FALSE; not a
// bare column, literal or arithmetic.
func isBooleanExpr(n ast.ExprNode) bool {
	switch x := n.(type) {
	case *ast.ParenthesesExpr:
		return isBooleanExpr(x.Expr)
	case *ast.BinaryOperationExpr:
		switch x.Op {
		case opcode.Plus, opcode.Minus, opcode.Mul, opcode.Div, opcode.IntDiv, opcode.Mod,
			opcode.And, opcode.Or, opcode.Xor, opcode.LeftShift, opcode.RightShift:
			return false
		}
		return true
	case *ast.UnaryOperationExpr:
		return x.Op == opcode.Not || x.Op == opcode.Not2
	case *ast.ColumnNameExpr:
		return false
	case *expr.ValueExpr:
		return mysql.HasIsBooleanFlag(x.Type.GetFlag())
	case *ast.FuncCastExpr:
		return false
	}
	return true
}

// CompiledCheck is an enforced CHECK constraint compiled over rows of
// its table.
type CompiledCheck struct {
	Check *CheckInfo
	// Violated is NOT (condition): true exactly when the row violates
	// the constraint (false for NULL).
	Violated expr.Expression
}

// CompileChecks builds the enforced CHECK constraints of t for one
// statement.
func (t *TableInfo) CompileChecks(ctx expr.BuildContext) ([]CompiledCheck, error) {
	var out []CompiledCheck
	var schema *expr.Columns
	for i, ck := range t.Checks {
		if !ck.Enforced {
			continue
		}
		if schema == nil {
			schema = t.exprSchema()
		}
		e, err := expr.Build(ctx, notExpr(t.exprs.checks[i]), schema)
		if err != nil {
			return nil, err
		}
		out = append(out, CompiledCheck{Check: ck, Violated: e})
	}
	return out, nil
}

// VerifyChecks returns 3819 for the first check row violates.
func VerifyChecks(ctx expr.EvalContext, checks []CompiledCheck, row chunk.Row) error {
	for _, c := range checks {
		bad, err := expr.EvalBool(ctx, c.Violated, row)
		if err != nil {
			return err
		}
		if bad {
			return CheckViolatedError(c.Check.Name)
		}
	}
	return nil
}

// checkColumnDependents names a CHECK constraint of t that reads column
// name, or "".
func checkColumnDependents(t *TableInfo, name string) string {
	for _, ck := range t.Checks {
		if exprReads(ck.Expr, name) {
			return ck.Name
		}
	}
	return ""
}

// DependentByCheckError is 3959 for dropping or renaming column col that
// check constraint ck reads.
func DependentByCheckError(ck, col string) error {
	return sqlerr.New(sqlerr.ErrDependentByCheck, ck, col)
}
