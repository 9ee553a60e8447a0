package txnclient

import (
	"github.com/strata-db/strata/internal/kv"
)

// unionIter merges a snapshot iterator with the transaction's buffered
// writes in the same range: a buffered key hides the snapshot's version,
// a buffered delete hides the key altogether.
type unionIter struct {
	snap    kv.Iterator
	buf     *memBuffer
	keys    []string // buffered keys of the range, in iteration order
	bi      int
	reverse bool

	// current position
	key   kv.Key
	value []byte
	valid bool
}

func newUnionIter(snap kv.Iterator, buf *memBuffer, keys []string, reverse bool) (*unionIter, error) {
	if reverse {
		for i, j := 0, len(keys)-1; i < j; i, j = i+1, j-1 {
			keys[i], keys[j] = keys[j], keys[i]
		}
	}
	it := &unionIter{snap: snap, buf: buf, keys: keys, reverse: reverse}
	if err := it.settle(); err != nil {
		return nil, err
	}
	return it, nil
}

// before reports whether a comes before b in iteration order.
func (it *unionIter) before(a, b []byte) bool {
	if it.reverse {
		return compareBytes(a, b) > 0
	}
	return compareBytes(a, b) < 0
}

// settle positions the iterator on the next visible entry.
func (it *unionIter) settle() error {
	for {
		bufOK := it.bi < len(it.keys)
		snapOK := it.snap.Valid()
		switch {
		case !bufOK && !snapOK:
			it.valid = false
			return nil
		case bufOK && (!snapOK || !it.before(it.snap.Key(), []byte(it.keys[it.bi]))):
			k := it.keys[it.bi]
			it.bi++
			if snapOK && string(it.snap.Key()) == k {
				if err := it.snap.Next(); err != nil {
					return err
				}
			}
			e, _ := it.buf.get([]byte(k))
			if e.del {
				continue
			}
			it.key, it.value, it.valid = kv.Key(k), e.value, true
			return nil
		default:
			// A page's keys and values are never overwritten (see
			// scanner): they outlive the move to the next pair.
			it.key, it.value, it.valid = it.snap.Key(), it.snap.Value(), true
			return it.snap.Next()
		}
	}
}

func (it *unionIter) Valid() bool   { return it.valid }
func (it *unionIter) Key() kv.Key   { return it.key }
func (it *unionIter) Value() []byte { return it.value }
func (it *unionIter) Next() error   { return it.settle() }
func (it *unionIter) Close()        { it.snap.Close(); it.valid = false }
