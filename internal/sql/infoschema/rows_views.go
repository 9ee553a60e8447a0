package infoschema

import (
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/types"
)

// viewTablesRow is a view's row of TABLES: TABLE_TYPE 'VIEW', comment
// 'VIEW', no engine, sizes or collation (MySQL 8's NULLs).
func viewTablesRow(db string, t *catalog.TableInfo) []types.Datum {
	row := []types.Datum{str(catalogName), str(db), str(t.Name), str("VIEW")}
	for len(row) < 20 {
		row = append(row, null())
	}
	return append(row, str("VIEW"))
}

// viewsRows fills VIEWS: the visible views with their definition as
// MySQL 8 shows it (table names qualified by their database). Strata's
// views are read-only, so IS_UPDATABLE is NO where MySQL would say YES
// for a view over one table without aggregation.
func viewsRows(s *Source) [][]types.Datum {
	var rows [][]types.Datum
	for _, dt := range s.visibleTables(false) {
		v := dt.t.View
		if v == nil {
			continue
		}
		check := v.CheckOption
		if check == "" {
			check = "NONE"
		}
		rows = append(rows, []types.Datum{str(catalogName), str(dt.db), str(dt.t.Name), str(v.Definition),
			str(check), str("NO"), str(v.DefinerUser + "@" + v.DefinerHost), str(v.Security),
			str(v.CharsetClient), str(v.CollationConnection)})
	}
	return rows
}
