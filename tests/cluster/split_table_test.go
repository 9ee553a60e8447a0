package cluster

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/strata-db/strata/internal/codec"
)

// tableRegions returns the table ids whose key prefix starts a region, in
// key order, as PD reports the regions.
func (c *cluster) tableRegions() ([]int64, error) {
	rs, err := scanRegions(c.pdClient())
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, r := range rs {
		k := r.GetRegion().GetStartKey()
		if len(k) != len(codec.TablePrefix(0)) || k[0] != 't' {
			continue
		}
		if _, id, err := codec.DecodeInt(k[1:]); err == nil && slices.Equal(codec.TablePrefix(id), k) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// split-table = true (TiDB's default; off by default here): CREATE TABLE
// and TRUNCATE TABLE give the new table its own region, whose start key
// is the table's prefix; rows of both tables read back through the new
// regions.
func TestSplitTable(t *testing.T) {
	c := startCluster(t, clusterOpts{kv: 3, sql: 1, topConfig: "split-table = true\n"})
	db := c.db(0)
	before, err := c.tableRegions()
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "CREATE DATABASE d")
	mustExec(t, db, "CREATE TABLE d.a (id INT PRIMARY KEY, v INT)")
	mustExec(t, db, "CREATE TABLE d.b (id INT PRIMARY KEY, v INT, KEY v (v))")
	mustExec(t, db, "INSERT INTO d.b VALUES (1, 1)")
	mustExec(t, db, "TRUNCATE TABLE d.b")
	var got []int64
	c.waitFor("a region for each new table", 30*time.Second, func() (bool, string) {
		ids, err := c.tableRegions()
		if err != nil {
			return false, err.Error()
		}
		got = ids
		return len(ids) >= len(before)+3, fmt.Sprintf("regions start at tables %v (before: %v)", ids, before)
	})
	// Three new tables (a, b, b after TRUNCATE), each starting its own
	// region: the last three ids, all above those before.
	if newIDs := got[len(got)-3:]; len(before) > 0 && newIDs[0] <= before[len(before)-1] {
		t.Fatalf("table regions %v after %v: want three new table ids", got, before)
	}
	for i := range 20 {
		mustExec(t, db, "INSERT INTO d.a VALUES (?, ?)", i, i)
		mustExec(t, db, "INSERT INTO d.b VALUES (?, ?)", i, i*2)
	}
	var na, sb int
	if err := db.QueryRow("SELECT COUNT(*) FROM d.a").Scan(&na); err != nil || na != 20 {
		t.Fatalf("count a = %d, %v", na, err)
	}
	if err := db.QueryRow("SELECT SUM(v) FROM d.b WHERE v >= 0").Scan(&sb); err != nil || sb != 380 {
		t.Fatalf("sum b.v = %d, %v", sb, err)
	}
}
