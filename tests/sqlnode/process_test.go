package sqlnode

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// TestProcessListAndKill: SHOW PROCESSLIST lists the connections; KILL
// ends another connection; an unknown id is 1094.
func TestProcessListAndKill(t *testing.T) {
	n := startServer(t)
	db := n.db("")
	ctx := context.Background()
	victim, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close()
	var victimID int64
	if err := victim.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&victimID); err != nil {
		t.Fatal(err)
	}
	admin, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	rows, err := admin.QueryContext(ctx, "SHOW PROCESSLIST")
	if err != nil {
		t.Fatal(err)
	}
	seen, sawSelf := false, false
	for rows.Next() {
		var id, secs int64
		var user, host, command, state string
		var dbName, info *string
		if err := rows.Scan(&id, &user, &host, &dbName, &command, &secs, &state, &info); err != nil {
			t.Fatal(err)
		}
		if id == victimID && command == "Sleep" {
			seen = true
		}
		if info != nil && *info == "SHOW PROCESSLIST" && command == "Query" {
			sawSelf = true
		}
	}
	rows.Close()
	if !seen || !sawSelf {
		t.Errorf("SHOW PROCESSLIST: victim %d seen=%v, own query seen=%v", victimID, seen, sawSelf)
	}
	if _, err := admin.ExecContext(ctx, fmt.Sprintf("KILL QUERY %d", victimID)); err != nil {
		t.Errorf("KILL QUERY of an idle connection: %v", err)
	}
	if _, err := admin.ExecContext(ctx, fmt.Sprintf("KILL %d", victimID)); err != nil {
		t.Fatalf("KILL: %v", err)
	}
	var one int
	if err := victim.QueryRowContext(ctx, "SELECT 1").Scan(&one); err == nil {
		t.Errorf("killed connection still answers")
	}
	_, err = admin.ExecContext(ctx, "KILL 999999")
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1094 {
		t.Errorf("KILL of an unknown id: %v, want 1094", err)
	}
}
