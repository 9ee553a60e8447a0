package types

import (
	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// ToJSON returns the JSON value of a SQL value as JSON functions take
// their value arguments: numbers stay numbers (signed, unsigned, double,
// decimal), strings become JSON strings (not parsed), dates and times
// temporal scalars, NULL the null literal, and JSON values themselves.
func (d *Datum) ToJSON() JSON {
	switch d.k {
	case KindNull:
		return JSONNullValue()
	case KindInt64:
		return JSONFromInt(d.i)
	case KindUint64:
		return JSONFromUint(uint64(d.i))
	case KindFloat32:
		return JSONFromFloat(float64(d.GetFloat32()))
	case KindFloat64:
		return JSONFromFloat(d.GetFloat64())
	case KindDecimal:
		return JSONFromDecimal(d.dec)
	case KindTime:
		t := d.GetTime()
		if t.Type == mysql.TypeTimestamp {
			t.Type = mysql.TypeDatetime
		}
		return JSONFromTime(t)
	case KindDuration:
		return JSONFromDuration(d.GetDuration())
	case KindJSON:
		j, err := d.GetJSON()
		if err != nil {
			return JSONNullValue()
		}
		return j
	}
	return JSONFromString(string(d.b))
}

// convertToJSON converts a value for a JSON column: JSON as is, text
// parsed (ErrInvalidJSON when it is not JSON), anything else refused as
// MySQL does ("not a JSON text, may need CAST").
func convertToJSON(d *Datum) (Datum, error) {
	switch d.k {
	case KindJSON:
		return *d, nil
	case KindString, KindBytes, KindEnum, KindSet:
		j, err := ParseJSON(string(d.b))
		if err != nil {
			return Datum{}, err
		}
		return NewJSONDatum(j), nil
	}
	return Datum{}, &JSONSyntaxError{Msg: "not a JSON text, may need CAST", Pos: 0}
}
