package sqlnode

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestInfoSchemaPrivileges: information_schema and SHOW list only what
// the user holds some privilege on, as in MySQL.
func TestInfoSchemaPrivileges(t *testing.T) {
	n := startServer(t)
	root := n.db("")
	mustExec(t, root,
		"CREATE DATABASE d", "CREATE TABLE d.t (id INT PRIMARY KEY, v VARCHAR(10))", "CREATE TABLE d.t2 (a INT)",
		"CREATE DATABASE e", "CREATE TABLE e.f (a INT)",
		"CREATE USER nog IDENTIFIED BY 'pw'", "CREATE USER tg IDENTIFIED BY 'pw'",
		"GRANT SELECT ON d.t TO tg")

	nog := n.dbAs("nog", "pw")
	for _, q := range []string{
		"SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'd'",
		"SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'd'",
		"SELECT INDEX_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'd'",
		"SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN ('d', 'e')",
		"SELECT TABLE_SCHEMA FROM information_schema.SCHEMA_PRIVILEGES",
	} {
		if got := column(t, nog, q); got != "" {
			t.Errorf("user without grants: %s = %q, want no rows", q, got)
		}
	}
	if got := firstColumn(t, nog, "SHOW DATABASES"); slices.Contains(got, "d") || slices.Contains(got, "e") || !slices.Contains(got, "information_schema") {
		t.Errorf("SHOW DATABASES without grants: %s", got)
	}
	_, err := nog.Exec("SHOW COLUMNS FROM t FROM d")
	wantErr(t, "SHOW COLUMNS without grants", err, 1142, "SELECT command denied")
	if got := column(t, nog, "SELECT GRANTEE FROM information_schema.USER_PRIVILEGES"); got != "'nog'@'%'" {
		t.Errorf("USER_PRIVILEGES of nog: %q", got)
	}
	if got := column(t, nog, "SELECT USER FROM information_schema.PROCESSLIST"); got != "nog" {
		t.Errorf("PROCESSLIST of nog: %q", got)
	}

	tg := n.dbAs("tg", "pw")
	if got := column(t, tg, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA IN ('d', 'e') ORDER BY 1"); got != "t" {
		t.Errorf("table grant: TABLES = %q, want t", got)
	}
	if got := column(t, tg, "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'd' ORDER BY ORDINAL_POSITION"); got != "id,v" {
		t.Errorf("table grant: COLUMNS = %q", got)
	}
	if got := column(t, tg, "SELECT TABLE_NAME FROM information_schema.TABLE_PRIVILEGES"); got != "t" {
		t.Errorf("table grant: TABLE_PRIVILEGES = %q", got)
	}
	if got := column(t, tg, "SHOW TABLES FROM d"); got != "t" {
		t.Errorf("table grant: SHOW TABLES = %q", got)
	}
	if got := column(t, root, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'd' ORDER BY 1"); got != "t,t2" {
		t.Errorf("root: TABLES = %q", got)
	}
}

// TestMySQLCLIShow: the mysql client prints SHOW and information_schema
// results (with a default database, so it also reads the table list).
func TestMySQLCLIShow(t *testing.T) {
	cli, err := exec.LookPath("mysql")
	if err != nil {
		t.Skip("mysql client not installed (apt-get install mariadb-client)")
	}
	n := startServer(t)
	mustExec(t, n.db(""), "CREATE DATABASE d", "CREATE TABLE d.t (id INT PRIMARY KEY AUTO_INCREMENT, v VARCHAR(10) NOT NULL)")
	out, err := exec.Command(cli, "-h", "127.0.0.1", "-P", n.port, "-u", "root", "-D", "d", "-e",
		"SHOW TABLES; DESCRIBE t; SHOW FULL TABLES FROM information_schema LIKE 'COLUMNS'; "+
			"SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() ORDER BY ORDINAL_POSITION; "+
			"SHOW INDEX FROM t; SHOW CREATE DATABASE d").CombinedOutput()
	if err != nil {
		t.Fatalf("mysql: %v\n%s", err, out)
	}
	for _, want := range []string{
		"Tables_in_d\nt\n",
		"id\tint\tNO\tPRI\tNULL\tauto_increment\n",
		"v\tvarchar(10)\tNO\t\tNULL\t\n",
		"Tables_in_information_schema (COLUMNS)\tTable_type\nCOLUMNS\tSYSTEM VIEW\n",
		"COLUMN_NAME\tCOLUMN_TYPE\nid\tint\nv\tvarchar(10)\n",
		"t\t0\tPRIMARY\t1\tid\tA\t0\tNULL\tNULL\t\tBTREE\t\t\tYES\tNULL\n",
		"d\tCREATE DATABASE `d` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin */",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("mysql output lacks %q:\n%s", want, out)
		}
	}
}
