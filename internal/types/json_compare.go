package types

import (
	"cmp"
	"strings"
)

// jsonPrecedence ranks JSON types for comparison, as MySQL documents it:
// NULL < numbers < STRING < OBJECT < ARRAY < BOOLEAN < DATE < TIME <
// DATETIME. Values of different ranks order by rank.
func jsonPrecedence(t JSONType) int {
	switch t {
	case JSONNull:
		return 0
	case JSONInt, JSONUint, JSONDouble, JSONDecimal:
		return 1
	case JSONString:
		return 2
	case JSONObject:
		return 3
	case JSONArray:
		return 4
	case JSONBoolean:
		return 5
	case JSONDate:
		return 6
	case JSONTime:
		return 7
	case JSONDatetime:
		return 8
	}
	return 9
}

// CompareJSON orders two JSON values by MySQL's rules: by type precedence,
// then numbers by value (integers, doubles and decimals compare with each
// other), strings by bytes, arrays element by element (a prefix first),
// objects equal when they have the same members (other object orders are
// consistent but unspecified), false < true, temporal values by time.
func CompareJSON(a, b *JSON) int {
	pa, pb := jsonPrecedence(a.Type), jsonPrecedence(b.Type)
	if pa != pb {
		return cmp.Compare(pa, pb)
	}
	switch a.Type {
	case JSONNull:
		return 0
	case JSONInt, JSONUint, JSONDouble, JSONDecimal:
		return compareJSONNumbers(a, b)
	case JSONString:
		return strings.Compare(a.Str, b.Str)
	case JSONBoolean:
		return cmp.Compare(b2i(a.Bool), b2i(b.Bool))
	case JSONDate, JSONDatetime:
		return a.Time.Compare(b.Time)
	case JSONTime:
		return a.Dur.Compare(b.Dur)
	case JSONArray:
		for i := 0; i < len(a.Elems) && i < len(b.Elems); i++ {
			if c := CompareJSON(&a.Elems[i], &b.Elems[i]); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(a.Elems), len(b.Elems))
	case JSONObject:
		if c := cmp.Compare(len(a.Elems), len(b.Elems)); c != 0 {
			return c
		}
		for i := range a.Keys {
			if a.Keys[i] != b.Keys[i] {
				if jsonKeyLess(a.Keys[i], b.Keys[i]) {
					return -1
				}
				return 1
			}
			if c := CompareJSON(&a.Elems[i], &b.Elems[i]); c != 0 {
				return c
			}
		}
		return 0
	}
	return 0
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func compareJSONNumbers(a, b *JSON) int {
	switch {
	case a.Type == JSONInt && b.Type == JSONInt:
		return cmp.Compare(a.Int, b.Int)
	case a.Type == JSONUint && b.Type == JSONUint:
		return cmp.Compare(uint64(a.Int), uint64(b.Int))
	case a.Type == JSONDouble || b.Type == JSONDouble:
		return cmp.Compare(a.ToFloat(), b.ToFloat())
	}
	return a.toDecimal().Compare(b.toDecimal())
}

// ToFloat returns a number's value as a double (0 for other types).
func (j *JSON) ToFloat() float64 {
	switch j.Type {
	case JSONInt:
		return float64(j.Int)
	case JSONUint:
		return float64(uint64(j.Int))
	case JSONDouble:
		return j.Float
	case JSONDecimal:
		return j.Dec.ToFloat64()
	case JSONBoolean:
		return float64(b2i(j.Bool))
	}
	return 0
}

func (j *JSON) toDecimal() *Decimal {
	switch j.Type {
	case JSONInt:
		return NewDecFromInt(j.Int)
	case JSONUint:
		return NewDecFromUint(uint64(j.Int))
	case JSONDecimal:
		return j.Dec
	}
	d, _ := NewDecFromFloat(j.ToFloat())
	return d
}

// ContainsJSON is JSON_CONTAINS(target, candidate): a scalar contains an
// equal scalar; an array contains a scalar one of its elements contains,
// and an array each of whose elements it contains; an object contains an
// object whose every member it has with a value that contains the
// candidate's.
func ContainsJSON(target, cand *JSON) bool {
	switch target.Type {
	case JSONObject:
		if cand.Type != JSONObject {
			return false
		}
		for i, k := range cand.Keys {
			v, ok := target.Lookup(k)
			if !ok || !ContainsJSON(&v, &cand.Elems[i]) {
				return false
			}
		}
		return true
	case JSONArray:
		if cand.Type == JSONArray {
			for i := range cand.Elems {
				if !ContainsJSON(target, &cand.Elems[i]) {
					return false
				}
			}
			return true
		}
		for i := range target.Elems {
			if ContainsJSON(&target.Elems[i], cand) {
				return true
			}
		}
		return false
	}
	if cand.Type == JSONArray || cand.Type == JSONObject {
		return false
	}
	return CompareJSON(target, cand) == 0
}
