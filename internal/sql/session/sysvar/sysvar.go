package sysvar

import (
	"math"
	"strconv"
	"strings"
)

// Scope says where a variable lives and which SET forms reach it.
type Scope uint8

const (
	// ScopeNone is a read-only variable with one server-wide value
	// (version, hostname): readable as @@name and @@global.name, never set.
	ScopeNone Scope = 0
	// ScopeGlobal is a server-wide variable set with SET GLOBAL.
	ScopeGlobal Scope = 1
	// ScopeSession is a per-connection variable.
	ScopeSession Scope = 2
	// ScopeBoth has a global value, which new sessions inherit, and a
	// session value.
	ScopeBoth = ScopeGlobal | ScopeSession
)

// HasGlobal reports whether s includes a global value.
func (s Scope) HasGlobal() bool { return s&ScopeGlobal != 0 || s == ScopeNone }

// HasSession reports whether s includes a session value.
func (s Scope) HasSession() bool { return s&ScopeSession != 0 }

// String returns GLOBAL, SESSION, BOTH or NONE.
func (s Scope) String() string {
	switch s {
	case ScopeGlobal:
		return "GLOBAL"
	case ScopeSession:
		return "SESSION"
	case ScopeBoth:
		return "BOTH"
	}
	return "NONE"
}

// Type is the value type of a variable; it decides validation and
// normalization.
type Type uint8

const (
	// TypeStr accepts any string (Validate may restrict it).
	TypeStr Type = iota
	// TypeBool accepts ON/OFF/1/0/TRUE/FALSE and stores "ON" or "OFF".
	TypeBool
	// TypeInt accepts a signed integer in [Min, Max]; out of range clamps
	// with WarnTruncated (MySQL's behaviour) unless ErrorOutOfRange.
	TypeInt
	// TypeUint accepts an unsigned integer in [Min, MaxUint].
	TypeUint
	// TypeFloat accepts a number in [MinFloat, MaxFloat].
	TypeFloat
	// TypeEnum accepts one of Values (case-insensitive) or its index.
	TypeEnum
	// TypeTimeZone accepts SYSTEM, '+hh:mm'/'-hh:mm' or a named zone.
	TypeTimeZone
)

// SysVar describes one system variable. Definitions are immutable once
// registered.
type SysVar struct {
	// Name is the lower-case name.
	Name string
	// Scope is where the variable lives.
	Scope Scope
	// Default is the compiled-in value (normalized).
	Default string
	// Type decides validation and normalization.
	Type Type
	// Min and Max bound TypeInt; Min (>= 0) and MaxUint bound TypeUint.
	Min, Max int64
	// MaxUint bounds TypeUint.
	MaxUint uint64
	// MinFloat and MaxFloat bound TypeFloat.
	MinFloat, MaxFloat float64
	// Values are the accepted values of TypeEnum, in canonical spelling.
	Values []string
	// ErrorOutOfRange makes an out-of-range integer an error instead of a
	// clamp with a warning.
	ErrorOutOfRange bool
	// Validate, if set, runs after the type's normalization and may
	// normalize further or reject (returning an error wrapping
	// ErrWrongValueForVar) or add warnings.
	Validate func(v string) (string, []error, error)
	// ReadOnly variables cannot be set by SET (the server may still change
	// session ones through Vars.SetInternal).
	ReadOnly bool
	// Check, if set, validates the normalized value against other
	// variables of the same scope (get returns their current values).
	Check func(get func(name string) string, v string) ([]error, error)
	// SessionReadOnly variables have a global value that SET GLOBAL
	// changes, and a session value that SET SESSION cannot
	// (max_allowed_packet in MySQL 8).
	SessionReadOnly bool
	// NoOp variables are accepted for compatibility and have no effect;
	// setting one returns a WarnNoEffect warning.
	NoOp bool
	// Hidden variables are left out of SHOW VARIABLES.
	Hidden bool
	// Dynamic session variables are computed by the session (warning_count):
	// Vars asks its Dynamic function first.
	Dynamic bool
	// Alias names the variable this one is another name of
	// (tx_isolation → transaction_isolation); the value lives there.
	Alias string
}

// Normalize validates value for sv and returns its canonical form, plus
// warnings (clamped values, no-op variables).
func (sv *SysVar) Normalize(value string) (string, []error, error) {
	var warns []error
	v, w, err := sv.normalizeType(value)
	if err != nil {
		return "", nil, err
	}
	if w != nil {
		warns = append(warns, w)
	}
	if sv.Validate != nil {
		var vw []error
		v, vw, err = sv.Validate(v)
		if err != nil {
			return "", nil, err
		}
		warns = append(warns, vw...)
	}
	if sv.NoOp {
		warns = append(warns, &Error{Kind: WarnNoEffect, Name: sv.Name})
	}
	return v, warns, nil
}

