package catalog

import (
	"slices"
	"testing"
)

// OnNewTable hears of every table CREATE TABLE (also LIKE) and TRUNCATE
// TABLE made, with the id it got, once its DDL committed; a CREATE TABLE
// IF NOT EXISTS that finds the table, and a failed DDL, make none.
func TestOnNewTable(t *testing.T) {
	var got []int64
	c := New(newClusterBegin(t), Options{OnNewTable: func(id int64) { got = append(got, id) }})
	mustExec(t, c, "CREATE DATABASE test")
	mustExec(t, c, "CREATE TABLE a (id INT PRIMARY KEY)")
	mustExec(t, c, "CREATE TABLE IF NOT EXISTS a (id INT PRIMARY KEY)")
	if err := execSQL(t, c, "CREATE TABLE a (x INT)"); err == nil {
		t.Fatal("a second CREATE TABLE a succeeded")
	}
	idA := mustTable(t, c, "a").ID
	mustExec(t, c, "CREATE TABLE b LIKE a")
	idB := mustTable(t, c, "b").ID
	mustExec(t, c, "TRUNCATE TABLE b")
	idB2 := mustTable(t, c, "b").ID
	if want := []int64{idA, idB, idB2}; !slices.Equal(got, want) || idB2 == idB {
		t.Fatalf("OnNewTable got %v, want %v (a new id after TRUNCATE)", got, want)
	}
}
