package sqlnode

import (
	"strconv"
	"strings"
	"testing"
)

// explainOp is one operator of EXPLAIN ANALYZE's output.
type explainOp struct {
	id      string // without the tree drawing: HashJoin_5
	op      string // id without its number: HashJoin
	actRows string
	obj     string // access object
	info    string // execution info
	memory  string
	disk    string
}

// explainAnalyze runs EXPLAIN ANALYZE q and returns its operators, after
// checking its columns.
func explainAnalyze(t *testing.T, db querier, q string) []explainOp {
	t.Helper()
	rows, err := db.QueryContext(t.Context(), "EXPLAIN ANALYZE "+q)
	if err != nil {
		t.Fatalf("EXPLAIN ANALYZE %s: %v", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(cols, ",") != "id,estRows,actRows,task,access object,execution info,operator info,memory,disk" {
		t.Fatalf("EXPLAIN ANALYZE columns %v", cols)
	}
	var ops []explainOp
	for rows.Next() {
		var o explainOp
		var est, task, opInfo string
		if err := rows.Scan(&o.id, &est, &o.actRows, &task, &o.obj, &o.info, &opInfo, &o.memory, &o.disk); err != nil {
			t.Fatal(err)
		}
		o.id = strings.TrimLeft(o.id, "└─├│ ")
		o.op = o.id[:strings.LastIndex(o.id, "_")]
		ops = append(ops, o)
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("EXPLAIN ANALYZE %s: %v", q, err)
	}
	return ops
}

// EXPLAIN ANALYZE runs the query and reports, per operator, the rows it
// returned and its execution info; materializing operators report
// memory.
func TestExplainAnalyze(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	mustExec(t, db,
		"CREATE DATABASE d",
		"CREATE TABLE d.a (id INT PRIMARY KEY, g INT)",
		"CREATE TABLE d.b (id INT PRIMARY KEY, aid INT)",
		"INSERT INTO d.a VALUES (1, 1), (2, 1), (3, 2), (4, 3), (5, 3)",
		"INSERT INTO d.b VALUES (1, 1), (2, 1), (3, 4), (4, 9)",
	)
	act := map[string]int{}
	mem := map[string]string{}
	for _, o := range explainAnalyze(t, db, "SELECT /*+ HASH_JOIN(a) */ a.g, COUNT(*) FROM d.b JOIN d.a ON a.id = b.aid GROUP BY a.g") {
		v, err := strconv.Atoi(o.actRows)
		if err != nil {
			t.Fatalf("%s: actRows %q", o.id, o.actRows)
		}
		act[o.op+":"+o.obj] = v
		mem[o.op] = o.memory
		if !strings.Contains(o.info, "loops:") || !strings.Contains(o.info, "time:") {
			t.Fatalf("%s: execution info %q", o.id, o.info)
		}
	}
	// b has 4 rows, a 5; 3 of b's rows find a partner (aid 1, 1, 4);
	// groups: g=1 (2 rows), g=3 (1 row).
	want := map[string]int{"TableFullScan:table:b": 4, "TableFullScan:table:a": 5, "HashJoin:": 3, "HashAgg:": 2}
	for k, v := range want {
		if act[k] != v {
			t.Errorf("%s: actRows %d, want %d (all: %v)", k, act[k], v, act)
		}
	}
	if mem["HashJoin"] == "N/A" || mem["HashAgg"] == "N/A" {
		t.Errorf("memory of materializing operators not reported: %v", mem)
	}
	// The statement's effects are real for writes.
	if _, err := db.Exec("EXPLAIN ANALYZE DELETE FROM d.a WHERE id = 5"); err != nil {
		t.Fatal(err)
	}
	var c int
	if err := db.QueryRow("SELECT COUNT(*) FROM d.a").Scan(&c); err != nil || c != 4 {
		t.Fatalf("after EXPLAIN ANALYZE DELETE: %d rows, %v", c, err)
	}
}
