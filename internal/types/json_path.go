package types

import (
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// ErrInvalidJSONPath is the error of ParseJSONPath (MySQL 3143);
// JSONPathError says where.
var ErrInvalidJSONPath = errors.New("invalid JSON path")

// JSONPathError is a path syntax error at a 1-based character position.
type JSONPathError struct{ Pos int }

func (e *JSONPathError) Error() string {
	return fmt.Sprintf("Invalid JSON path expression. The error is around character position %d.", e.Pos)
}

// Unwrap makes errors.Is(err, ErrInvalidJSONPath) hold.
func (e *JSONPathError) Unwrap() error { return ErrInvalidJSONPath }

type legKind byte

const (
	legMember     legKind = iota // .key
	legMemberAll                 // .*
	legIndex                     // [n], [last-n]
	legRange                     // [m to n]
	legIndexAll                  // [*]
	legDescendant                // **
)

// arrayIndex is n, or last-n when fromEnd.
type arrayIndex struct {
	n       int
	fromEnd bool
}

// resolve returns the position the index designates in an array of
// length n (possibly out of range: negative or >= n).
func (a arrayIndex) resolve(n int) int {
	if a.fromEnd {
		return n - 1 - a.n
	}
	return a.n
}

type pathLeg struct {
	kind   legKind
	key    string
	lo, hi arrayIndex
}

// JSONPath is a parsed MySQL JSON path: '$' then member (.key, ."key",
// .*), array ([n], [last], [last-n], [m to n], [*]) and '**' legs.
type JSONPath struct {
	legs []pathLeg
	text string
}

// String returns the path's text.
func (p JSONPath) String() string { return p.text }

// HasWildcard reports whether the path may match more than one value
// (*, **, ranges).
func (p JSONPath) HasWildcard() bool {
	for _, l := range p.legs {
		switch l.kind {
		case legMemberAll, legRange, legIndexAll, legDescendant:
			return true
		}
	}
	return false
}

// IsRoot reports whether the path is '$'.
func (p JSONPath) IsRoot() bool { return len(p.legs) == 0 }

// ParseJSONPath parses a path expression.
func ParseJSONPath(s string) (JSONPath, error) {
	p := pathParser{s: s}
	p.space()
	if p.pos >= len(s) || s[p.pos] != '$' {
		return JSONPath{}, p.fail()
	}
	p.pos++
	var legs []pathLeg
	for {
		p.space()
		if p.pos >= len(s) {
			break
		}
		leg, err := p.leg()
		if err != nil {
			return JSONPath{}, err
		}
		legs = append(legs, leg)
	}
	if n := len(legs); n > 0 && legs[n-1].kind == legDescendant {
		return JSONPath{}, &JSONPathError{Pos: len(s)}
	}
	return JSONPath{legs: legs, text: s}, nil
}

type pathParser struct {
	s   string
	pos int
}

func (p *pathParser) fail() error { return &JSONPathError{Pos: min(p.pos+1, max(len(p.s), 1))} }

func (p *pathParser) space() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\n' || p.s[p.pos] == '\r') {
		p.pos++
	}
}

func (p *pathParser) leg() (pathLeg, error) {
	switch p.s[p.pos] {
	case '.':
		p.pos++
		p.space()
		if p.pos >= len(p.s) {
			return pathLeg{}, p.fail()
		}
		if p.s[p.pos] == '*' {
			p.pos++
			return pathLeg{kind: legMemberAll}, nil
		}
		if p.s[p.pos] == '"' {
			j := jsonParser{s: p.s, pos: p.pos}
			k, err := j.str()
			if err != nil {
				return pathLeg{}, p.fail()
			}
			p.pos = j.pos
			return pathLeg{kind: legMember, key: k}, nil
		}
		start := p.pos
		for p.pos < len(p.s) {
			r, n := utf8.DecodeRuneInString(p.s[p.pos:])
			if !(r == '_' || r == '$' || unicode.IsLetter(r) || (p.pos > start && unicode.IsDigit(r))) {
				break
			}
			p.pos += n
		}
		if p.pos == start {
			return pathLeg{}, p.fail()
		}
		return pathLeg{kind: legMember, key: p.s[start:p.pos]}, nil
	case '[':
		p.pos++
		p.space()
		if p.pos < len(p.s) && p.s[p.pos] == '*' {
			p.pos++
			p.space()
			if p.pos >= len(p.s) || p.s[p.pos] != ']' {
				return pathLeg{}, p.fail()
			}
			p.pos++
			return pathLeg{kind: legIndexAll}, nil
		}
		lo, err := p.index()
		if err != nil {
			return pathLeg{}, err
		}
		leg := pathLeg{kind: legIndex, lo: lo}
		p.space()
		if len(p.s)-p.pos > 2 && p.s[p.pos:p.pos+2] == "to" {
			p.pos += 2
			p.space()
			hi, err := p.index()
			if err != nil {
				return pathLeg{}, err
			}
			leg.kind, leg.hi = legRange, hi
			p.space()
		}
		if p.pos >= len(p.s) || p.s[p.pos] != ']' {
			return pathLeg{}, p.fail()
		}
		p.pos++
		return leg, nil
	case '*':
		if p.pos+1 < len(p.s) && p.s[p.pos+1] == '*' {
			p.pos += 2
			return pathLeg{kind: legDescendant}, nil
		}
	}
	return pathLeg{}, p.fail()
}

func (p *pathParser) index() (arrayIndex, error) {
	var a arrayIndex
	if len(p.s)-p.pos >= 4 && p.s[p.pos:p.pos+4] == "last" {
		p.pos += 4
		a.fromEnd = true
		p.space()
		if p.pos >= len(p.s) || p.s[p.pos] != '-' {
			return a, nil
		}
		p.pos++
		p.space()
	}
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	if p.pos == start {
		return a, p.fail()
	}
	n, err := strconv.ParseUint(p.s[start:p.pos], 10, 31)
	if err != nil {
		return a, p.fail()
	}
	a.n = int(n)
	return a, nil
}

