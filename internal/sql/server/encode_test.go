package server

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

var typeNames = map[string]byte{
	"tiny": mysql.TypeTiny, "short": mysql.TypeShort, "int24": mysql.TypeInt24, "long": mysql.TypeLong,
	"longlong": mysql.TypeLonglong, "year": mysql.TypeYear, "float": mysql.TypeFloat, "double": mysql.TypeDouble,
	"decimal": mysql.TypeNewDecimal, "varchar": mysql.TypeVarString, "blob": mysql.TypeBlob, "bit": mysql.TypeBit,
	"json": mysql.TypeJSON, "date": mysql.TypeDate, "datetime": mysql.TypeDatetime, "timestamp": mysql.TypeTimestamp,
	"time": mysql.TypeDuration, "null": mysql.TypeNull,
}

// TestEncodeDatadriven pins the text and binary encodings of values of each
// column type (testdata/encode). Each input line is one value; the output
// shows the text-protocol string and the binary-protocol bytes (hex).
//
//	encode type=<name> [unsigned] [dec=<decimals>]
func TestEncodeDatadriven(t *testing.T) {
	datadriven.RunTest(t, "testdata/encode", func(t *testing.T, d *datadriven.TestData) string {
		if d.Cmd != "encode" {
			d.Fatalf(t, "unknown command %s", d.Cmd)
		}
		var name string
		d.ScanArgs(t, "type", &name)
		typ, ok := typeNames[name]
		if !ok {
			d.Fatalf(t, "unknown type %s", name)
		}
		col := &Column{Type: typ, Decimals: notFixedDec}
		if d.HasArg("unsigned") {
			col.Flags |= unsignedFlag
		}
		if d.HasArg("dec") {
			var dec int
			d.ScanArgs(t, "dec", &dec)
			col.Decimals = uint8(dec)
		}
		var out strings.Builder
		for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
			v, err := parseValue(typ, col, line)
			if err != nil {
				fmt.Fprintf(&out, "%s: error: %v\n", line, err)
				continue
			}
			row := fakeRow{v}
			text := appendTextRow(nil, row, []*Column{col})
			tr := &reader{b: text}
			tv := tr.lenencBytes()
			ts := fmt.Sprintf("%q", tv)
			if tv == nil {
				ts = "NULL"
			}
			bin := appendBinaryRow(nil, row, []*Column{col})
			fmt.Fprintf(&out, "%s: text %s binary %s\n", line, ts, hex.EncodeToString(bin[2:]))
		}
		return out.String()
	})
}

// parseValue reads a test value of a column type.
func parseValue(typ byte, col *Column, s string) (any, error) {
	if s == "NULL" {
		return nil, nil
	}
	switch typ {
	case mysql.TypeTiny, mysql.TypeShort, mysql.TypeInt24, mysql.TypeLong, mysql.TypeLonglong, mysql.TypeYear:
		if col.Flags&unsignedFlag != 0 {
			return strconv.ParseUint(s, 10, 64)
		}
		return strconv.ParseInt(s, 10, 64)
	case mysql.TypeFloat:
		f, err := strconv.ParseFloat(s, 32)
		return float32(f), err
	case mysql.TypeDouble:
		return strconv.ParseFloat(s, 64)
	case mysql.TypeNewDecimal:
		return mustDecimal(s), nil
	case mysql.TypeDate, mysql.TypeDatetime, mysql.TypeTimestamp:
		tm, err := time.Parse("2006-01-02 15:04:05.999999", s)
		if err != nil {
			tm, err = time.Parse("2006-01-02", s)
		}
		if err != nil {
			if s == "0000-00-00" {
				return types.Time{Type: typ}, nil
			}
			return nil, err
		}
		return types.Time{Year: uint16(tm.Year()), Month: uint8(tm.Month()), Day: uint8(tm.Day()),
			Hour: uint8(tm.Hour()), Minute: uint8(tm.Minute()), Second: uint8(tm.Second()),
			Microsecond: uint32(tm.Nanosecond() / 1000), Type: typ, Fsp: 6}, nil
	case mysql.TypeDuration:
		d, err := time.ParseDuration(s)
		return types.Duration{D: d, Fsp: 6}, err
	}
	return []byte(s), nil
}
