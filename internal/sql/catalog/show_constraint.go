package catalog

import "sort"

// generatedDefinition is a generated column's clause in SHOW CREATE
// TABLE: GENERATED ALWAYS AS ((`a` + `b`)) VIRTUAL.
func generatedDefinition(c *ColumnInfo) string {
	kind := "VIRTUAL"
	if c.GeneratedStored {
		kind = "STORED"
	}
	return "GENERATED ALWAYS AS (" + c.GeneratedExpr + ") " + kind
}

// constraintDefinitions are SHOW CREATE TABLE's lines after the keys:
// foreign keys, then CHECK constraints, each sorted by name as MySQL 8
// lists them.
func constraintDefinitions(t *TableInfo) []string {
	var lines []string
	fks := append([]*FKInfo(nil), t.ForeignKeys...)
	sort.SliceStable(fks, func(i, j int) bool { return fks[i].Name < fks[j].Name })
	for _, fk := range fks {
		lines = append(lines, "  "+fkClause(fk.ChildDB, fk, true))
	}
	checks := append([]*CheckInfo(nil), t.Checks...)
	sort.SliceStable(checks, func(i, j int) bool { return checks[i].Name < checks[j].Name })
	for _, ck := range checks {
		s := "  CONSTRAINT " + QuoteIdent(ck.Name) + " CHECK (" + ck.Expr + ")"
		if !ck.Enforced {
			s += " /*!80016 NOT ENFORCED */"
		}
		lines = append(lines, s)
	}
	return lines
}

// CheckClause is information_schema.CHECK_CONSTRAINTS.CHECK_CLAUSE.
func (ck *CheckInfo) CheckClause() string { return ck.Expr }

// ReferencedIndexName names the parent index a foreign key relies on
// (REFERENTIAL_CONSTRAINTS.UNIQUE_CONSTRAINT_NAME): PRIMARY for the
// clustered key; "" when the parent is missing.
func (is *InfoSchema) ReferencedIndexName(fk *FKInfo) string {
	p, err := is.Table(fk.RefDB, fk.RefTable)
	if err != nil {
		return ""
	}
	li, ok := p.IndexFor(fk.RefCols)
	switch {
	case !ok:
		return ""
	case li.Handle || li.Index.Primary:
		return "PRIMARY"
	}
	return li.Index.Name
}