// Extract returns the values the path selects in j, in document order
// (JSON_EXTRACT).
func (p JSONPath) Extract(j *JSON) []JSON {
	cur := []JSON{*j}
	for _, leg := range p.legs {
		var next []JSON
		for i := range cur {
			next = applyLeg(next, &cur[i], leg)
		}
		cur = next
		if len(cur) == 0 {
			break
		}
	}
	return cur
}

func applyLeg(out []JSON, j *JSON, leg pathLeg) []JSON {
	switch leg.kind {
	case legMember:
		if j.Type == JSONObject {
			if v, ok := j.Lookup(leg.key); ok {
				out = append(out, v)
			}
		}
	case legMemberAll:
		if j.Type == JSONObject {
			out = append(out, j.Elems...)
		}
	case legIndex, legRange, legIndexAll:
		elems := []JSON{*j} // a non-array is an array of one in paths
		if j.Type == JSONArray {
			elems = j.Elems
		}
		n := len(elems)
		switch leg.kind {
		case legIndexAll:
			if j.Type == JSONArray {
				out = append(out, elems...)
			}
		case legIndex:
			if i := leg.lo.resolve(n); i >= 0 && i < n {
				out = append(out, elems[i])
			}
		case legRange:
			lo, hi := max(leg.lo.resolve(n), 0), min(leg.hi.resolve(n), n-1)
			for i := lo; i <= hi; i++ {
				out = append(out, elems[i])
			}
		}
	case legDescendant:
		out = appendDescendants(out, j)
	}
	return out
}

// appendDescendants appends j and every value nested in it (for '**',
// whose next leg then applies to each).
func appendDescendants(out []JSON, j *JSON) []JSON {
	out = append(out, *j)
	for i := range j.Elems {
		out = appendDescendants(out, &j.Elems[i])
	}
	return out
}

// JSONModifyMode selects what JSONModify does at a path: JSON_SET both
// replaces and adds, JSON_INSERT only adds, JSON_REPLACE only replaces.
type JSONModifyMode byte

// Modify modes.
const (
	JSONSetMode JSONModifyMode = iota
	JSONInsertMode
	JSONReplaceMode
)

// Modify returns j with v placed at path p by mode (JSON_SET, JSON_INSERT,
// JSON_REPLACE): a missing object member is added, an array index past
// the end appends, and a non-array is wrapped into an array to append to
// it; a path whose parent does not exist changes nothing. The path must
// have no wildcards.
func (p JSONPath) Modify(j JSON, v JSON, mode JSONModifyMode) JSON {
	return modifyAt(j, p.legs, v, mode)
}

func modifyAt(j JSON, legs []pathLeg, v JSON, mode JSONModifyMode) JSON {
	if len(legs) == 0 {
		if mode == JSONInsertMode {
			return j
		}
		return v
	}
	leg := legs[0]
	last := len(legs) == 1
	switch leg.kind {
	case legMember:
		if j.Type != JSONObject {
			return j
		}
		child, ok := j.Lookup(leg.key)
		if !ok {
			if last && mode != JSONReplaceMode {
				return j.withMember(leg.key, v)
			}
			return j
		}
		return j.withMember(leg.key, modifyAt(child, legs[1:], v, mode))
	case legIndex:
		if j.Type != JSONArray {
			if leg.lo.resolve(1) == 0 {
				return modifyAt(j, legs[1:], v, mode)
			}
			if last && mode != JSONReplaceMode && leg.lo.resolve(1) > 0 {
				return JSONFromArray([]JSON{j, v})
			}
			return j
		}
		i := leg.lo.resolve(len(j.Elems))
		if i < 0 {
			return j
		}
		if i >= len(j.Elems) {
			if last && mode != JSONReplaceMode {
				elems := append(append(make([]JSON, 0, len(j.Elems)+1), j.Elems...), v)
				return JSONFromArray(elems)
			}
			return j
		}
		elems := append([]JSON(nil), j.Elems...)
		elems[i] = modifyAt(j.Elems[i], legs[1:], v, mode)
		return JSONFromArray(elems)
	}
	return j
}

// Remove returns j without the value at path p (JSON_REMOVE); a path that
// selects nothing changes nothing. The path must have no wildcards and
// not be '$'.
func (p JSONPath) Remove(j JSON) JSON { return removeAt(j, p.legs) }

func removeAt(j JSON, legs []pathLeg) JSON {
	if len(legs) == 0 {
		return j
	}
	leg := legs[0]
	last := len(legs) == 1
	switch leg.kind {
	case legMember:
		if j.Type != JSONObject {
			return j
		}
		i, ok := j.keyIndex(leg.key)
		if !ok {
			return j
		}
		if last {
			return j.withoutMember(i)
		}
		return j.withMember(leg.key, removeAt(j.Elems[i], legs[1:]))
	case legIndex:
		if j.Type != JSONArray {
			if !last && leg.lo.resolve(1) == 0 {
				return removeAt(j, legs[1:])
			}
			return j
		}
		i := leg.lo.resolve(len(j.Elems))
		if i < 0 || i >= len(j.Elems) {
			return j
		}
		if last {
			return JSONFromArray(append(append([]JSON{}, j.Elems[:i]...), j.Elems[i+1:]...))
		}
		elems := append([]JSON(nil), j.Elems...)
		elems[i] = removeAt(j.Elems[i], legs[1:])
		return JSONFromArray(elems)
	}
	return j
}
