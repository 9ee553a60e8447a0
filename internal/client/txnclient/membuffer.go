package txnclient

import (
	"sort"
	"strings"
)

// bufEntry is one buffered mutation: a value, or a delete.
type bufEntry struct {
	value []byte
	del   bool
	// notExists: the key is presumed absent (PresumeNotExists); the
	// prewrite checks it (Op_Insert) instead of a read before.
	notExists bool
}

// memBuffer holds a transaction's writes. Keys are sorted lazily: appends
// are O(1) and the first ordered read after writes sorts once.
type memBuffer struct {
	m      map[string]bufEntry
	keys   []string // sorted when !dirty
	dirty  bool
	nBytes int
}

func newMemBuffer() *memBuffer { return &memBuffer{m: make(map[string]bufEntry)} }

// set buffers k = v (v is copied).
func (b *memBuffer) set(k []byte, v []byte) {
	b.put(string(k), bufEntry{value: append([]byte{}, v...)})
}

// delete buffers a delete of k.
func (b *memBuffer) delete(k []byte) { b.put(string(k), bufEntry{del: true}) }

func (b *memBuffer) put(k string, e bufEntry) {
	if old, ok := b.m[k]; ok {
		b.nBytes -= len(old.value)
		e.notExists = old.notExists && !e.del
	} else {
		b.keys = append(b.keys, k)
		b.dirty = true
		b.nBytes += len(k)
	}
	b.nBytes += len(e.value)
	b.m[k] = e
}

// get returns the buffered entry of k.
func (b *memBuffer) get(k []byte) (bufEntry, bool) {
	e, ok := b.m[string(k)]
	return e, ok
}

// len is the number of buffered keys.
func (b *memBuffer) len() int { return len(b.m) }

// size is the buffered bytes of keys and values.
func (b *memBuffer) size() int { return b.nBytes }

// sorted returns the buffered keys in order.
func (b *memBuffer) sorted() []string {
	if b.dirty {
		sort.Strings(b.keys)
		b.dirty = false
	}
	return b.keys
}

// rangeKeys returns the sorted buffered keys in [start, end); an empty end
// is unbounded. The slice is a copy.
func (b *memBuffer) rangeKeys(start, end []byte) []string {
	keys := b.sorted()
	lo := sort.SearchStrings(keys, string(start))
	hi := len(keys)
	if len(end) > 0 {
		hi = sort.Search(len(keys), func(i int) bool { return strings.Compare(keys[i], string(end)) >= 0 })
	}
	if lo >= hi {
		return nil
	}
	return append([]string(nil), keys[lo:hi]...)
}
