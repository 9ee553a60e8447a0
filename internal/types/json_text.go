package types

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrInvalidJSON is the error of ParseJSON: text that is not a JSON
// document. JSONSyntaxError carries MySQL's message and byte position.
var ErrInvalidJSON = errors.New("invalid JSON text")

// JSONSyntaxError is a JSON text error: MySQL's (rapidjson's) message and
// the byte offset it was found at.
type JSONSyntaxError struct {
	Msg string
	Pos int
}

func (e *JSONSyntaxError) Error() string {
	return fmt.Sprintf("%s at position %d", e.Msg, e.Pos)
}

// Unwrap makes errors.Is(err, ErrInvalidJSON) hold.
func (e *JSONSyntaxError) Unwrap() error { return ErrInvalidJSON }

// maxJSONDepth is MySQL's limit of nesting (error 3157 beyond it).
const maxJSONDepth = 100

// ParseJSON parses JSON text as MySQL does: RFC 8259 with surrounding
// whitespace; integers become INTEGER (UNSIGNED INTEGER above int64, DOUBLE
// above uint64), numbers with a fraction or exponent DOUBLE; a repeated
// object key keeps its last value.
func ParseJSON(s string) (JSON, error) {
	p := jsonParser{s: s}
	p.skipSpace()
	if p.pos >= len(s) {
		return JSON{}, p.fail("The document is empty.")
	}
	v, err := p.value(0)
	if err != nil {
		return JSON{}, err
	}
	p.skipSpace()
	if p.pos < len(s) {
		return JSON{}, p.fail("The document root must not be followed by other values.")
	}
	return v, nil
}

type jsonParser struct {
	s   string
	pos int
}

func (p *jsonParser) fail(msg string) error { return &JSONSyntaxError{Msg: msg, Pos: p.pos} }

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.s) {
		switch p.s[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jsonParser) value(depth int) (JSON, error) {
	if depth >= maxJSONDepth {
		return JSON{}, p.fail("The JSON document exceeds the maximum depth of 100.")
	}
	if p.pos >= len(p.s) {
		return JSON{}, p.fail("Invalid value.")
	}
	switch c := p.s[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		return JSONFromString(s), err
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case p.literal("true"):
		return JSONBool(true), nil
	case p.literal("false"):
		return JSONBool(false), nil
	case p.literal("null"):
		return JSONNullValue(), nil
	}
	return JSON{}, p.fail("Invalid value.")
}

func (p *jsonParser) literal(w string) bool {
	if len(p.s)-p.pos >= len(w) && p.s[p.pos:p.pos+len(w)] == w {
		p.pos += len(w)
		return true
	}
	return false
}

func (p *jsonParser) object(depth int) (JSON, error) {
	p.pos++ // '{'
	var b JSONObjectBuilder
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == '}' {
		p.pos++
		return b.Build(), nil
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.s) || p.s[p.pos] != '"' {
			return JSON{}, p.fail("Missing a name for object member.")
		}
		k, err := p.str()
		if err != nil {
			return JSON{}, err
		}
		p.skipSpace()
		if p.pos >= len(p.s) || p.s[p.pos] != ':' {
			return JSON{}, p.fail("Missing a colon after a name of object member.")
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return JSON{}, err
		}
		b.Add(k, v)
		p.skipSpace()
		if p.pos < len(p.s) {
			switch p.s[p.pos] {
			case ',':
				p.pos++
				continue
			case '}':
				p.pos++
				return b.Build(), nil
			}
		}
		return JSON{}, p.fail("Missing a comma or '}' after an object member.")
	}
}

func (p *jsonParser) array(depth int) (JSON, error) {
	p.pos++ // '['
	elems := []JSON{}
	p.skipSpace()
	if p.pos < len(p.s) && p.s[p.pos] == ']' {
		p.pos++
		return JSONFromArray(elems), nil
	}
	for {
		p.skipSpace()
		v, err := p.value(depth + 1)
		if err != nil {
			return JSON{}, err
		}
		elems = append(elems, v)
		p.skipSpace()
		if p.pos < len(p.s) {
			switch p.s[p.pos] {
			case ',':
				p.pos++
				continue
			case ']':
				p.pos++
				return JSONFromArray(elems), nil
			}
		}
		return JSON{}, p.fail("Missing a comma or ']' after an array element.")
	}
}

// str reads a string literal at p.pos (on its opening quote).
func (p *jsonParser) str() (string, error) {
	start := p.pos
	p.pos++
	// Fast path: no escapes.
	for i := p.pos; i < len(p.s); i++ {
		c := p.s[i]
		if c == '"' {
			s := p.s[p.pos:i]
			if !utf8.ValidString(s) {
				break
			}
			p.pos = i + 1
			return s, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
	}
	var out []byte
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(out), nil
		case c == '\\':
			if p.pos+1 >= len(p.s) {
				p.pos = start
				return "", p.fail("Missing a closing quotation mark in string.")
			}
			esc := p.s[p.pos+1]
			p.pos += 2
			switch esc {
			case '"', '\\', '/':
				out = append(out, esc)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					if len(p.s)-p.pos < 6 || p.s[p.pos] != '\\' || p.s[p.pos+1] != 'u' {
						return "", p.fail("The surrogate pair in string is invalid.")
					}
					p.pos += 2
					r2, err := p.hex4()
					if err != nil {
						return "", err
					}
					r = utf16.DecodeRune(r, r2)
					if r == utf8.RuneError {
						return "", p.fail("The surrogate pair in string is invalid.")
					}
				}
				out = utf8.AppendRune(out, r)
			default:
				p.pos -= 2
				return "", p.fail("Invalid escape character in string.")
			}
		case c < 0x20:
			return "", p.fail("Invalid encoding in string.")
		default:
			r, n := utf8.DecodeRuneInString(p.s[p.pos:])
			if r == utf8.RuneError && n <= 1 {
				return "", p.fail("Invalid encoding in string.")
			}
			out = append(out, p.s[p.pos:p.pos+n]...)
			p.pos += n
		}
	}
	p.pos = len(p.s)
	return "", p.fail("Missing a closing quotation mark in string.")
}

