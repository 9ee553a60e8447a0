package cluster

import (
	"database/sql"
	"fmt"
	"testing"
	"time"
)

// statsRow reads SHOW STATS_META of s.t: Update_time (NULL when never
// analyzed), Modify_count and Row_count, formatted for waitFor.
func statsRow(db *sql.DB) (updated sql.NullString, modify, count int64, state string) {
	err := db.QueryRow("SHOW STATS_META WHERE Db_name = 's' AND Table_name = 't'").
		Scan(new(string), new(string), new(string), &updated, &modify, &count)
	return updated, modify, count, fmt.Sprintf("updated %v modify %d rows %d %s", updated, modify, count, errString(err))
}

// Statistics one SQL server builds are used by the others, and each
// server's modification counts reach the others.
func TestStatsAcrossSQLServers(t *testing.T) {
	c := startCluster(t, clusterOpts{kv: 1, sql: 2})
	a, b := c.db(0), c.db(1)
	mustExec(t, a, "CREATE DATABASE s")
	mustExec(t, a, "CREATE TABLE s.t (id INT PRIMARY KEY, v INT, KEY iv (v))")
	mustExec(t, a, "INSERT INTO s.t VALUES (1, 10), (2, 10), (3, 30)")
	mustExec(t, a, "ANALYZE TABLE s.t")
	c.waitFor("server b sees a's ANALYZE", 30*time.Second, func() (bool, string) {
		updated, modify, count, state := statsRow(b)
		return updated.Valid && modify == 0 && count == 3, state
	})
	var topValue string
	var topCount int64
	if err := b.QueryRow("SHOW STATS_TOPN WHERE Db_name = 's' AND Table_name = 't' AND Column_name = 'v'").
		Scan(new(string), new(string), new(string), new(string), new(int), &topValue, &topCount); err != nil {
		t.Fatal(err)
	}
	if topValue != "10" || topCount != 2 {
		t.Fatalf("server b's TopN of v: %s × %d, want 10 × 2", topValue, topCount)
	}
	mustExec(t, b, "INSERT INTO s.t VALUES (4, 40), (5, 50)")
	mustExec(t, b, "DELETE FROM s.t WHERE id = 1")
	c.waitFor("server a sees b's modifications", 30*time.Second, func() (bool, string) {
		_, modify, count, state := statsRow(a)
		return modify == 3 && count == 4, state
	})
}
