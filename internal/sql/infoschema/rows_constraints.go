package infoschema

import (
	"github.com/strata-db/strata/internal/types"
)

// Rows of foreign keys and CHECK constraints: KEY_COLUMN_USAGE's
// foreign-key columns, TABLE_CONSTRAINTS' FOREIGN KEY and CHECK rows,
// REFERENTIAL_CONSTRAINTS and CHECK_CONSTRAINTS, as MySQL 8 lists them.

// appendFKColumnRows adds a KEY_COLUMN_USAGE row per column of each of
// the table's foreign keys, with the REFERENCED_* columns.
func appendFKColumnRows(rows [][]types.Datum, dt dbTable) [][]types.Datum {
	for _, fk := range dt.t.ForeignKeys {
		for i, c := range fk.Cols {
			rows = append(rows, []types.Datum{
				str(catalogName), str(dt.db), str(fk.Name), str(catalogName), str(dt.db), str(dt.t.Name),
				str(c), i64(int64(i + 1)), i64(int64(i + 1)), str(fk.RefDB), str(fk.RefTable), str(fk.RefCols[i]),
			})
		}
	}
	return rows
}

// appendConstraintRows adds the table's FOREIGN KEY and CHECK rows to
// TABLE_CONSTRAINTS.
func appendConstraintRows(rows [][]types.Datum, dt dbTable) [][]types.Datum {
	for _, fk := range dt.t.ForeignKeys {
		rows = append(rows, []types.Datum{str(catalogName), str(dt.db), str(fk.Name), str(dt.db),
			str(dt.t.Name), str("FOREIGN KEY"), str("YES")})
	}
	for _, ck := range dt.t.Checks {
		rows = append(rows, []types.Datum{str(catalogName), str(dt.db), str(ck.Name), str(dt.db),
			str(dt.t.Name), str("CHECK"), yesNo(ck.Enforced, "YES", "NO")})
	}
	return rows
}

func referentialConstraintsRows(s *Source) [][]types.Datum {
	var rows [][]types.Datum
	for _, dt := range s.visibleTables(false) {
		for _, fk := range dt.t.ForeignKeys {
			uniq := null()
			if s.Schema != nil {
				uniq = strOrNull(s.Schema.ReferencedIndexName(fk))
			}
			rows = append(rows, []types.Datum{
				str(catalogName), str(dt.db), str(fk.Name), str(catalogName), str(fk.RefDB), uniq,
				str("NONE"), str(fk.OnUpdate.String()), str(fk.OnDelete.String()), str(dt.t.Name), str(fk.RefTable),
			})
		}
	}
	return rows
}

func checkConstraintsRows(s *Source) [][]types.Datum {
	var rows [][]types.Datum
	for _, dt := range s.visibleTables(false) {
		for _, ck := range dt.t.Checks {
			rows = append(rows, []types.Datum{str(catalogName), str(dt.db), str(ck.Name), str(ck.CheckClause())})
		}
	}
	return rows
}
