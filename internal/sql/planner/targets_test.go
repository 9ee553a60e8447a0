package planner

import "testing"

// TestUsingJoinTargets: a USING join moves the joined columns, and
// FOR UPDATE and multi-table DML still find each table's own columns
// and handle in the moved layout.
func TestUsingJoinTargets(t *testing.T) {
	cat := newTestCatalog(t)
	ddl(t, cat, "CREATE TABLE p (k INT PRIMARY KEY, v INT)\nCREATE TABLE q (k INT PRIMARY KEY, w INT)\n"+
		"CREATE TABLE r (id INT PRIMARY KEY, k INT, x INT)")
	ctx := &testCtx{IS: cat.InfoSchema(), DB: "test"}
	// handleOf checks that column i of cols is table's handle.
	handleOf := func(sql string, cols []OutCol, i int, table string) {
		t.Helper()
		if c := cols[i]; c.Name != "_tidb_rowid" || c.Table != table {
			t.Errorf("%s: handle of %s at %d is %s.%s", sql, table, i, c.Table, c.Name)
		}
	}

	for _, sql := range []string{
		"SELECT * FROM p JOIN q USING (k) FOR UPDATE",
		"SELECT * FROM p RIGHT JOIN q USING (k) FOR UPDATE",
		"SELECT * FROM p NATURAL JOIN q FOR UPDATE",
	} {
		p, err := buildSQL(ctx, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		locked := map[string]bool{}
		for _, n := range explainNodes(p) {
			if l, ok := n.(*Lock); ok {
				locked[l.Table.Name] = true
				handleOf(sql, l.Child.Schema(), l.Handle, l.Table.Name)
			}
		}
		if !locked["p"] || !locked["q"] {
			t.Errorf("%s: locks %v, want p and q", sql, locked)
		}
	}

	for _, tc := range []struct {
		sql, table string
		cols       []string
	}{
		{"DELETE p FROM p JOIN q USING (k) WHERE w > 1", "p", []string{"k", "v"}},
		{"UPDATE p JOIN q USING (k) SET p.v = q.w", "p", []string{"k", "v"}},
		{"DELETE q FROM p RIGHT JOIN q USING (k)", "q", []string{"k", "w"}},
		// The common column leaves its table's columns: they need not
		// stay together.
		{"DELETE q FROM p JOIN q USING (k)", "q", []string{"k", "w"}},
		{"DELETE r FROM q JOIN r USING (k)", "r", []string{"id", "k", "x"}},
		{"UPDATE r JOIN q USING (k) SET r.x = q.w", "r", []string{"id", "k", "x"}},
		{"UPDATE q JOIN r USING (k) JOIN p USING (k) SET r.x = p.v", "r", []string{"id", "k", "x"}},
	} {
		p, err := buildSQL(ctx, tc.sql)
		if err != nil {
			t.Fatalf("%s: %v", tc.sql, err)
		}
		m, ok := p.(*MultiDML)
		if !ok || len(m.Targets) != 1 {
			t.Fatalf("%s: plan %T, want one target", tc.sql, p)
		}
		// The target's input: its columns in order, ..., its handle.
		in := m.Targets[0].Children()[0].Schema()
		for i, want := range tc.cols {
			if in[i].Name != want || in[i].Table != tc.table {
				t.Errorf("%s: input column %d is %s.%s, want %s.%s", tc.sql, i, in[i].Table, in[i].Name, tc.table, want)
			}
		}
		handleOf(tc.sql, in, len(in)-1, tc.table)
		if u, ok := m.Targets[0].(*Update); ok {
			// The one assignment sets the table's last column.
			last := tc.cols[len(tc.cols)-1]
			if len(u.Assigns) != 1 || u.Table.Columns[u.Assigns[0].Col].Name != last {
				t.Errorf("%s: assignments %+v, want one to %s", tc.sql, u.Assigns, last)
			}
		}
	}
}
