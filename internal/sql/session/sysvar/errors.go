package sysvar

import (
	"errors"
	"fmt"
)

// Sentinel errors; every error this package returns wraps one of them
// (check with errors.Is). The SQL boundary maps them to MySQL codes:
// ErrUnknownSystemVariable 1193, ErrIncorrectScope 1238 (reading) or 1228 /
// 1229 (setting), ErrWrongValueForVar 1231, ErrWrongTypeForVar 1232,
// ErrReadOnly 1238 (1621 for SET SESSION of a SessionReadOnly variable),
// ErrNotSupported 8048, ErrUnknownTimeZone 1298.
var (
	// ErrUnknownSystemVariable: no variable of that name exists.
	ErrUnknownSystemVariable = errors.New("unknown system variable")
	// ErrIncorrectScope: the variable exists but not in the requested
	// scope (SET GLOBAL of a session-only variable, @@session of a
	// global-only one, ...).
	ErrIncorrectScope = errors.New("incorrect scope for system variable")
	// ErrWrongValueForVar: the value is not one the variable accepts.
	ErrWrongValueForVar = errors.New("wrong value for system variable")
	// ErrWrongTypeForVar: the value has the wrong type (a string for an
	// integer variable).
	ErrWrongTypeForVar = errors.New("incorrect argument type to system variable")
	// ErrReadOnly: the variable cannot be set.
	ErrReadOnly = errors.New("read-only system variable")
	// ErrUnknownTimeZone: time_zone names no zone Strata knows (MySQL
	// 1298).
	ErrUnknownTimeZone = errors.New("unknown or incorrect time zone")
	// ErrNotSupported: a valid MySQL value that Strata does not implement
	// (SERIALIZABLE isolation); TiDB's error 8048.
	ErrNotSupported = errors.New("system variable value not supported")

	// WarnTruncated marks a warning: the value was out of range and was
	// clamped (MySQL warning 1292).
	WarnTruncated = errors.New("truncated incorrect system variable value")
	// WarnNoEffect marks a warning: the variable is accepted for
	// compatibility and has no effect in Strata.
	WarnNoEffect = errors.New("system variable has no effect")
)

// Error is the error (or warning) about one variable. Kind is one of the
// sentinels above; Error() is MySQL's message text for it.
type Error struct {
	Kind  error
	Name  string
	Value string
	// Scope is the scope the variable does have, for ErrIncorrectScope.
	Scope Scope
	// Set marks an error of an assignment rather than a read (MySQL's
	// messages differ: 1228/1229 versus 1238).
	Set bool
	// Msg, if set, is the whole message.
	Msg string
	// Detail is optional extra text.
	Detail string
}

// Is reports whether target is e's Kind.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Error returns MySQL's message for e.
func (e *Error) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	var s string
	switch e.Kind {
	case ErrUnknownSystemVariable:
		s = fmt.Sprintf("Unknown system variable '%s'", e.Name)
	case ErrIncorrectScope:
		switch {
		case e.Scope == ScopeGlobal && e.Set:
			s = fmt.Sprintf("Variable '%s' is a GLOBAL variable and should be set with SET GLOBAL", e.Name)
		case e.Scope == ScopeSession && e.Set:
			s = fmt.Sprintf("Variable '%s' is a SESSION variable and can't be used with SET GLOBAL", e.Name)
		case e.Scope == ScopeGlobal:
			s = fmt.Sprintf("Variable '%s' is a GLOBAL variable", e.Name)
		case e.Scope == ScopeSession:
			s = fmt.Sprintf("Variable '%s' is a SESSION variable", e.Name)
		default:
			s = fmt.Sprintf("Variable '%s' cannot be used in this scope", e.Name)
		}
	case ErrWrongValueForVar:
		s = fmt.Sprintf("Variable '%s' can't be set to the value of '%s'", e.Name, e.Value)
	case ErrWrongTypeForVar:
		s = fmt.Sprintf("Incorrect argument type to variable '%s'", e.Name)
	case ErrReadOnly:
		s = fmt.Sprintf("Variable '%s' is a read only variable", e.Name)
	case ErrUnknownTimeZone:
		s = fmt.Sprintf("Unknown or incorrect time zone: '%s'", e.Value)
	case ErrNotSupported:
		s = fmt.Sprintf("Value '%s' of variable '%s' is not supported", e.Value, e.Name)
	case WarnTruncated:
		s = fmt.Sprintf("Truncated incorrect %s value: '%s'", e.Name, e.Value)
	case WarnNoEffect:
		s = fmt.Sprintf("Variable '%s' is accepted for compatibility and has no effect in Strata", e.Name)
	default:
		s = fmt.Sprintf("system variable '%s': %v", e.Name, e.Kind)
	}
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

func errUnknown(name string) error { return &Error{Kind: ErrUnknownSystemVariable, Name: name} }

func errWrongValue(name, value string) error {
	return &Error{Kind: ErrWrongValueForVar, Name: name, Value: value}
}
