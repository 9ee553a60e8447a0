package catalog

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// CheckViolatedError is 3819 for check constraint name.
func CheckViolatedError(name string) error {
	return sqlerr.New(sqlerr.ErrCheckViolated, name)
}

// FKDepthError is 3008: cascades nested deeper than InnoDB's 15.
func FKDepthError() error {
	return sqlerr.New(sqlerr.ErrFKDepthExceeded, MaxFKDepth)
}

// MaxFKDepth is InnoDB's limit on nested cascades (FK_MAX_CASCADE_DEL).
const MaxFKDepth = 15

// fkDescription is the parenthesised part of 1451/1452:
// `db`.`child`, CONSTRAINT `fk` FOREIGN KEY (`a`) REFERENCES `parent` (`id`).
func fkDescription(childDB string, child *TableInfo, fk *FKInfo) string {
	return fmt.Sprintf("%s.%s, %s", QuoteIdent(childDB), QuoteIdent(child.Name), fkClause(childDB, fk, true))
}

// fkClause renders CONSTRAINT `fk` FOREIGN KEY (...) REFERENCES ...
// [ON DELETE ...] [ON UPDATE ...] (actions only when withActions).
func fkClause(childDB string, fk *FKInfo, withActions bool) string {
	ref := QuoteIdent(fk.RefTable)
	if !strings.EqualFold(fk.RefDB, childDB) {
		ref = QuoteIdent(fk.RefDB) + "." + ref
	}
	s := fmt.Sprintf("CONSTRAINT %s FOREIGN KEY (%s) REFERENCES %s (%s)", QuoteIdent(fk.Name),
		quoteList(fk.Cols), ref, quoteList(fk.RefCols))
	if withActions {
		if fk.OnDelete != FKNoAction {
			s += " ON DELETE " + fk.OnDelete.String()
		}
		if fk.OnUpdate != FKNoAction {
			s += " ON UPDATE " + fk.OnUpdate.String()
		}
	}
	return s
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = QuoteIdent(n)
	}
	return strings.Join(q, ", ")
}

// NoReferencedRowError is 1452 for a child row of fk without a parent.
func NoReferencedRowError(childDB string, child *TableInfo, fk *FKInfo) error {
	return sqlerr.New(mysql.ErrNoReferencedRow2, fkDescription(childDB, child, fk))
}

// RowIsReferencedError is 1451 for a parent row fk's children still
// reference.
func RowIsReferencedError(childDB string, child *TableInfo, fk *FKInfo) error {
	return sqlerr.New(mysql.ErrRowIsReferenced2, fkDescription(childDB, child, fk))
}
