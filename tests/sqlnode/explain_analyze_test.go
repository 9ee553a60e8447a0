package sqlnode

import (
	"strconv"
	"strings"
	"testing"
)

// EXPLAIN ANALYZE runs the query and reports, per operator, the rows it
// returned and its execution info; materializing operators report
// memory.
func TestExplainAnalyze(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	for _, q := range []string{
		"CREATE DATABASE d",
		"CREATE TABLE d.a (id INT PRIMARY KEY, g INT)",
		"CREATE TABLE d.b (id INT PRIMARY KEY, aid INT)",
		"INSERT INTO d.a VALUES (1, 1), (2, 1), (3, 2), (4, 3), (5, 3)",
		"INSERT INTO d.b VALUES (1, 1), (2, 1), (3, 4), (4, 9)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	rows, err := db.Query("EXPLAIN ANALYZE SELECT /*+ HASH_JOIN(a) */ a.g, COUNT(*) FROM d.b JOIN d.a ON a.id = b.aid GROUP BY a.g")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if strings.Join(cols, ",") != "id,estRows,actRows,task,access object,execution info,operator info,memory,disk" {
		t.Fatalf("columns %v", cols)
	}
	act := map[string]int{}
	mem := map[string]string{}
	for rows.Next() {
		var id, est, actRows, task, obj, info, opInfo, memory, disk string
		if err := rows.Scan(&id, &est, &actRows, &task, &obj, &info, &opInfo, &memory, &disk); err != nil {
			t.Fatal(err)
		}
		name := strings.TrimLeft(id, "└─├│ ")
		name = name[:strings.LastIndex(name, "_")]
		v, err := strconv.Atoi(actRows)
		if err != nil {
			t.Fatalf("%s: actRows %q", id, actRows)
		}
		act[name+":"+obj] = v
		mem[name] = memory
		if !strings.Contains(info, "loops:") || !strings.Contains(info, "time:") {
			t.Fatalf("%s: execution info %q", id, info)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
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
