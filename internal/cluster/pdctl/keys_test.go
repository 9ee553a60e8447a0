package pdctl

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/types"
)

func hexOf(b []byte) string { return strings.ToUpper(hex.EncodeToString(b)) }

func TestFormatKey(t *testing.T) {
	idx := codec.EncodeKey(nil, types.NewBytesDatum([]byte("abc")), types.NewIntDatum(-5))
	cases := []struct {
		key   []byte
		start bool
		want  string
	}{
		{nil, true, "-inf"},
		{nil, false, "+inf"},
		{codec.TableRecordKey(42, 7), true, "t42_r7"},
		{codec.TableRecordKey(42, -3), true, "t42_r-3"},
		{codec.TableRecordPrefix(42), true, "t42_r"},
		{codec.TablePrefix(1000), true, "t1000"},
		{append(codec.TableRecordKey(42, 7), 0, 1), true, "t42_r7+0001"},
		{codec.IndexPrefix(42, 2), true, "t42_i2"},
		{codec.TableIndexKey(42, 2, idx), true, `t42_i2("abc",-5)`},
		{codec.MetaKey([]byte("NextGlobalID")), true, `m"NextGlobalID"s`},
		{codec.MetaHashKey([]byte("DB:1"), []byte("Table:3")), true, `m"DB:1"h"Table:3"`},
		{[]byte("hello"), true, `"hello"`},
		{[]byte{0x00, 0xff}, true, "00FF"},
		{[]byte("t"), true, `"t"`},
	}
	for _, c := range cases {
		if got := FormatKey(hexOf(c.key), c.start); got != c.want {
			t.Errorf("FormatKey(%X) = %s, want %s", c.key, got, c.want)
		}
	}
	if got := FormatKey("ZZ", true); got != "ZZ" {
		t.Errorf("bad hex shown as %q", got)
	}
}
