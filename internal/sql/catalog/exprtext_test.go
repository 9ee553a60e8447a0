package catalog

import "testing"

// TestExprText pins MySQL 8's printed form of generated-column and CHECK
// expressions (what SHOW CREATE TABLE, GENERATION_EXPRESSION and
// CHECK_CLAUSE show), and that the text parses back to itself.
func TestExprText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a+b", "(`a` + `b`)"},
		{"a + b * 2", "(`a` + (`b` * 2))"},
		{"(a)", "`a`"},
		{"t.a > 0 AND b <= 10", "((`a` > 0) and (`b` <= 10))"},
		{"a != 1", "(`a` <> 1)"},
		{"CONCAT(UPPER(name), '!')", "concat(upper(`name`),_utf8mb4'!')"},
		{"a BETWEEN 1 AND 5", "(`a` between 1 and 5)"},
		{"a IS NOT NULL OR a IN (1, 2)", "((`a` is not null) or (`a` in (1,2)))"},
		{"name LIKE 'x%'", "(`name` like _utf8mb4'x%')"},
		{"-a", "-(`a`)"},
		{"NOT (a > 1)", "(not((`a` > 1)))"},
		{"'it''s'", "_utf8mb4'it''s'"},
		{"CASE WHEN a > 0 THEN 1 ELSE 0 END", "(case when (`a` > 0) then 1 else 0 end)"},
	} {
		n, err := parseExprText(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		got := ExprText(n)
		if got != tc.want {
			t.Errorf("ExprText(%s) = %s, want %s", tc.in, got, tc.want)
			continue
		}
		again, err := parseExprText(got)
		if err != nil {
			t.Fatalf("reparse %s: %v", got, err)
		}
		if back := ExprText(again); back != got {
			t.Errorf("%s printed again is %s", got, back)
		}
	}
}
