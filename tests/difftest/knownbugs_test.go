package difftest

// knownBug names the Strata bugs the generator steers around, each written
// up in FINDINGS.md. Run with -difftest.knownbugs to generate them anyway
// (to check whether they are fixed); remove a switch when its bug is.
var knownBug = map[string]string{
	"subqueryInOn":    "a subquery in an ON condition works only for inner joins outside outer joins (planned with WHERE); elsewhere error 1235",
	"ciKeys":          "ORDER BY, GROUP BY, DISTINCT, UNION and MIN/MAX compare utf8mb4_general_ci strings by their bytes",
	"onlyFullGroupBy": "a column outside any aggregate in an aggregated query without GROUP BY runs instead of failing with 1140",
	"unionNullFirst":  "a UNION whose first SELECTs give only NULL in a column loses the type of the later ones (a DOUBLE column sorts as text)",
	"padSpaceKeys":    "GROUP BY, DISTINCT and UNION keep 'a' and 'a ' apart under PAD SPACE collations",
}

// knownBugs is the set of switches in force: all of them when avoiding, or
// none.
func knownBugs(avoiding bool) map[string]bool {
	m := map[string]bool{}
	for k := range knownBug {
		m[k] = avoiding
	}
	return m
}
