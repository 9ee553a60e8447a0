package types

import (
	"sort"

	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// JSONType is the type of a JSON value, as JSON_TYPE names it.
type JSONType byte

// JSON value types. Numbers keep MySQL's distinction between signed and
// unsigned integers, doubles and decimals (JSON_ARRAY(1.50) keeps its
// scale); dates and times are MySQL's opaque temporal scalars
// (CAST(NOW() AS JSON)).
const (
	JSONNull JSONType = iota
	JSONBoolean
	JSONInt
	JSONUint
	JSONDouble
	JSONDecimal
	JSONString
	JSONArray
	JSONObject
	JSONDate
	JSONDatetime
	JSONTime
)

// String returns JSON_TYPE's name of the type.
func (t JSONType) String() string {
	switch t {
	case JSONNull:
		return "NULL"
	case JSONBoolean:
		return "BOOLEAN"
	case JSONInt:
		return "INTEGER"
	case JSONUint:
		return "UNSIGNED INTEGER"
	case JSONDouble:
		return "DOUBLE"
	case JSONDecimal:
		return "DECIMAL"
	case JSONString:
		return "STRING"
	case JSONArray:
		return "ARRAY"
	case JSONObject:
		return "OBJECT"
	case JSONDate:
		return "DATE"
	case JSONDatetime:
		return "DATETIME"
	case JSONTime:
		return "TIME"
	}
	return "OPAQUE"
}

// JSON is one JSON value held as a tree. Object members are kept sorted
// the way MySQL stores them: by key length, then by key bytes, without
// duplicates (the last duplicate wins when parsing, as in MySQL 8).
//
// Values are immutable once built: the modifying operations (JSONSet,
// JSONRemove, ...) copy the nodes on the path they change and share the
// rest.
type JSON struct {
	Type JSONType
	// Bool is the value of a BOOLEAN.
	Bool bool
	// Int holds INTEGER values, UNSIGNED INTEGER ones as uint64 bits.
	Int int64
	// Float is the value of a DOUBLE.
	Float float64
	// Str is the value of a STRING.
	Str string
	// Dec is the value of a DECIMAL.
	Dec *Decimal
	// Time is the value of a DATE or DATETIME; Dur of a TIME.
	Time Time
	Dur  Duration
	// Elems are an ARRAY's elements or an OBJECT's values (in Keys
	// order).
	Elems []JSON
	// Keys are an OBJECT's member names, sorted by length then bytes.
	Keys []string
}

// JSONNullValue returns the JSON null literal.
func JSONNullValue() JSON { return JSON{Type: JSONNull} }

// JSONBool returns true or false.
func JSONBool(b bool) JSON { return JSON{Type: JSONBoolean, Bool: b} }

// JSONFromInt returns an INTEGER.
func JSONFromInt(v int64) JSON { return JSON{Type: JSONInt, Int: v} }

// JSONFromUint returns an UNSIGNED INTEGER.
func JSONFromUint(v uint64) JSON { return JSON{Type: JSONUint, Int: int64(v)} }

// JSONFromFloat returns a DOUBLE.
func JSONFromFloat(v float64) JSON { return JSON{Type: JSONDouble, Float: v} }

// JSONFromDecimal returns a DECIMAL.
func JSONFromDecimal(d *Decimal) JSON { return JSON{Type: JSONDecimal, Dec: d} }

// JSONFromString returns a STRING.
func JSONFromString(s string) JSON { return JSON{Type: JSONString, Str: s} }

// JSONFromArray returns an ARRAY of elems (not copied).
func JSONFromArray(elems []JSON) JSON {
	if elems == nil {
		elems = []JSON{}
	}
	return JSON{Type: JSONArray, Elems: elems}
}

// JSONFromTime returns a DATE (for a DATE value) or DATETIME scalar.
func JSONFromTime(t Time) JSON {
	if t.Type == mysql.TypeDate {
		return JSON{Type: JSONDate, Time: t}
	}
	return JSON{Type: JSONDatetime, Time: t}
}

// JSONFromDuration returns a TIME scalar.
func JSONFromDuration(d Duration) JSON { return JSON{Type: JSONTime, Dur: d} }

// JSONObjectBuilder collects the members of an object; the last value
// given for a key wins.
type JSONObjectBuilder struct {
	keys []string
	vals []JSON
}

// Add adds a member.
func (b *JSONObjectBuilder) Add(key string, v JSON) {
	b.keys = append(b.keys, key)
	b.vals = append(b.vals, v)
}

// Build returns the object, members sorted MySQL's way.
func (b *JSONObjectBuilder) Build() JSON {
	idx := make([]int, len(b.keys))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool { return jsonKeyLess(b.keys[idx[x]], b.keys[idx[y]]) })
	o := JSON{Type: JSONObject, Keys: make([]string, 0, len(idx)), Elems: make([]JSON, 0, len(idx))}
	for _, i := range idx {
		if n := len(o.Keys); n > 0 && o.Keys[n-1] == b.keys[i] {
			o.Elems[n-1] = b.vals[i] // stable sort: later duplicates come later
			continue
		}
		o.Keys = append(o.Keys, b.keys[i])
		o.Elems = append(o.Elems, b.vals[i])
	}
	return o
}

