package sysvar

import "math"

// Constructors for the definition tables.

func boolVar(scope Scope, name string, def bool) SysVar {
	d := "OFF"
	if def {
		d = "ON"
	}
	return SysVar{Name: name, Scope: scope, Type: TypeBool, Default: d}
}

func intVar(scope Scope, name string, def string, lo, hi int64) SysVar {
	return SysVar{Name: name, Scope: scope, Type: TypeInt, Default: def, Min: lo, Max: hi}
}

func uintVar(scope Scope, name string, def string, lo int64, hi uint64) SysVar {
	return SysVar{Name: name, Scope: scope, Type: TypeUint, Default: def, Min: lo, MaxUint: hi}
}

func enumVar(scope Scope, name, def string, values ...string) SysVar {
	return SysVar{Name: name, Scope: scope, Type: TypeEnum, Default: def, Values: values}
}

func strVar(scope Scope, name, def string) SysVar {
	return SysVar{Name: name, Scope: scope, Type: TypeStr, Default: def}
}

// readOnly returns a read-only scope-NONE variable.
func readOnly(name, def string) SysVar {
	return SysVar{Name: name, Scope: ScopeNone, Type: TypeStr, Default: def, ReadOnly: true}
}

func alias(name, of string) SysVar { return SysVar{Name: name, Alias: of} }

func noop(sv SysVar) SysVar { sv.NoOp = true; return sv }

func validated(sv SysVar, f func(string) (string, []error, error)) SysVar {
	sv.Validate = f
	return sv
}

const maxUint32 = math.MaxUint32

// builtins is every built-in variable: MySQL's, then TiDB's.
func builtins() []SysVar { return append(mysqlVars(), tidbVars()...) }
