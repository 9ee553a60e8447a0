package exec

import (
	"bytes"
	"hash/maphash"
)

// joinTable is the hash table of a hash or index join: the build rows'
// refs by join key. The keys live in one byte slice and the entries in
// one slice, chained per key hash, so that adding a row allocates nothing
// per row (a map of strings to ref slices allocated a key and a slice per
// distinct key).
type joinTable struct {
	seed  maphash.Seed
	heads map[uint64]int // key hash -> 1 + newest entry with that hash
	ents  []joinEntry
	keys  []byte
}

type joinEntry struct {
	ref        rowRef
	koff, klen int
	prev       int // 1 + the previous entry with the same hash; 0: none
}

// reset empties the table.
func (t *joinTable) reset() {
	if t.heads == nil {
		t.seed = maphash.MakeSeed()
	}
	t.heads = make(map[uint64]int)
	t.ents = t.ents[:0]
	t.keys = t.keys[:0]
}

// add files ref under key k.
func (t *joinTable) add(k []byte, ref rowRef) {
	h := maphash.Bytes(t.seed, k)
	off := len(t.keys)
	t.keys = append(t.keys, k...)
	t.ents = append(t.ents, joinEntry{ref: ref, koff: off, klen: len(k), prev: t.heads[h]})
	t.heads[h] = len(t.ents)
}

// lookup appends to dst the refs filed under k, in the order they were
// added.
func (t *joinTable) lookup(k []byte, dst []rowRef) []rowRef {
	i, ok := t.heads[maphash.Bytes(t.seed, k)]
	if !ok {
		return dst
	}
	n := len(dst)
	for i != 0 {
		e := &t.ents[i-1]
		if bytes.Equal(t.keys[e.koff:e.koff+e.klen], k) {
			dst = append(dst, e.ref)
		}
		i = e.prev
	}
	for a, b := n, len(dst)-1; a < b; a, b = a+1, b-1 {
		dst[a], dst[b] = dst[b], dst[a]
	}
	return dst
}

// release drops the table's memory.
func (t *joinTable) release() { t.heads, t.ents, t.keys = nil, nil, nil }