// jsonKeyLess orders object keys as MySQL stores them: shorter first,
// then by bytes.
func jsonKeyLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// Lookup returns an object's member key.
func (j *JSON) Lookup(key string) (JSON, bool) {
	i, ok := j.keyIndex(key)
	if !ok {
		return JSON{}, false
	}
	return j.Elems[i], true
}

// keyIndex returns the position of key in an object (or where it would
// be inserted) and whether it is there.
func (j *JSON) keyIndex(key string) (int, bool) {
	i := sort.Search(len(j.Keys), func(i int) bool { return !jsonKeyLess(j.Keys[i], key) })
	return i, i < len(j.Keys) && j.Keys[i] == key
}

// withMember returns a copy of object j with key set to v.
func (j JSON) withMember(key string, v JSON) JSON {
	i, ok := j.keyIndex(key)
	o := JSON{Type: JSONObject}
	if ok {
		o.Keys = j.Keys
		o.Elems = append([]JSON(nil), j.Elems...)
		o.Elems[i] = v
		return o
	}
	o.Keys = make([]string, 0, len(j.Keys)+1)
	o.Keys = append(append(append(o.Keys, j.Keys[:i]...), key), j.Keys[i:]...)
	o.Elems = make([]JSON, 0, len(j.Elems)+1)
	o.Elems = append(append(append(o.Elems, j.Elems[:i]...), v), j.Elems[i:]...)
	return o
}

// withoutMember returns a copy of object j without its member i.
func (j JSON) withoutMember(i int) JSON {
	return JSON{
		Type:  JSONObject,
		Keys:  append(append([]string(nil), j.Keys[:i]...), j.Keys[i+1:]...),
		Elems: append(append([]JSON(nil), j.Elems[:i]...), j.Elems[i+1:]...),
	}
}

// Len is JSON_LENGTH: elements of an array, members of an object, 1 for a
// scalar.
func (j *JSON) Len() int {
	switch j.Type {
	case JSONArray, JSONObject:
		return len(j.Elems)
	}
	return 1
}

// Depth is JSON_DEPTH: 1 for scalars and empty containers.
func (j *JSON) Depth() int {
	d := 0
	for i := range j.Elems {
		d = max(d, j.Elems[i].Depth())
	}
	return d + 1
}

// IsScalar reports whether j is neither an array nor an object.
func (j *JSON) IsScalar() bool { return j.Type != JSONArray && j.Type != JSONObject }

// IsNumber reports INTEGER, UNSIGNED INTEGER, DOUBLE and DECIMAL.
func (j *JSON) IsNumber() bool {
	switch j.Type {
	case JSONInt, JSONUint, JSONDouble, JSONDecimal:
		return true
	}
	return false
}

// MergePreserveJSON is JSON_MERGE_PRESERVE of two values: arrays are
// concatenated, objects merged member by member (a key in both merges its
// two values), and a scalar or object next to an array (or two scalars)
// is wrapped into an array first.
func MergePreserveJSON(a, b JSON) JSON {
	if a.Type == JSONObject && b.Type == JSONObject {
		r := a
		for i, k := range b.Keys {
			if v, ok := r.Lookup(k); ok {
				r = r.withMember(k, MergePreserveJSON(v, b.Elems[i]))
			} else {
				r = r.withMember(k, b.Elems[i])
			}
		}
		return r
	}
	wrap := func(j JSON) []JSON {
		if j.Type == JSONArray {
			return j.Elems
		}
		return []JSON{j}
	}
	ea, eb := wrap(a), wrap(b)
	return JSONFromArray(append(append(make([]JSON, 0, len(ea)+len(eb)), ea...), eb...))
}

// MergePatchJSON is JSON_MERGE_PATCH of two values (RFC 7396): a patch
// that is not an object replaces the target; an object patch sets each of
// its members on the target (an object, or {} if the target is not one),
// removing those whose value is null and merging nested objects.
func MergePatchJSON(target, patch JSON) JSON {
	if patch.Type != JSONObject {
		return patch
	}
	r := target
	if r.Type != JSONObject {
		r = JSON{Type: JSONObject}
	}
	for i, k := range patch.Keys {
		v := patch.Elems[i]
		if v.Type == JSONNull {
			if at, ok := r.keyIndex(k); ok {
				r = r.withoutMember(at)
			}
			continue
		}
		old, ok := r.Lookup(k)
		if !ok {
			old = JSON{Type: JSONNull}
		}
		r = r.withMember(k, MergePatchJSON(old, v))
	}
	return r
}