func (sv *SysVar) normalizeType(value string) (string, error, error) {
	switch sv.Type {
	case TypeBool:
		switch strings.ToUpper(strings.TrimSpace(value)) {
		case "ON", "1", "TRUE":
			return "ON", nil, nil
		case "OFF", "0", "FALSE":
			return "OFF", nil, nil
		}
		return "", nil, errWrongValue(sv.Name, value)
	case TypeInt:
		return sv.normalizeInt(value)
	case TypeUint:
		return sv.normalizeUint(value)
	case TypeFloat:
		f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil || math.IsNaN(f) {
			return "", nil, &Error{Kind: ErrWrongTypeForVar, Name: sv.Name, Value: value}
		}
		if f < sv.MinFloat || f > sv.MaxFloat {
			if sv.ErrorOutOfRange {
				return "", nil, errWrongValue(sv.Name, value)
			}
			f = min(max(f, sv.MinFloat), sv.MaxFloat)
			return strconv.FormatFloat(f, 'f', -1, 64), sv.truncated(value), nil
		}
		return strconv.FormatFloat(f, 'f', -1, 64), nil, nil
	case TypeEnum:
		t := strings.TrimSpace(value)
		for _, e := range sv.Values {
			if strings.EqualFold(e, t) {
				return e, nil, nil
			}
		}
		if i, err := strconv.ParseUint(t, 10, 32); err == nil && i < uint64(len(sv.Values)) {
			return sv.Values[i], nil, nil
		}
		return "", nil, errWrongValue(sv.Name, value)
	case TypeTimeZone:
		tz, err := normalizeTimeZone(value)
		if err != nil {
			return "", nil, &Error{Kind: ErrUnknownTimeZone, Name: sv.Name, Value: value}
		}
		return tz, nil, nil
	}
	return value, nil, nil
}

func (sv *SysVar) truncated(value string) error {
	return &Error{Kind: WarnTruncated, Name: sv.Name, Value: value}
}

// parseIntLoose parses an integer, reporting whether it was syntactically
// an integer and, if it overflowed, its sign.
func parseIntLoose(value string) (n int64, ok bool, overflow int) {
	t := strings.TrimSpace(value)
	n, err := strconv.ParseInt(t, 10, 64)
	if err == nil {
		return n, true, 0
	}
	if ne, isNum := err.(*strconv.NumError); isNum && ne.Err == strconv.ErrRange {
		if strings.HasPrefix(t, "-") {
			return math.MinInt64, true, -1
		}
		return math.MaxInt64, true, 1
	}
	return 0, false, 0
}

func (sv *SysVar) normalizeInt(value string) (string, error, error) {
	n, ok, _ := parseIntLoose(value)
	if !ok {
		return "", nil, &Error{Kind: ErrWrongTypeForVar, Name: sv.Name, Value: value}
	}
	if n < sv.Min || n > sv.Max {
		if sv.ErrorOutOfRange {
			return "", nil, errWrongValue(sv.Name, value)
		}
		return strconv.FormatInt(min(max(n, sv.Min), sv.Max), 10), sv.truncated(value), nil
	}
	return strconv.FormatInt(n, 10), nil, nil
}

func (sv *SysVar) normalizeUint(value string) (string, error, error) {
	t := strings.TrimSpace(value)
	u, err := strconv.ParseUint(t, 10, 64)
	if err != nil {
		n, ok, overflow := parseIntLoose(t)
		switch {
		case !ok:
			return "", nil, &Error{Kind: ErrWrongTypeForVar, Name: sv.Name, Value: value}
		case n < 0:
			u = 0 // negative: below any minimum
		case overflow > 0:
			u = math.MaxUint64
		}
		if sv.ErrorOutOfRange {
			return "", nil, errWrongValue(sv.Name, value)
		}
		return strconv.FormatUint(min(max(u, uint64(sv.Min)), sv.MaxUint), 10), sv.truncated(value), nil
	}
	if u < uint64(sv.Min) || u > sv.MaxUint {
		if sv.ErrorOutOfRange {
			return "", nil, errWrongValue(sv.Name, value)
		}
		return strconv.FormatUint(min(max(u, uint64(sv.Min)), sv.MaxUint), 10), sv.truncated(value), nil
	}
	return strconv.FormatUint(u, 10), nil, nil
}
