package sqlnode

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"
)

// statsMeta is a row of SHOW STATS_META.
type statsMeta struct {
	updated       sql.NullString
	modify, count int64
}

// readStatsMeta returns the SHOW STATS_META row of db.table (ok false
// when there is none).
func readStatsMeta(t *testing.T, conn *sql.DB, db, table string) (m statsMeta, ok bool) {
	t.Helper()
	rows, err := conn.Query(fmt.Sprintf("SHOW STATS_META WHERE Db_name = '%s' AND Table_name = '%s'", db, table))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var dbName, tbl, part string
		if err := rows.Scan(&dbName, &tbl, &part, &m.updated, &m.modify, &m.count); err != nil {
			t.Fatal(err)
		}
		ok = true
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return m, ok
}

// waitStats polls SHOW STATS_META of st.<table> until cond holds,
// failing after the deadline with the last row seen.
func waitStats(t *testing.T, conn *sql.DB, table, what string, cond func(statsMeta) bool) statsMeta {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		m, ok := readStatsMeta(t, conn, "st", table)
		if ok && cond(m) {
			return m
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: still %+v (present %v)", what, m, ok)
		}
		time.Sleep(100 * time.Millisecond) // polling interval, not synchronisation
	}
}

// An automatic ANALYZE runs once a never-analyzed table reaches 1000
// rows, and again once more than tidb_auto_analyze_ratio of its rows
// were modified; user statements go on meanwhile.
//
// That a table is not analyzed is seen through a canary, st.u: each sync
// round flushes the counts, then analyzes the first table by name that
// calls for it, and rows counted are shown before they are flushed. So
// once st.u, written after st.t, is analyzed, a round has looked at st.t
// as written and passed it over.
func TestAutoAnalyze(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	mustExec(t, db, "CREATE DATABASE st")
	mustExec(t, db, "CREATE TABLE st.t (id INT PRIMARY KEY, a INT, KEY ia (a))", "CREATE TABLE st.u (id INT PRIMARY KEY, v INT)")
	var vals []string
	for i := 1; i <= 1500; i++ {
		vals = append(vals, fmt.Sprintf("(%d, %d)", i, i%37))
	}
	// Below the threshold: no ANALYZE.
	mustExec(t, db, "INSERT INTO st.t VALUES "+strings.Join(vals[:900], ","))
	mustExec(t, db, "INSERT INTO st.u VALUES "+strings.Join(vals[:1000], ","))
	waitStats(t, db, "u", "auto analyze of the canary", func(m statsMeta) bool { return m.updated.Valid && m.count == 1000 })
	if m, _ := readStatsMeta(t, db, "st", "t"); m.count != 900 || m.updated.Valid {
		t.Fatalf("table of 900 rows: %+v, want 900 rows not analyzed", m)
	}
	mustExec(t, db, "INSERT INTO st.t VALUES "+strings.Join(vals[900:], ","))
	first := waitStats(t, db, "t", "auto analyze of a new table", func(m statsMeta) bool {
		return m.updated.Valid && m.count == 1500 && m.modify == 0
	})
	var ndv int64
	if err := db.QueryRow("SHOW STATS_HISTOGRAMS WHERE Db_name = 'st' AND Table_name = 't' AND Column_name = 'a'").
		Scan(new(string), new(string), new(string), new(string), new(int), new(string), &ndv, new(int64), new(float64), new(float64)); err != nil {
		t.Fatal(err)
	}
	if ndv != 37 {
		t.Fatalf("Distinct_count of a = %d, want 37", ndv)
	}

	// 600 of 1500 rows modified: 0.4 <= 0.5, no ANALYZE (the canary,
	// all of whose rows are modified after, is analyzed again).
	mustExec(t, db, "UPDATE st.t SET a = a + 1 WHERE id <= 600")
	mustExec(t, db, "UPDATE st.u SET v = v + 1")
	waitStats(t, db, "u", "second auto analyze of the canary", func(m statsMeta) bool { return m.modify == 0 })
	if m, _ := readStatsMeta(t, db, "st", "t"); m.modify != 600 || m.updated != first.updated {
		t.Fatalf("after 40%% modified: %+v, want 600 modifications and no new ANALYZE", m)
	}
	// 200 more: 800/1500 > 0.5.
	mustExec(t, db, "DELETE FROM st.t WHERE id > 1300")
	waitStats(t, db, "t", "auto analyze after modifications", func(m statsMeta) bool {
		return m.modify == 0 && m.count == 1300 && m.updated.Valid
	})
	var rows int64
	if err := db.QueryRow("SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'st' AND TABLE_NAME = 't'").Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 1300 {
		t.Fatalf("TABLE_ROWS = %d, want 1300", rows)
	}
	var ratio float64
	if err := db.QueryRow("SELECT @@GLOBAL.tidb_auto_analyze_ratio").Scan(&ratio); err != nil || ratio != 0.5 {
		t.Fatalf("tidb_auto_analyze_ratio = %v (%v)", ratio, err)
	}
}
