package expr

import (
	"encoding/binary"
	"math"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/types"
)

// appendJSONKey appends a self-delimiting form of j that is equal for two
// values exactly when types.CompareJSON finds them equal (up to numbers,
// which are keyed by their double value: integers beyond 2^53 may share
// a key), so hash joins on JSON columns match JSON values, not texts.
func appendJSONKey(dst []byte, j *types.JSON) []byte {
	switch j.Type {
	case types.JSONNull:
		return append(dst, 0)
	case types.JSONInt, types.JSONUint, types.JSONDouble, types.JSONDecimal:
		f := j.ToFloat()
		if f == 0 {
			f = 0 // -0 = 0
		}
		return binary.BigEndian.AppendUint64(append(dst, 1), math.Float64bits(f))
	case types.JSONString:
		return codec.EncodeBytes(append(dst, 2), []byte(j.Str))
	case types.JSONObject:
		dst = binary.BigEndian.AppendUint32(append(dst, 3), uint32(len(j.Keys)))
		for i := range j.Keys {
			dst = codec.EncodeBytes(dst, []byte(j.Keys[i]))
			dst = appendJSONKey(dst, &j.Elems[i])
		}
		return dst
	case types.JSONArray:
		dst = binary.BigEndian.AppendUint32(append(dst, 4), uint32(len(j.Elems)))
		for i := range j.Elems {
			dst = appendJSONKey(dst, &j.Elems[i])
		}
		return dst
	case types.JSONBoolean:
		if j.Bool {
			return append(dst, 5, 1)
		}
		return append(dst, 5, 0)
	case types.JSONDate, types.JSONDatetime:
		return binary.BigEndian.AppendUint64(append(dst, 6, byte(j.Type)), j.Time.Pack())
	case types.JSONTime:
		return binary.BigEndian.AppendUint64(append(dst, 7), uint64(j.Dur.D))
	}
	return codec.EncodeBytes(append(dst, 9), []byte(j.String()))
}
