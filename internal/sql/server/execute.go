package server

import (
	"bytes"
	"math"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// decodeExecute decodes a COM_STMT_EXECUTE body (after the command byte):
// statement id, flags, iteration count, NULL bitmap, new-params-bound flag,
// parameter types and values. numParams comes from the prepare; boundTypes
// are the types of an earlier execute, used when the flag is 0; longData
// are SEND_LONG_DATA chunks, which replace the values of their parameters
// (those values are absent from the packet). It returns the types in force,
// for later executes.
func decodeExecute(body []byte, numParams int, boundTypes []byte, longData map[int][]byte) (id uint32, args []Arg, types []byte, err error) {
	r := &reader{b: body}
	id = r.u32()
	r.u8()  // flags: cursor type; no cursors, rows are always sent
	r.u32() // iteration count, always 1
	if r.err != nil {
		return 0, nil, nil, r.err
	}
	if numParams == 0 {
		return id, nil, nil, nil
	}
	nulls := r.bytes((numParams + 7) / 8)
	bound := r.u8()
	if r.err != nil {
		return 0, nil, nil, r.err
	}
	types = boundTypes
	if bound == 1 {
		types = r.bytes(2 * numParams)
		if r.err != nil {
			return 0, nil, nil, r.err
		}
		types = bytes.Clone(types)
	} else if len(types) != 2*numParams {
		return 0, nil, nil, malformedf("parameter types were never sent")
	}
	args = make([]Arg, numParams)
	for i := range args {
		a := &args[i]
		a.Type = types[2*i]
		a.Unsigned = types[2*i+1]&0x80 != 0
		if nulls[i/8]&(1<<(i%8)) != 0 || a.Type == mysql.TypeNull {
			a.Null = true
			continue
		}
		if d, ok := longData[i]; ok {
			a.Value = d
			continue
		}
		if err := decodeParam(r, a); err != nil {
			return 0, nil, nil, err
		}
	}
	return id, args, types, nil
}

// decodeParam reads one binary-protocol value of a.Type into a.Value.
func decodeParam(r *reader, a *Arg) error {
	switch a.Type {
	case mysql.TypeTiny:
		v := r.u8()
		if a.Unsigned {
			a.Value = uint64(v)
		} else {
			a.Value = int64(int8(v))
		}
	case mysql.TypeShort, mysql.TypeYear:
		v := r.u16()
		if a.Unsigned {
			a.Value = uint64(v)
		} else {
			a.Value = int64(int16(v))
		}
	case mysql.TypeInt24, mysql.TypeLong:
		v := r.u32()
		if a.Unsigned {
			a.Value = uint64(v)
		} else {
			a.Value = int64(int32(v))
		}
	case mysql.TypeLonglong:
		v := r.u64()
		if a.Unsigned {
			a.Value = v
		} else {
			a.Value = int64(v)
		}
	case mysql.TypeFloat:
		a.Value = float64(math.Float32frombits(r.u32()))
	case mysql.TypeDouble:
		a.Value = math.Float64frombits(r.u64())
	case mysql.TypeDate, mysql.TypeDatetime, mysql.TypeTimestamp:
		t, err := decodeBinaryTime(r, a.Type)
		if err != nil {
			return err
		}
		a.Value = t
	case mysql.TypeDuration:
		d, err := decodeBinaryDuration(r)
		if err != nil {
			return err
		}
		a.Value = d
	case typeOldDecimal, mysql.TypeNewDecimal, mysql.TypeVarchar, mysql.TypeVarString,
		mysql.TypeString, mysql.TypeTinyBlob, mysql.TypeMediumBlob, mysql.TypeLongBlob,
		mysql.TypeBlob, mysql.TypeJSON, mysql.TypeEnum, mysql.TypeSet, mysql.TypeBit,
		mysql.TypeGeometry:
		v := r.lenencBytes()
		if v == nil {
			v = []byte{}
		}
		a.Value = v
	default:
		return malformedf("unknown parameter type %#x", a.Type)
	}
	return r.err
}

// decodeBinaryTime reads a binary DATE/DATETIME/TIMESTAMP.
func decodeBinaryTime(r *reader, typ byte) (types.Time, error) {
	n := r.u8()
	t := types.Time{Type: typ}
	switch n {
	case 0:
	case 4, 7, 11:
		t.Year = r.u16()
		t.Month, t.Day = r.u8(), r.u8()
		if n >= 7 {
			t.Hour, t.Minute, t.Second = r.u8(), r.u8(), r.u8()
		}
		if n == 11 {
			t.Microsecond = r.u32()
			t.Fsp = 6
		}
	default:
		return t, malformedf("datetime length %d", n)
	}
	return t, r.err
}

// decodeBinaryDuration reads a binary TIME.
func decodeBinaryDuration(r *reader) (types.Duration, error) {
	n := r.u8()
	var d types.Duration
	switch n {
	case 0:
	case 8, 12:
		neg := r.u8()
		days := r.u32()
		h, m, s := r.u8(), r.u8(), r.u8()
		var micro uint32
		if n == 12 {
			micro = r.u32()
			d.Fsp = 6
		}
		d.D = time.Duration(days)*24*time.Hour + time.Duration(h)*time.Hour + time.Duration(m)*time.Minute +
			time.Duration(s)*time.Second + time.Duration(micro)*time.Microsecond
		if neg == 1 {
			d.D = -d.D
		}
	default:
		return d, malformedf("time length %d", n)
	}
	return d, r.err
}
