package exec

import (
	"bytes"
	"hash/maphash"
)

// joinTable is the hash table of a hash or index join: the build rows'
// refs by join key. While rows are added, each distinct key is a group
// (its bytes in one shared slice, groups chained per key hash) and the
// refs wait in one list; the first lookup sorts the refs by group into
// one slice, so that a lookup compares the key once and returns its
// group's refs without copying. Nothing is allocated per row (a map of
// strings to ref slices allocated a key and a slice per distinct key).
type joinTable struct {
	seed   maphash.Seed
	heads  map[uint64]int // key hash -> 1 + newest group with that hash
	groups []joinGroup
	keys   []byte
	pend   []pendRef // refs added since the last sort, in order
	refs   []rowRef  // sorted by group, each group in the order added
	sorted bool
}

type joinGroup struct {
	koff, klen int
	prev       int // 1 + the previous group with the same hash; 0: none
	n, start   int // its refs: refs[start : start+n] once sorted
}

type pendRef struct {
	g   int
	ref rowRef
}

// reset empties the table.
func (t *joinTable) reset() {
	if t.heads == nil {
		t.seed = maphash.MakeSeed()
	}
	t.heads = make(map[uint64]int)
	t.groups, t.keys, t.pend, t.refs = t.groups[:0], t.keys[:0], t.pend[:0], t.refs[:0]
	t.sorted = false
}

// release drops the table's memory.
func (t *joinTable) release() { *t = joinTable{seed: t.seed} }

// group returns the index of k's group among those filed under hash h,
// or -1.
func (t *joinTable) group(h uint64, k []byte) int {
	for i := t.heads[h]; i != 0; {
		g := &t.groups[i-1]
		if bytes.Equal(t.keys[g.koff:g.koff+g.klen], k) {
			return i - 1
		}
		i = g.prev
	}
	return -1
}

// has reports whether some ref is filed under key k.
func (t *joinTable) has(k []byte) bool { return t.group(maphash.Bytes(t.seed, k), k) >= 0 }

// add files ref under key k.
func (t *joinTable) add(k []byte, ref rowRef) {
	if t.sorted && len(t.refs) > 0 {
		t.unsort()
	}
	h := maphash.Bytes(t.seed, k)
	g := t.group(h, k)
	if g < 0 {
		g = len(t.groups)
		t.groups = append(t.groups, joinGroup{koff: len(t.keys), klen: len(k), prev: t.heads[h]})
		t.keys = append(t.keys, k...)
		t.heads[h] = g + 1
	}
	t.groups[g].n++
	t.pend = append(t.pend, pendRef{g: g, ref: ref})
	t.sorted = false
}

// sort lays the refs out by group.
func (t *joinTable) sort() {
	off := 0
	for i := range t.groups {
		t.groups[i].start = off
		off += t.groups[i].n
		t.groups[i].n = 0 // refilled below
	}
	if cap(t.refs) < off {
		t.refs = make([]rowRef, off)
	}
	t.refs = t.refs[:off]
	for _, p := range t.pend {
		g := &t.groups[p.g]
		t.refs[g.start+g.n] = p.ref
		g.n++
	}
	t.pend = t.pend[:0]
	t.sorted = true
}

// unsort moves the sorted refs back to the pending list, group by group
// (the order within each group is what lookups keep).
func (t *joinTable) unsort() {
	for gi := range t.groups {
		g := &t.groups[gi]
		for _, r := range t.refs[g.start : g.start+g.n] {
			t.pend = append(t.pend, pendRef{g: gi, ref: r})
		}
	}
	t.refs = t.refs[:0]
}

// lookup returns the refs filed under k, in the order they were added.
// The slice is the table's: the caller must not modify it.
func (t *joinTable) lookup(k []byte) []rowRef {
	if !t.sorted {
		t.sort()
	}
	g := t.group(maphash.Bytes(t.seed, k), k)
	if g < 0 {
		return nil
	}
	gr := &t.groups[g]
	return t.refs[gr.start : gr.start+gr.n : gr.start+gr.n]
}
