package sysvar

import (
	"maps"
	"slices"
	"time"
)

// Globals is an immutable snapshot of the global values: the ones set by
// SET GLOBAL (persisted in the cluster) over the registry's defaults.
type Globals struct {
	reg    *Registry
	values map[string]string // explicitly set, normalized, keyed by canonical name
	hot    hot
}

// GlobalSource hands out the current global snapshot. *GlobalStore is one;
// StaticGlobals is another, for tests and tools.
type GlobalSource interface {
	Globals() *Globals
}

type staticSource struct{ g *Globals }

func (s staticSource) Globals() *Globals { return s.g }

// StaticGlobals returns a source that always hands out g.
func StaticGlobals(g *Globals) GlobalSource { return staticSource{g} }

// NewGlobals returns a snapshot of reg's defaults overlaid with values
// (name → value, as stored). Values are normalized again: an unknown name
// (written by a newer server) or a value this registry rejects is skipped
// and reported in skipped, never fatal, so one bad row cannot stop a
// server from starting.
func NewGlobals(reg *Registry, values map[string]string) (g *Globals, skipped []string) {
	g = &Globals{reg: reg, values: make(map[string]string, len(values))}
	for name, v := range values {
		sv, err := reg.Resolve(name)
		if err != nil || !sv.Scope.HasGlobal() || sv.Scope == ScopeNone {
			skipped = append(skipped, name)
			continue
		}
		norm, _, err := sv.normalizeNoWarn(v)
		if err != nil {
			skipped = append(skipped, name)
			continue
		}
		g.values[sv.Name] = norm
	}
	g.fillHot()
	slices.Sort(skipped)
	return g, skipped
}

func (sv *SysVar) normalizeNoWarn(v string) (string, []error, error) {
	if sv.Type == TypeStr && sv.Validate == nil {
		return v, nil, nil
	}
	return sv.Normalize(v)
}

func (g *Globals) fillHot() {
	for _, n := range hotNames {
		sv, ok := g.reg.vars[n]
		if ok {
			g.hot.apply(n, g.value(sv), g.reg.systemLocation())
		}
	}
}

// Registry returns the definitions g is over.
func (g *Globals) Registry() *Registry { return g.reg }

// value is the global value of a canonical variable.
func (g *Globals) value(sv *SysVar) string {
	if v, ok := g.values[sv.Name]; ok {
		return v
	}
	return sv.Default
}

// Get returns the global value of name (@@global.name).
func (g *Globals) Get(name string) (string, error) {
	sv, err := g.reg.Resolve(name)
	if err != nil {
		return "", err
	}
	if !sv.Scope.HasGlobal() {
		return "", &Error{Kind: ErrIncorrectScope, Name: name, Scope: sv.Scope}
	}
	return g.value(sv), nil
}

// Set returns the explicitly set global values (a copy).
func (g *Globals) Set() map[string]string { return maps.Clone(g.values) }

// prepareSet validates SET GLOBAL name = value against g and returns the
// variable and the normalized value.
func (g *Globals) prepareSet(name, value string) (*SysVar, string, []error, error) {
	sv, err := g.reg.Resolve(name)
	if err != nil {
		return nil, "", nil, err
	}
	switch {
	case sv.Scope == ScopeNone || sv.ReadOnly:
		return nil, "", nil, &Error{Kind: ErrReadOnly, Name: name}
	case !sv.Scope.HasGlobal():
		return nil, "", nil, &Error{Kind: ErrIncorrectScope, Name: name, Scope: sv.Scope, Set: true}
	}
	norm, warns, err := sv.Normalize(value)
	if err != nil {
		return nil, "", nil, err
	}
	if sv.Check != nil {
		cw, err := sv.Check(func(n string) string { v, _ := g.Get(n); return v }, norm)
		if err != nil {
			return nil, "", nil, err
		}
		warns = append(warns, cw...)
	}
	return sv, norm, warns, nil
}

// systemLocation is the zone of time_zone = SYSTEM.
func (r *Registry) systemLocation() *time.Location {
	if r.system != nil {
		return r.system
	}
	return time.Local
}
