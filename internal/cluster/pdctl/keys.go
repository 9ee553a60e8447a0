package pdctl

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/types"
)

// FormatKey renders a region boundary given in PD's upper-case hex.
// start says whether it is a start key (empty: -inf) or an end key
// (empty: +inf).
func FormatKey(hexKey string, start bool) string {
	if hexKey == "" {
		if start {
			return "-inf"
		}
		return "+inf"
	}
	b, err := hex.DecodeString(hexKey)
	if err != nil {
		return hexKey
	}
	return DecodeKey(b)
}

// DecodeKey renders a raw key: Strata's table and metadata keys decoded
// (t42_r7, t42_i1("abc",7), m"DB:1"h"Table:3"), else a quoted string when
// it is printable ASCII, else upper-case hex. Bytes after a recognised
// prefix that do not decode are appended in hex after a '+'.
func DecodeKey(b []byte) string {
	switch {
	case len(b) >= 9 && b[0] == 't':
		return tableKey(b)
	case len(b) > 1 && b[0] == 'm':
		if s, ok := metaKey(b); ok {
			return s
		}
	}
	return plainKey(b)
}

func plainKey(b []byte) string {
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return strings.ToUpper(hex.EncodeToString(b))
		}
	}
	return strconv.Quote(string(b))
}

func withRest(s string, rest []byte) string {
	if len(rest) == 0 {
		return s
	}
	return s + "+" + strings.ToUpper(hex.EncodeToString(rest))
}

func tableKey(b []byte) string {
	rest, table, _ := codec.DecodeInt(b[1:])
	s := "t" + strconv.FormatInt(table, 10)
	if len(rest) < 2 {
		return withRest(s, rest)
	}
	switch string(rest[:2]) {
	case "_r":
		s += "_r"
		if len(rest) < 10 {
			return withRest(s, rest[2:])
		}
		rest2, handle, _ := codec.DecodeInt(rest[2:])
		return withRest(s+strconv.FormatInt(handle, 10), rest2)
	case "_i":
		s += "_i"
		if len(rest) < 10 {
			return withRest(s, rest[2:])
		}
		vals, index, _ := codec.DecodeInt(rest[2:])
		s += strconv.FormatInt(index, 10)
		if len(vals) == 0 {
			return s
		}
		var parts []string
		for len(vals) > 0 {
			next, d, err := codec.DecodeOne(vals)
			if err != nil {
				break
			}
			parts = append(parts, datumString(d))
			vals = next
		}
		if len(parts) > 0 {
			s += "(" + strings.Join(parts, ",") + ")"
		}
		return withRest(s, vals)
	}
	return withRest(s, rest)
}

func datumString(d types.Datum) string {
	if d.Kind() == types.KindBytes || d.Kind() == types.KindString {
		return strconv.Quote(d.String())
	}
	return d.String()
}

// metaKey decodes 'm' EncodeBytes(name) then 's', or 'h' EncodeBytes(field).
func metaKey(b []byte) (string, bool) {
	rest, name, err := codec.DecodeBytes(b[1:])
	if err != nil {
		return "", false
	}
	s := "m" + strconv.Quote(string(name))
	if len(rest) == 0 {
		return s, true
	}
	tag := rest[0]
	s += string(tag)
	rest = rest[1:]
	if tag == 'h' && len(rest) > 0 {
		after, field, err := codec.DecodeBytes(rest)
		if err != nil {
			return withRest(s, rest), true
		}
		return withRest(s+strconv.Quote(string(field)), after), true
	}
	return withRest(s, rest), true
}

// keyDetail is the decoded key with its hex, for the one-region view.
func keyDetail(hexKey string, start bool) string {
	s := FormatKey(hexKey, start)
	if hexKey == "" || s == hexKey {
		return s
	}
	return fmt.Sprintf("%s (hex %s)", s, hexKey)
}
