package expr

import (
	"bytes"
	"testing"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/types"
)

func sign(c int) int {
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

// TestSortKeyOrders pins the order of pairs under each collation family
// (MySQL 8's answers) and that sort keys order and equal as CompareString.
func TestSortKeyOrders(t *testing.T) {
	cases := []struct {
		coll string
		a, b string
		want int
	}{
		{"binary", "a", "A", 1},
		{"binary", "a ", "a", 1},
		{"utf8mb4_bin", "A", "a", -1},
		{"utf8mb4_bin", "a ", "a", 0},
		{"utf8mb4_bin", "ab", "a", 1},
		{"utf8mb4_general_ci", "a", "A", 0},
		{"utf8mb4_general_ci", "a  ", "A", 0},
		{"utf8mb4_general_ci", "é", "E", 0},
		{"utf8mb4_general_ci", "a", "B", -1},
		{"utf8mb4_general_ci", "_", "a", 1}, // '_' (0x5F) after 'A' (0x41)
		{"latin1_swedish_ci", "x", "X", 0},
		{"utf8mb4_0900_ai_ci", "a", "A", 0},
		{"utf8mb4_0900_ai_ci", "a ", "a", 1}, // NO PAD
		{"utf8mb4_0900_ai_ci", "_", "a", -1}, // punctuation before letters
		{"utf8mb4_0900_ai_ci", "9", "a", -1},
		{"utf8mb4_0900_ai_ci", "$", "0", -1},
		{"utf8mb4_0900_ai_ci", "z", "é", 1},
		{"utf8mb4_0900_ai_ci", "Zebra", "apple", 1},
		{"utf8mb4_0900_ai_ci", "", "a", -1},
	}
	for _, c := range cases {
		if got := sign(CompareString(c.coll, []byte(c.a), []byte(c.b))); got != c.want {
			t.Errorf("CompareString(%s, %q, %q) = %d, want %d", c.coll, c.a, c.b, got, c.want)
		}
		ka, kb := SortKey(c.coll, []byte(c.a)), SortKey(c.coll, []byte(c.b))
		if got := sign(bytes.Compare(ka, kb)); got != c.want {
			t.Errorf("SortKey(%s): %q vs %q = %d, want %d", c.coll, c.a, c.b, got, c.want)
		}
		// Encoded as index/group keys, the order holds too.
		ea := codec.EncodeKey(nil, types.NewBytesDatum(ka))
		eb := codec.EncodeKey(nil, types.NewBytesDatum(kb))
		if got := sign(bytes.Compare(ea, eb)); got != c.want {
			t.Errorf("encoded SortKey(%s): %q vs %q = %d, want %d", c.coll, c.a, c.b, got, c.want)
		}
	}
}

// TestSortKeyAgreesWithCompare checks every pair of a small alphabet.
func TestSortKeyAgreesWithCompare(t *testing.T) {
	words := []string{"", " ", "a", "A", "a ", "b", "B", "_", "-", "0", "9", "ab", "aB", "Ä", "ä", "é", "z", "Z", "ÿ", "ñ", "~", "[", "{", "日本", "Ω", "ω"}
	for _, coll := range []string{"binary", "utf8mb4_bin", "utf8mb4_general_ci", "utf8mb4_0900_ai_ci", "utf8mb4_unicode_ci"} {
		for _, a := range words {
			for _, b := range words {
				c := sign(CompareString(coll, []byte(a), []byte(b)))
				k := sign(bytes.Compare(SortKey(coll, []byte(a)), SortKey(coll, []byte(b))))
				if c != k {
					t.Errorf("%s: %q vs %q: compare %d, keys %d", coll, a, b, c, k)
				}
			}
		}
	}
}

func TestOrderAndGroupKey(t *testing.T) {
	ci := &types.FieldType{Tp: mysql.TypeVarchar, Charset: "utf8mb4", Collate: "utf8mb4_general_ci"}
	bin := &types.FieldType{Tp: mysql.TypeVarchar, Charset: "utf8mb4", Collate: "utf8mb4_bin"}
	a, A := types.NewStringDatum("a"), types.NewStringDatum("A")
	if OrderOf(ci).Compare(&a, &A) != 0 || OrderOf(bin).Compare(&a, &A) <= 0 {
		t.Fatal("Order ignores the collation")
	}
	ka := AppendGroupKey(nil, []Order{OrderOf(ci)}, []types.Datum{a})
	kA := AppendGroupKey(nil, []Order{OrderOf(ci)}, []types.Datum{A})
	if !bytes.Equal(ka, kA) {
		t.Fatal("group keys of 'a' and 'A' differ under general_ci")
	}
	if !IsCollationKeyed(ci) || IsCollationKeyed(bin) {
		t.Fatal("IsCollationKeyed")
	}
	if d := IndexKeyDatum(bin, a); d.Kind() != types.KindString {
		t.Fatal("a _bin column's index key is its value")
	}
	n := types.NewNullDatum()
	if d := IndexKeyDatum(ci, n); !d.IsNull() {
		t.Fatal("NULL stays NULL in index keys")
	}
	e := &types.FieldType{Tp: mysql.TypeEnum, Charset: "utf8mb4", Collate: "utf8mb4_bin", Elems: []string{"b", "a"}}
	x, y := types.NewEnumDatum("b", 1), types.NewEnumDatum("a", 2)
	if OrderOf(e).Compare(&x, &y) >= 0 {
		t.Fatal("ORDER BY sorts ENUM by index")
	}
	if MinMaxOrderOf(e).Compare(&x, &y) <= 0 {
		t.Fatal("MIN/MAX compare ENUM by name")
	}
}

func BenchmarkOrderCompare(b *testing.B) {
	x, y := types.NewStringDatum("Hello, World abc"), types.NewStringDatum("hello, world abd")
	for _, coll := range []string{"utf8mb4_bin", "utf8mb4_general_ci", "utf8mb4_0900_ai_ci"} {
		o := OrderOf(&types.FieldType{Tp: mysql.TypeVarchar, Charset: "utf8mb4", Collate: coll})
		b.Run(coll, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				o.Compare(&x, &y)
			}
		})
		b.Run(coll+"/groupkey", func(b *testing.B) {
			var buf []byte
			vals := []types.Datum{x}
			os := []Order{o}
			for i := 0; i < b.N; i++ {
				buf = AppendGroupKey(buf[:0], os, vals)
			}
		})
	}
}

