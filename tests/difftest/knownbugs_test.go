package difftest

import "slices"

// knownBug names the Strata bugs the generator steers around, each written
// up in FINDINGS.md. Run with -difftest.knownbugs to generate them anyway
// (to check whether they are fixed); remove a switch when its bug is.
var knownBug = map[string]string{
	"subqueryInOn":    "a subquery in an ON condition works for inner joins outside outer joins (planned with WHERE) and, in an outer join, when it reads only the inner table; elsewhere error 1235",
	"ciKeys":          "ORDER BY, GROUP BY, DISTINCT, UNION and MIN/MAX compare utf8mb4_general_ci strings by their bytes",
	"onlyFullGroupBy": "a column outside any aggregate in an aggregated query without GROUP BY runs instead of failing with 1140",
	"unionNullFirst":  "a UNION whose first SELECTs give only NULL in a column loses the type of the later ones (a DOUBLE column sorts as text)",
	"padSpaceKeys":    "GROUP BY, DISTINCT and UNION keep 'a' and 'a ' apart under PAD SPACE collations",
}

// bugSwitches are the knownBug switches, each in force or not.
type bugSwitches map[string]bool

// knownBugs is the set of switches in force: all of them when avoiding, or
// none.
func knownBugs(avoiding bool) bugSwitches {
	m := bugSwitches{}
	for k := range knownBug {
		m[k] = avoiding
	}
	return m
}

// on reports whether switch name is in force. A name knownBug does not
// list panics: a switch removed with its fix must not linger, always off,
// in the generator.
func (b bugSwitches) on(name string) bool {
	if _, ok := knownBug[name]; !ok {
		panic("difftest: no known-bug switch " + name)
	}
	return b[name]
}

// inForce lists the switches in force, sorted.
func (b bugSwitches) inForce() []string {
	var ks []string
	for k, v := range b {
		if v {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}
