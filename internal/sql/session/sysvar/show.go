package sysvar

// NameValue is one row of SHOW VARIABLES.
type NameValue struct {
	Name  string
	Value string
}

// ShowVariables returns the rows of SHOW [GLOBAL|SESSION] VARIABLES [LIKE
// pattern], sorted by name; pattern "" matches everything. LIKE matching
// is case-insensitive, with \ as the escape character. scope ScopeGlobal
// lists global values of the variables that have one; any other scope
// lists what @@name reads (session values, else global ones). Hidden
// variables are left out.
func (v *Vars) ShowVariables(pattern string, scope Scope) []NameValue {
	var out []NameValue
	cur := v.src.Globals()
	for _, sv := range v.reg.All() {
		if sv.Hidden || (pattern != "" && !MatchLike(pattern, sv.Name, '\\')) {
			continue
		}
		target := sv
		if sv.Alias != "" {
			target = v.reg.vars[sv.Alias]
		}
		switch {
		case scope == ScopeGlobal:
			if !target.Scope.HasGlobal() {
				continue
			}
			out = append(out, NameValue{sv.Name, cur.value(target)})
		case target.Scope.HasSession():
			out = append(out, NameValue{sv.Name, v.sessionValue(target)})
		default:
			out = append(out, NameValue{sv.Name, cur.value(target)})
		}
	}
	return out
}