// TestJoinKeyAgreesWithCompare checks that string join keys are equal
// exactly when the equality's collation finds the strings equal.
func TestJoinKeyAgreesWithCompare(t *testing.T) {
	words := []string{"", " ", "a", "A", "a ", "b", "_", "0", "ab", "aB", "Ä", "ä", "é", "E", "ÿ", "日本", "Ω", "ω"}
	for _, coll := range []string{"binary", "utf8mb4_bin", "utf8mb4_general_ci", "utf8mb4_0900_ai_ci"} {
		ft := &types.FieldType{Tp: mysql.TypeVarchar, Flen: 10, Charset: "utf8mb4", Collate: coll}
		if coll == "binary" {
			ft.Charset = "binary"
		}
		col := &Column{Ft: ft}
		key := NewJoinKey(col, col)
		if _, c := key.Class(); c != coll {
			t.Fatalf("%s: the key compares by %s", coll, c)
		}
		for _, a := range words {
			for _, b := range words {
				da, db := types.NewStringDatum(a), types.NewStringDatum(b)
				equal := CompareString(coll, []byte(a), []byte(b)) == 0
				ka, kb := key.Append(nil, nil, &da), key.Append(nil, nil, &db)
				if bytes.Equal(ka, kb) != equal {
					t.Errorf("%s: %q vs %q: equal %v, keys equal %v", coll, a, b, equal, bytes.Equal(ka, kb))
				}
			}
		}
	}
}
