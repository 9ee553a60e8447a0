package sqlnode

import "testing"

// TestForeignKeyPessimisticLock: in pessimistic transactions a child
// insert locks the parent row it found (as TiDB does), so a concurrent
// delete of that parent cannot orphan the child: the delete waits for the
// inserting transaction, then sees the child (1451); and an insert under
// a parent another transaction is deleting waits, then finds the parent
// gone (1452).
func TestForeignKeyPessimisticLock(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	admin := newConn(t, db)
	admin.exec("CREATE DATABASE f")
	admin.exec("CREATE TABLE f.parent (id INT PRIMARY KEY)")
	admin.exec("CREATE TABLE f.child (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES f.parent (id))")
	admin.exec("INSERT INTO f.parent VALUES (1), (2)")
	c1, c2 := newConn(t, db), newConn(t, db)

	// The child's transaction commits first: the parent delete fails.
	c1.exec("BEGIN")
	c1.exec("INSERT INTO f.child VALUES (10, 1)")
	c2.exec("BEGIN")
	del := c2.blocked(admin, "DELETE FROM f.parent WHERE id = 1 /* parent delete */")
	c1.exec("COMMIT")
	if err := <-del; mysqlErrno(err) != 1451 {
		t.Fatalf("parent delete after the child committed: %v, want 1451", err)
	}
	c2.exec("COMMIT")
	if got := admin.column("SELECT id FROM f.parent ORDER BY id"); got != "1,2" {
		t.Fatalf("parents = %s, want 1,2", got)
	}

	// The parent's delete commits first: the child insert fails.
	c1.exec("BEGIN")
	c1.exec("DELETE FROM f.parent WHERE id = 2")
	c2.exec("BEGIN")
	ins := c2.blocked(admin, "INSERT INTO f.child VALUES (20, 2) /* child insert */")
	c1.exec("COMMIT")
	if err := <-ins; mysqlErrno(err) != 1452 {
		t.Fatalf("child insert after the parent delete committed: %v, want 1452", err)
	}
	c2.exec("ROLLBACK")

	// No child without its parent.
	if got := admin.one("SELECT count(*) FROM f.child c LEFT JOIN f.parent p ON c.pid = p.id WHERE p.id IS NULL"); got != "0" {
		t.Fatalf("%s orphans", got)
	}
	if got := admin.column("SELECT CONCAT(id, ':', pid) FROM f.child ORDER BY id"); got != "10:1" {
		t.Fatalf("children = %s, want 10:1", got)
	}
}
