package types

import (
	"errors"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
)

func mustJSON(t *testing.T, s string) JSON {
	t.Helper()
	j, err := ParseJSON(s)
	if err != nil {
		t.Fatalf("ParseJSON(%q): %v", s, err)
	}
	return j
}

// TestJSONText pins MySQL's output format: a space after ':' and ',',
// object keys sorted by length then bytes, the last duplicate key kept,
// doubles with ".0" when integral.
func TestJSONText(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{`{"b":1,"a":[1,2]}`, `{"a": [1, 2], "b": 1}`},
		{`{"bb":1,"a":2,"c":3}`, `{"a": 2, "c": 3, "bb": 1}`},
		{`{"a":1,"a":2}`, `{"a": 2}`},
		{` [ ] `, `[]`},
		{`{}`, `{}`},
		{`1.5e3`, `1500.0`},
		{`-0.25`, `-0.25`},
		{`18446744073709551615`, `18446744073709551615`},
		{`-9223372036854775808`, `-9223372036854775808`},
		{`1e20`, `1e20`},
		{`"a\"b\\c\n\u0001\u00e9"`, `"a\"b\\c\n\u0001é"`},
		{`[true,false,null]`, `[true, false, null]`},
		{`"\ud83d\ude00"`, `"😀"`},
	} {
		j := mustJSON(t, c.in)
		if got := j.String(); got != c.out {
			t.Errorf("%s: got %s, want %s", c.in, got, c.out)
		}
	}
}

// TestJSONSyntaxErrors checks rapidjson's messages and byte positions,
// which MySQL's errors 3140/3141 quote.
func TestJSONSyntaxErrors(t *testing.T) {
	for _, c := range []struct {
		in  string
		msg string
		pos int
	}{
		{``, "The document is empty.", 0},
		{`{a:1}`, "Missing a name for object member.", 1},
		{`{"a" 1}`, "Missing a colon after a name of object member.", 5},
		{`{"a":1`, "Missing a comma or '}' after an object member.", 6},
		{`[1 2]`, "Missing a comma or ']' after an array element.", 3},
		{`[1] x`, "The document root must not be followed by other values.", 4},
		{`nul`, "Invalid value.", 0},
		{`"abc`, "Missing a closing quotation mark in string.", 4},
		{`1.`, "Miss fraction part in number.", 2},
		{`1e`, "Miss exponent in number.", 2},
		{`"\x"`, "Invalid escape character in string.", 1},
	} {
		_, err := ParseJSON(c.in)
		var se *JSONSyntaxError
		if !errors.As(err, &se) || !errors.Is(err, ErrInvalidJSON) {
			t.Errorf("%q: got %v, want a syntax error", c.in, err)
			continue
		}
		if se.Msg != c.msg || se.Pos != c.pos {
			t.Errorf("%q: got %q at %d, want %q at %d", c.in, se.Msg, se.Pos, c.msg, c.pos)
		}
	}
}

// TestJSONTypes checks that numbers keep MySQL's types.
func TestJSONTypes(t *testing.T) {
	for in, want := range map[string]JSONType{
		`1`: JSONInt, `-1`: JSONInt, `9223372036854775808`: JSONUint, `1.0`: JSONDouble,
		`1e2`: JSONDouble, `"x"`: JSONString, `[]`: JSONArray, `{}`: JSONObject,
		`true`: JSONBoolean, `null`: JSONNull, `99999999999999999999`: JSONDouble,
	} {
		if got := mustJSON(t, in).Type; got != want {
			t.Errorf("%s: type %s, want %s", in, got, want)
		}
	}
	d, _ := ParseDecimal("1.50")
	if got := JSONFromDecimal(d).String(); got != "1.50" {
		t.Errorf("decimal: %s", got)
	}
}

// TestJSONBinaryRoundTrip encodes random documents and decodes them back,
// checking value, type and text.
func TestJSONBinaryRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 500; i++ {
		j := randomJSON(r, 0)
		b := EncodeJSON(nil, &j)
		back, err := DecodeJSON(b)
		if err != nil {
			t.Fatalf("%s: %v", j, err)
		}
		if CompareJSON(&j, &back) != 0 || j.String() != back.String() || back.Type != j.Type {
			t.Fatalf("round trip: %s became %s", j, back)
		}
		// Every proper prefix is corrupt, never a panic.
		for n := 0; n < len(b); n++ {
			if _, err := DecodeJSON(b[:n]); err == nil {
				t.Fatalf("%s: prefix of %d bytes decoded", j, n)
			}
		}
	}
}