func (p *jsonParser) hex4() (rune, error) {
	if len(p.s)-p.pos < 4 {
		return 0, p.fail("Incorrect hex digit after \\u escape in string.")
	}
	v, err := strconv.ParseUint(p.s[p.pos:p.pos+4], 16, 32)
	if err != nil {
		return 0, p.fail("Incorrect hex digit after \\u escape in string.")
	}
	p.pos += 4
	return rune(v), nil
}

func (p *jsonParser) number() (JSON, error) {
	start := p.pos
	if p.s[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	if p.pos >= len(p.s) || p.s[p.pos] < '0' || p.s[p.pos] > '9' {
		return JSON{}, p.fail("Invalid value.")
	}
	if p.s[p.pos] == '0' {
		p.pos++
	} else {
		digits()
	}
	isFloat := false
	if p.pos < len(p.s) && p.s[p.pos] == '.' {
		p.pos++
		isFloat = true
		if digits() == 0 {
			return JSON{}, p.fail("Miss fraction part in number.")
		}
	}
	if p.pos < len(p.s) && (p.s[p.pos] == 'e' || p.s[p.pos] == 'E') {
		p.pos++
		isFloat = true
		if p.pos < len(p.s) && (p.s[p.pos] == '+' || p.s[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return JSON{}, p.fail("Miss exponent in number.")
		}
	}
	text := p.s[start:p.pos]
	if !isFloat {
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			return JSONFromInt(v), nil
		}
		if v, err := strconv.ParseUint(text, 10, 64); err == nil {
			return JSONFromUint(v), nil
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) {
		p.pos = start
		return JSON{}, p.fail("Number too big to be stored in double.")
	}
	return JSONFromFloat(f), nil
}

// String renders j as MySQL prints JSON: `{"a": 1, "b": [1, 2]}`.
func (j JSON) String() string { return string(j.AppendText(nil)) }

// AppendText appends MySQL's text form of j.
func (j *JSON) AppendText(b []byte) []byte {
	switch j.Type {
	case JSONNull:
		return append(b, "null"...)
	case JSONBoolean:
		if j.Bool {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case JSONInt:
		return strconv.AppendInt(b, j.Int, 10)
	case JSONUint:
		return strconv.AppendUint(b, uint64(j.Int), 10)
	case JSONDouble:
		return appendJSONDouble(b, j.Float)
	case JSONDecimal:
		return append(b, j.Dec.String()...)
	case JSONString:
		return AppendJSONQuoted(b, j.Str)
	case JSONDate, JSONDatetime:
		t := j.Time
		if j.Type == JSONDatetime {
			t.Fsp = MaxFsp
		}
		b = append(b, '"')
		b = t.AppendFormat(b)
		return append(b, '"')
	case JSONTime:
		d := j.Dur
		d.Fsp = MaxFsp
		b = append(b, '"')
		b = d.AppendFormat(b)
		return append(b, '"')
	case JSONArray:
		b = append(b, '[')
		for i := range j.Elems {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = j.Elems[i].AppendText(b)
		}
		return append(b, ']')
	case JSONObject:
		b = append(b, '{')
		for i := range j.Elems {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = AppendJSONQuoted(b, j.Keys[i])
			b = append(b, ": "...)
			b = j.Elems[i].AppendText(b)
		}
		return append(b, '}')
	}
	return b
}

// appendJSONDouble prints a double as MySQL's JSON does: as a DOUBLE
// column prints (FormatFloat), with ".0" added to integral values so that
// they read back as doubles (1.5e3 is 1500.0).
func appendJSONDouble(b []byte, f float64) []byte {
	start := len(b)
	b = AppendFloat(b, f, 64, -1)
	for _, c := range b[start:] {
		if c == '.' || c == 'e' {
			return b
		}
	}
	return append(b, ".0"...)
}

// AppendJSONQuoted appends s as a JSON string literal with MySQL's
// escapes (\" \\ \b \f \n \r \t and \u00XX for other control characters;
// everything else as is).
func AppendJSONQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x20 {
				b = append(b, fmt.Sprintf("\\u%04x", c)...)
			} else {
				b = append(b, c)
			}
		}
	}
	return append(b, '"')
}

// Unquote is JSON_UNQUOTE of j, and what ->> returns: a string's value
// without quotes or escapes, any other value's text.
func (j *JSON) Unquote() string {
	switch j.Type {
	case JSONString:
		return j.Str
	case JSONDate, JSONDatetime, JSONTime:
		s := j.String()
		return s[1 : len(s)-1]
	}
	return j.String()
}
