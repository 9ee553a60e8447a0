package infoschema

import (
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/types"
)

func processListRows(s *Source) [][]types.Datum {
	rows := make([][]types.Datum, 0, len(s.Processes))
	for _, p := range s.Processes {
		info := null()
		if p.HasInfo {
			info = str(p.Info)
		}
		rows = append(rows, []types.Datum{types.NewUintDatum(p.ID), str(p.User), str(p.Host), strOrNull(p.DB),
			str(p.Command), i64(p.Time), str(p.State), info})
	}
	return rows
}

// privRows lists one row per privilege in p (USAGE when none, if usage),
// prefix being the row's leading columns.
func privRows(rows [][]types.Datum, prefix []types.Datum, p privilege.Priv, usage bool) [][]types.Datum {
	grantable := yesNo(p.Has(privilege.GrantPriv), "YES", "NO")
	names := (p &^ privilege.GrantPriv).Names()
	if len(names) == 0 && usage {
		names = []string{"USAGE"}
	}
	for _, n := range names {
		row := append(append([]types.Datum(nil), prefix...), str(n), grantable)
		rows = append(rows, row)
	}
	return rows
}

func userPrivilegesRows(s *Source) [][]types.Datum {
	var rows [][]types.Datum
	for _, a := range s.Accounts {
		rows = privRows(rows, []types.Datum{str(a.Name()), str(catalogName)}, a.Global, true)
	}
	return rows
}

func schemaPrivilegesRows(s *Source) [][]types.Datum {
	var rows [][]types.Datum
	for _, a := range s.Accounts {
		for _, db := range sortedKeys(a.DBs) {
			rows = privRows(rows, []types.Datum{str(a.Name()), str(catalogName), str(db)}, a.DBs[db], false)
		}
	}
	return rows
}

func tablePrivilegesRows(s *Source) [][]types.Datum {
	var rows [][]types.Datum
	for _, a := range s.Accounts {
		for _, k := range sortedKeys(a.Tables) {
			db, t := privilege.SplitTableKey(k)
			rows = privRows(rows, []types.Datum{str(a.Name()), str(catalogName), str(db), str(t)}, a.Tables[k], false)
		}
	}
	return rows
}

func charsetRows(s *Source) [][]types.Datum {
	rows := make([][]types.Datum, 0, len(s.Charsets))
	for _, c := range s.Charsets {
		rows = append(rows, []types.Datum{str(catalog.DisplayCharset(c.Name)), str(catalog.DisplayCollation(c.DefaultCollation)),
			str(c.Description), i64(int64(c.MaxLen))})
	}
	return rows
}

func collationRows(s *Source) [][]types.Datum {
	rows := make([][]types.Datum, 0, len(s.Collations))
	for _, c := range s.Collations {
		rows = append(rows, []types.Datum{str(catalog.DisplayCollation(c.Name)), str(catalog.DisplayCharset(c.Charset)),
			i64(int64(c.ID)), yesNo(c.Default, "Yes", ""), str("Yes"), i64(int64(c.Sortlen)),
			yesNo(c.PadSpace, "PAD SPACE", "NO PAD")})
	}
	return rows
}

func applicabilityRows(s *Source) [][]types.Datum {
	rows := make([][]types.Datum, 0, len(s.Collations))
	for _, c := range s.Collations {
		rows = append(rows, []types.Datum{str(catalog.DisplayCollation(c.Name)), str(catalog.DisplayCharset(c.Charset))})
	}
	return rows
}

// engineRows are ENGINES' (and SHOW ENGINES') rows: Strata stores every
// table alike and names its storage InnoDB, which tools expect; it has
// no XA and no savepoints.
func engineRows(*Source) [][]types.Datum {
	return [][]types.Datum{{str("InnoDB"), str("DEFAULT"), str("Strata: distributed transactional storage"),
		str("YES"), str("NO"), str("NO")}}
}
