package cluster

import (
	"testing"
	"time"
)

// Two SQL servers over one cluster: each sees the other's schema changes,
// rows and GLOBAL variables.
func TestTwoSQLServers(t *testing.T) {
	c := startCluster(t, clusterOpts{kv: 1, sql: 2})
	a, b := c.db(0), c.db(1)
	mustExec(t, a, "CREATE DATABASE s")
	mustExec(t, a, "CREATE TABLE s.t (id INT PRIMARY KEY, v INT)")
	mustExec(t, a, "INSERT INTO s.t VALUES (1, 10)")
	c.waitFor("server b sees the table", 30*time.Second, func() (bool, string) {
		var v int
		err := b.QueryRow("SELECT v FROM s.t WHERE id = 1").Scan(&v)
		return err == nil && v == 10, errString(err)
	})
	mustExec(t, b, "ALTER TABLE s.t ADD COLUMN w INT")
	mustExec(t, b, "INSERT INTO s.t VALUES (2, 20, 200)")
	c.waitFor("server a sees the new column", 30*time.Second, func() (bool, string) {
		var w int
		err := a.QueryRow("SELECT w FROM s.t WHERE id = 2").Scan(&w)
		return err == nil && w == 200, errString(err)
	})
	mustExec(t, a, "SET GLOBAL tidb_enable_async_commit = OFF")
	c.waitFor("server b sees the GLOBAL variable", 30*time.Second, func() (bool, string) {
		var v string
		err := b.QueryRow("SELECT @@GLOBAL.tidb_enable_async_commit").Scan(&v)
		return err == nil && (v == "0" || v == "OFF"), v + errString(err)
	})
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
