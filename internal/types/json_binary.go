package types

import (
	"encoding/binary"
	"errors"
	"math"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// JSON binary form: what a JSON column stores, what chunks hold and what
// a JSON datum carries. It is Strata's own, not MySQL's (which adds
// offset tables for lookups without decoding); it keeps every type MySQL
// keeps (a DECIMAL's scale, UNSIGNED, temporal scalars), which JSON text
// would lose. A value is a type byte followed by:
//
//	null, true, false        nothing
//	int, uint, double        8 bytes little endian (double as IEEE bits)
//	string, decimal          uvarint length, bytes (decimal in its text form)
//	date, datetime           8 bytes packed time (Time.Pack), fsp byte
//	time                     8 bytes nanoseconds, fsp byte
//	array                    uvarint count, the elements
//	object                   uvarint count, then per member: uvarint key
//	                         length, key bytes, value; keys in MySQL's order
//
// DecodeJSON checks everything it reads and fails with ErrCorruptJSON,
// never panics, on bytes that were not made by EncodeJSON.

// JSON binary type bytes.
const (
	jbNull byte = iota
	jbTrue
	jbFalse
	jbInt
	jbUint
	jbDouble
	jbString
	jbDecimal
	jbDate
	jbDatetime
	jbTime
	jbArray
	jbObject
)

// ErrCorruptJSON is returned by DecodeJSON for bytes that are not a JSON
// binary value.
var ErrCorruptJSON = errors.New("corrupt JSON binary value")

// EncodeJSON appends the binary form of j to b.
func EncodeJSON(b []byte, j *JSON) []byte {
	switch j.Type {
	case JSONNull:
		return append(b, jbNull)
	case JSONBoolean:
		if j.Bool {
			return append(b, jbTrue)
		}
		return append(b, jbFalse)
	case JSONInt:
		return binary.LittleEndian.AppendUint64(append(b, jbInt), uint64(j.Int))
	case JSONUint:
		return binary.LittleEndian.AppendUint64(append(b, jbUint), uint64(j.Int))
	case JSONDouble:
		return binary.LittleEndian.AppendUint64(append(b, jbDouble), math.Float64bits(j.Float))
	case JSONString:
		b = binary.AppendUvarint(append(b, jbString), uint64(len(j.Str)))
		return append(b, j.Str...)
	case JSONDecimal:
		s := j.Dec.String()
		b = binary.AppendUvarint(append(b, jbDecimal), uint64(len(s)))
		return append(b, s...)
	case JSONDate, JSONDatetime:
		tag := jbDatetime
		if j.Type == JSONDate {
			tag = jbDate
		}
		b = binary.LittleEndian.AppendUint64(append(b, tag), j.Time.Pack())
		return append(b, byte(j.Time.Fsp))
	case JSONTime:
		b = binary.LittleEndian.AppendUint64(append(b, jbTime), uint64(j.Dur.D))
		return append(b, byte(j.Dur.Fsp))
	case JSONArray:
		b = binary.AppendUvarint(append(b, jbArray), uint64(len(j.Elems)))
		for i := range j.Elems {
			b = EncodeJSON(b, &j.Elems[i])
		}
		return b
	case JSONObject:
		b = binary.AppendUvarint(append(b, jbObject), uint64(len(j.Elems)))
		for i := range j.Elems {
			b = binary.AppendUvarint(b, uint64(len(j.Keys[i])))
			b = append(b, j.Keys[i]...)
			b = EncodeJSON(b, &j.Elems[i])
		}
		return b
	}
	return append(b, jbNull)
}

// DecodeJSON decodes a binary JSON value that fills all of b.
func DecodeJSON(b []byte) (JSON, error) {
	d := jsonDecoder{b: b}
	j, err := d.value(0)
	if err != nil {
		return JSON{}, err
	}
	if d.pos != len(b) {
		return JSON{}, ErrCorruptJSON
	}
	return j, nil
}

type jsonDecoder struct {
	b   []byte
	pos int
}

func (d *jsonDecoder) u64() (uint64, error) {
	if len(d.b)-d.pos < 8 {
		return 0, ErrCorruptJSON
	}
	v := binary.LittleEndian.Uint64(d.b[d.pos:])
	d.pos += 8
	return v, nil
}

func (d *jsonDecoder) uvarint() (uint64, error) {
	v, n := binary.Uvarint(d.b[d.pos:])
	if n <= 0 {
		return 0, ErrCorruptJSON
	}
	d.pos += n
	return v, nil
}

func (d *jsonDecoder) bytes() (string, error) {
	n, err := d.uvarint()
	if err != nil {
		return "", err
	}
	if n > uint64(len(d.b)-d.pos) {
		return "", ErrCorruptJSON
	}
	s := string(d.b[d.pos : d.pos+int(n)])
	d.pos += int(n)
	return s, nil
}

// count reads an element count, each element taking at least min bytes.
func (d *jsonDecoder) count(min int) (int, error) {
	n, err := d.uvarint()
	if err != nil {
		return 0, err
	}
	if n > uint64((len(d.b)-d.pos)/min) {
		return 0, ErrCorruptJSON
	}
	return int(n), nil
}

func (d *jsonDecoder) fsp() (int8, error) {
	if d.pos >= len(d.b) || d.b[d.pos] > MaxFsp {
		return 0, ErrCorruptJSON
	}
	d.pos++
	return int8(d.b[d.pos-1]), nil
}

func (d *jsonDecoder) value(depth int) (JSON, error) {
	if d.pos >= len(d.b) || depth > maxJSONDepth {
		return JSON{}, ErrCorruptJSON
	}
	tag := d.b[d.pos]
	d.pos++
	switch tag {
	case jbNull:
		return JSONNullValue(), nil
	case jbTrue:
		return JSONBool(true), nil
	case jbFalse:
		return JSONBool(false), nil
	case jbInt, jbUint, jbDouble:
		v, err := d.u64()
		switch tag {
		case jbInt:
			return JSONFromInt(int64(v)), err
		case jbUint:
			return JSONFromUint(v), err
		}
		return JSONFromFloat(math.Float64frombits(v)), err
	case jbString:
		s, err := d.bytes()
		return JSONFromString(s), err
	case jbDecimal:
		s, err := d.bytes()
		if err != nil {
			return JSON{}, err
		}
		dec, err := ParseDecimal(s)
		if err != nil || dec.Form != apd.Finite { // ParseDecimal("1e10000") is NaN
			return JSON{}, ErrCorruptJSON
		}
		return JSONFromDecimal(dec), nil
	case jbDate, jbDatetime, jbTime:
		v, err := d.u64()
		if err != nil {
			return JSON{}, err
		}
		fsp, err := d.fsp()
		if err != nil {
			return JSON{}, err
		}
		switch tag {
		case jbTime:
			return JSONFromDuration(Duration{D: time.Duration(v), Fsp: fsp}), nil
		case jbDate:
			return JSONFromTime(TimeFromPacked(v, mysql.TypeDate, fsp)), nil
		}
		return JSONFromTime(TimeFromPacked(v, mysql.TypeDatetime, fsp)), nil
	case jbArray:
		n, err := d.count(1)
		if err != nil {
			return JSON{}, err
		}
		elems := make([]JSON, n)
		for i := range elems {
			if elems[i], err = d.value(depth + 1); err != nil {
				return JSON{}, err
			}
		}
		return JSONFromArray(elems), nil
	case jbObject:
		n, err := d.count(2)
		if err != nil {
			return JSON{}, err
		}
		o := JSON{Type: JSONObject, Keys: make([]string, n), Elems: make([]JSON, n)}
		for i := 0; i < n; i++ {
			if o.Keys[i], err = d.bytes(); err != nil {
				return JSON{}, err
			}
			if i > 0 && !jsonKeyLess(o.Keys[i-1], o.Keys[i]) {
				return JSON{}, ErrCorruptJSON
			}
			if o.Elems[i], err = d.value(depth + 1); err != nil {
				return JSON{}, err
			}
		}
		return o, nil
	}
	return JSON{}, ErrCorruptJSON
}