func randomJSON(r *rand.Rand, depth int) JSON {
	k := r.Intn(12)
	if depth > 3 && k >= 9 {
		k = r.Intn(9)
	}
	switch k {
	case 0:
		return JSONNullValue()
	case 1:
		return JSONBool(r.Intn(2) == 0)
	case 2:
		return JSONFromInt(r.Int63() - r.Int63())
	case 3:
		return JSONFromUint(r.Uint64())
	case 4:
		return JSONFromFloat(r.NormFloat64() * 1e6)
	case 5:
		d, _ := ParseDecimal(strconv.Itoa(r.Intn(100000)) + "." + strconv.Itoa(r.Intn(1000)))
		return JSONFromDecimal(d)
	case 6:
		return JSONFromString(strings.Repeat("é\"\\x", r.Intn(4)))
	case 7:
		return JSONFromTime(Time{Year: 2024, Month: 2, Day: 29, Hour: 1, Second: 2, Microsecond: 3, Type: mysql.TypeDatetime, Fsp: 6})
	case 8:
		return JSONFromDuration(Duration{D: -3600e9, Fsp: 0})
	case 9, 10:
		elems := make([]JSON, r.Intn(4))
		for i := range elems {
			elems[i] = randomJSON(r, depth+1)
		}
		return JSONFromArray(elems)
	}
	var b JSONObjectBuilder
	for i := r.Intn(4); i > 0; i-- {
		b.Add(strconv.Itoa(r.Intn(200)), randomJSON(r, depth+1))
	}
	return b.Build()
}

// TestJSONCompare checks MySQL's comparison rules.
func TestJSONCompare(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{`1`, `1.0`, 0},
		{`1`, `2`, -1},
		{`18446744073709551615`, `-1`, 1},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, 0},
		{`{"a":1}`, `{"a":2}`, -1},
		{`[1,2]`, `[1,2,0]`, -1},
		{`[1,3]`, `[1,2,9]`, 1},
		{`"abc"`, `"abd"`, -1},
		{`null`, `0`, -1},
		{`1`, `"1"`, -1},
		{`"z"`, `{}`, -1},
		{`{}`, `[]`, -1},
		{`[]`, `false`, -1},
		{`false`, `true`, -1},
	} {
		a, b := mustJSON(t, c.a), mustJSON(t, c.b)
		if got := CompareJSON(&a, &b); got != c.want {
			t.Errorf("%s vs %s: %d, want %d", c.a, c.b, got, c.want)
		}
		if got := CompareJSON(&b, &a); got != -c.want {
			t.Errorf("%s vs %s: %d, want %d", c.b, c.a, got, -c.want)
		}
	}
}

// TestJSONPath covers path syntax and extraction.
func TestJSONPath(t *testing.T) {
	doc := mustJSON(t, `{"a": [1, 2, {"c": 3}], "b": {"c": 4}, "key x": 5}`)
	for _, c := range []struct{ path, want string }{
		{`$`, `[{"a": [1, 2, {"c": 3}], "b": {"c": 4}, "key x": 5}]`},
		{`$.a[2].c`, `[3]`},
		{`$.a[last]`, `[{"c": 3}]`},
		{`$.a[last-1]`, `[2]`},
		{`$.a[0 to 1]`, `[1, 2]`},
		{`$.a[*]`, `[1, 2, {"c": 3}]`},
		{`$.*.c`, `[4]`},
		{`$**.c`, `[3, 4]`},
		{`$."key x"`, `[5]`},
		{`$.b[0].c`, `[4]`},
		{`$.zz`, `[]`},
		{`$.a[5]`, `[]`},
	} {
		p, err := ParseJSONPath(c.path)
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if got := JSONFromArray(p.Extract(&doc)).String(); got != c.want {
			t.Errorf("%s: got %s, want %s", c.path, got, c.want)
		}
	}
	for _, bad := range []string{``, `a`, `$.`, `$[`, `$[x]`, `$**`, `$.a.`, `$[1 to]`} {
		if _, err := ParseJSONPath(bad); !errors.Is(err, ErrInvalidJSONPath) {
			t.Errorf("%q: got %v, want a path error", bad, err)
		}
	}
}

