package expr

import (
	"bytes"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/types"
)

// Sort keys: a collation's sort key of a string is a byte string whose
// byte order is the collation's order and whose equality is the
// collation's equality, so that GROUP BY, DISTINCT, set operations and
// index keys can hash or memcompare it:
//
//   - binary: the bytes;
//   - *_bin (PAD SPACE): the bytes without trailing spaces;
//   - the case-insensitive ones: one 3-byte big-endian weight per rune
//     (collator.weight), after trailing spaces are cut for PAD SPACE
//     collations (0900 collations are NO PAD).

// SortKey returns the sort key of b under collation ("" is utf8mb4_bin).
func SortKey(collation string, b []byte) []byte {
	return getCollator(collation).appendKey(nil, b)
}

// CompareString orders a and b under collation ("" is utf8mb4_bin), as
// their SortKeys would.
func CompareString(collation string, a, b []byte) int {
	return getCollator(collation).compare(a, b)
}

// appendKey appends the sort key of s to dst.
func (c collator) appendKey(dst, s []byte) []byte {
	if c.binary {
		return append(dst, s...)
	}
	if c.padSpace {
		s = bytes.TrimRight(s, " ")
	}
	if !c.ci {
		return append(dst, s...)
	}
	for len(s) > 0 {
		r, n := decodeRune(s)
		w := c.weight(r)
		dst = append(dst, byte(w>>16), byte(w>>8), byte(w))
		s = s[n:]
	}
	return dst
}

// weight is the case-insensitive collations' weight of r: its folded
// form (foldRune), and for the 0900 collations ASCII reordered as UCA
// does: control characters, space, punctuation and symbols, digits, then
// letters, all before other scripts. Full UCA weights (expansions such as
// 'ß' = 'ss', ignorable characters) are not implemented.
func (c collator) weight(r rune) rune {
	f := foldRune(r)
	if c.uca && f < 0x80 {
		return rune(uca0900ASCII[f])
	}
	return f
}

// uca0900ASCII maps folded ASCII to its rank in UCA 9.0 order (non-
// ignorable), so that the 0900 collations sort '_' before '0' before 'A'.
var uca0900ASCII = func() [128]byte {
	const order = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	var t [128]byte
	next := byte(0)
	for r := 0; r < 0x20; r++ { // control characters first
		t[r] = next
		next++
	}
	t[0x7f] = next
	next++
	for i := 0; i < len(order); i++ {
		t[order[i]] = next
		next++
	}
	for r := 'a'; r <= 'z'; r++ { // never a folded rune; kept distinct
		t[r] = t[r-'a'+'A']
	}
	return t
}()

// Order compares non-NULL values of one type the way ORDER BY, GROUP BY,
// DISTINCT and window partitions do: strings by the type's collation
// (ENUM and SET by their index, as MySQL sorts them), everything else by
// Datum.Compare. The zero Order is Datum.Compare.
type Order struct {
	coll collator
	str  bool
}

// OrderOf returns the order of values of type ft.
func OrderOf(ft *types.FieldType) Order {
	if ft == nil || !isCollatedText(ft) {
		return Order{}
	}
	return Order{coll: collatorOfType(ft), str: true}
}

// isCollatedText reports the string types whose values order by their
// collation: not ENUM and SET (by index) nor JSON (by JSON's rules).
func isCollatedText(ft *types.FieldType) bool {
	return ft.EvalType() == types.ETString && ft.Tp != mysql.TypeEnum && ft.Tp != mysql.TypeSet && ft.Tp != mysql.TypeJSON
}

// MinMaxOrderOf returns the order MIN and MAX compare values of type ft
// by: OrderOf, except that ENUM and SET compare by their names (MySQL's
// documented behaviour for MIN/MAX, unlike ORDER BY).
func MinMaxOrderOf(ft *types.FieldType) Order {
	if ft != nil && (ft.Tp == mysql.TypeEnum || ft.Tp == mysql.TypeSet) {
		return Order{coll: collatorOfType(ft), str: true}
	}
	return OrderOf(ft)
}

// OrdersOf returns the orders of the expressions' types.
func OrdersOf(es []Expression) []Order {
	os := make([]Order, len(es))
	for i, e := range es {
		os[i] = OrderOf(e.Type())
	}
	return os
}

func collatorOfType(ft *types.FieldType) collator {
	if ft.IsBinaryString() {
		return collator{binary: true, coll: "binary"}
	}
	return getCollator(ft.Collate)
}

// Collation returns the collation strings compare by ("" when the order
// is not a string order).
func (o Order) Collation() string {
	if !o.str {
		return ""
	}
	return o.coll.name()
}

// Compare orders two non-NULL datums.
func (o Order) Compare(a, b *types.Datum) int {
	if o.str && isStringKind(a) && isStringKind(b) {
		return o.coll.compare(a.GetBytes(), b.GetBytes()) // ENUM and SET datums carry their names
	}
	return a.Compare(b)
}

// CompareNullsFirst is Compare with NULL before every value.
func (o Order) CompareNullsFirst(a, b *types.Datum) int {
	switch {
	case a.IsNull() && b.IsNull():
		return 0
	case a.IsNull():
		return -1
	case b.IsNull():
		return 1
	}
	return o.Compare(a, b)
}

// Key returns d with a string replaced by its sort key (as a byte
// string), so that codec.EncodeKey of keys is equal exactly when the
// values are equal in the order.
func (o Order) Key(d types.Datum) types.Datum {
	if !o.str || !isStringKind(&d) || o.coll.binary {
		return d
	}
	return types.NewBytesDatum(o.coll.appendKey(nil, d.GetBytes()))
}

// AppendGroupKey appends the memcomparable key of vals, each under its
// order (orders may be shorter than vals: the rest compare as Datums):
// the key GROUP BY, DISTINCT and set operations hash.
func AppendGroupKey(dst []byte, orders []Order, vals []types.Datum) []byte {
	for i := range vals {
		d := vals[i]
		if i < len(orders) && !d.IsNull() {
			d = orders[i].Key(d)
		}
		dst = codec.EncodeKey(dst, d)
	}
	return dst
}

// EqualRows reports whether two rows of values are equal in their orders
// (NULLs equal each other): window partitions.
func EqualRows(orders []Order, a, b []types.Datum) bool {
	for i := range a {
		o := Order{}
		if i < len(orders) {
			o = orders[i]
		}
		if o.CompareNullsFirst(&a[i], &b[i]) != 0 {
			return false
		}
	}
	return true
}

func isStringKind(d *types.Datum) bool {
	switch d.Kind() {
	case types.KindString, types.KindBytes, types.KindEnum, types.KindSet:
		return true
	}
	return false
}

// IsCollationKeyed reports whether index keys of a column of type ft hold
// a sort key rather than the value: strings under a case-insensitive
// collation. Such keys cannot be decoded back into the value.
func IsCollationKeyed(ft *types.FieldType) bool {
	return isCollatedText(ft) && !ft.IsBinaryString() && getCollator(ft.Collate).ci
}

// IndexKeyDatum returns the datum an index key stores for value d of a
// column of type ft: the sort key for collation-keyed columns (see
// IsCollationKeyed), d otherwise.
func IndexKeyDatum(ft *types.FieldType, d types.Datum) types.Datum {
	if d.IsNull() || !IsCollationKeyed(ft) || (d.Kind() != types.KindString && d.Kind() != types.KindBytes) {
		return d
	}
	return types.NewBytesDatum(getCollator(ft.Collate).appendKey(nil, d.GetBytes()))
}