// TestJSONModify covers JSON_SET / INSERT / REPLACE / REMOVE semantics.
func TestJSONModify(t *testing.T) {
	for _, c := range []struct {
		doc, path, val string
		mode           JSONModifyMode
		want           string
	}{
		{`{"a":1}`, `$.b`, `2`, JSONSetMode, `{"a": 1, "b": 2}`},
		{`{"a":1}`, `$.a`, `2`, JSONInsertMode, `{"a": 1}`},
		{`{"a":1}`, `$.b`, `2`, JSONReplaceMode, `{"a": 1}`},
		{`{"a":1}`, `$.a`, `2`, JSONReplaceMode, `{"a": 2}`},
		{`[1,2]`, `$[5]`, `3`, JSONSetMode, `[1, 2, 3]`},
		{`[1,2]`, `$[0]`, `3`, JSONInsertMode, `[1, 2]`},
		{`1`, `$[1]`, `2`, JSONSetMode, `[1, 2]`},
		{`1`, `$[0]`, `2`, JSONSetMode, `2`},
		{`{"a":{"b":1}}`, `$.a.c`, `[]`, JSONSetMode, `{"a": {"b": 1, "c": []}}`},
		{`{"a":1}`, `$.x.y`, `2`, JSONSetMode, `{"a": 1}`},
		{`{"a":1}`, `$`, `2`, JSONSetMode, `2`},
		{`{"a":1}`, `$`, `2`, JSONInsertMode, `{"a": 1}`},
	} {
		p, err := ParseJSONPath(c.path)
		if err != nil {
			t.Fatal(err)
		}
		doc := mustJSON(t, c.doc)
		got := p.Modify(doc, mustJSON(t, c.val), c.mode).String()
		if got != c.want {
			t.Errorf("%s %s %s (%d): got %s, want %s", c.doc, c.path, c.val, c.mode, got, c.want)
		}
		if doc.String() != mustJSON(t, c.doc).String() {
			t.Errorf("%s: the input document changed to %s", c.doc, doc)
		}
	}
	for _, c := range []struct{ doc, path, want string }{
		{`[1,2,3]`, `$[1]`, `[1, 3]`},
		{`{"a":1,"b":2}`, `$.a`, `{"b": 2}`},
		{`{"a":{"b":1,"c":2}}`, `$.a.b`, `{"a": {"c": 2}}`},
		{`{"a":1}`, `$.z`, `{"a": 1}`},
	} {
		p, _ := ParseJSONPath(c.path)
		if got := p.Remove(mustJSON(t, c.doc)).String(); got != c.want {
			t.Errorf("remove %s %s: got %s, want %s", c.doc, c.path, got, c.want)
		}
	}
}

// TestJSONContains covers JSON_CONTAINS's rules.
func TestJSONContains(t *testing.T) {
	for _, c := range []struct {
		target, cand string
		want         bool
	}{
		{`[1,2,3]`, `2`, true},
		{`[1,2,3]`, `[3,1]`, true},
		{`[1,2,3]`, `[4]`, false},
		{`{"a":1,"b":{"c":2,"d":3}}`, `{"b":{"c":2}}`, true},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`1`, `1.0`, true},
		{`1`, `[1]`, false},
		{`{"a":[1,2]}`, `{"a":1}`, true},
	} {
		a, b := mustJSON(t, c.target), mustJSON(t, c.cand)
		if got := ContainsJSON(&a, &b); got != c.want {
			t.Errorf("contains(%s, %s) = %v", c.target, c.cand, got)
		}
	}
}

// TestJSONMerge covers JSON_MERGE_PRESERVE and JSON_MERGE_PATCH.
func TestJSONMerge(t *testing.T) {
	if got := MergePreserveJSON(mustJSON(t, `{"a":1}`), mustJSON(t, `{"a":2,"b":3}`)).String(); got != `{"a": [1, 2], "b": 3}` {
		t.Errorf("preserve: %s", got)
	}
	if got := MergePreserveJSON(mustJSON(t, `1`), mustJSON(t, `[2]`)).String(); got != `[1, 2]` {
		t.Errorf("preserve scalar: %s", got)
	}
	if got := MergePatchJSON(mustJSON(t, `{"a":1,"b":{"c":1}}`), mustJSON(t, `{"a":null,"b":{"d":2}}`)).String(); got != `{"b": {"c": 1, "d": 2}}` {
		t.Errorf("patch: %s", got)
	}
}
