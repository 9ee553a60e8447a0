package exec

import (
	"cmp"
	"container/heap"
	"context"
	"io"
	"slices"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/types"
)

// mergeBatchRows is how many rows a run's reader decodes at a time.
const mergeBatchRows = 128

// mergeSource is one sorted input of the merge: a run on disk, read a
// batch at a time, or the rows still in memory.
type mergeSource struct {
	file *spillFile // nil: the rows in memory
	rows []sortRow
	pos  int
	chk  *chunk.Chunk
	rec  []byte
	done bool
}

// sortMerger merges sorted sources with a heap, streaming. Ties go to
// the source of lower index: runs are in input order and the rows in
// memory came last, so the merge is stable like the in-memory sort.
type sortMerger struct {
	e    *sortExec
	srcs []*mergeSource
	h    []int // heap of source indexes with a current row
}

func newSortMerger(e *sortExec, runs []*spillFile, tail []sortRow) (*sortMerger, error) {
	m := &sortMerger{e: e}
	for _, f := range runs {
		m.srcs = append(m.srcs, &mergeSource{file: f, chk: chunk.New(e.fts, mergeBatchRows)})
	}
	m.srcs = append(m.srcs, &mergeSource{rows: tail})
	for i, s := range m.srcs {
		if s.file != nil {
			if err := s.file.rewind(); err != nil {
				return nil, err
			}
			if err := m.fill(s); err != nil {
				return nil, err
			}
		}
		if s.pos < len(s.rows) {
			m.h = append(m.h, i)
		}
	}
	heap.Init(m)
	return m, nil
}

// fill decodes the next batch of a run into s.rows.
func (m *sortMerger) fill(s *mergeSource) error {
	s.chk.Reset()
	clear(s.rows)
	s.rows, s.pos = s.rows[:0], 0
	if s.done {
		return nil
	}
	for s.chk.NumRows() < mergeBatchRows {
		var err error
		s.rec, err = s.file.next(s.rec)
		if err == io.EOF {
			s.done = true
			break
		}
		if err != nil {
			return err
		}
		if err := m.e.codec.decode(s.rec, s.chk); err != nil {
			return err
		}
	}
	for i := 0; i < s.chk.NumRows(); i++ {
		row := s.chk.GetRow(i)
		keys, err := m.e.keysOf(row)
		if err != nil {
			return err
		}
		s.rows = append(s.rows, sortRow{row: row, keys: keys})
	}
	return nil
}

// next returns the smallest current row (ok false at the end).
func (m *sortMerger) next() (chunk.Row, bool, error) {
	if len(m.h) == 0 {
		return chunk.Row{}, false, nil
	}
	s := m.srcs[m.h[0]]
	return s.rows[s.pos].row, true, nil
}

// advance moves past the row next returned (which is invalid after).
func (m *sortMerger) advance() error {
	s := m.srcs[m.h[0]]
	s.pos++
	if s.pos >= len(s.rows) && s.file != nil {
		if err := m.fill(s); err != nil {
			return err
		}
	}
	if s.pos >= len(s.rows) {
		heap.Pop(m)
		return nil
	}
	heap.Fix(m, 0)
	return nil
}

func (m *sortMerger) Len() int { return len(m.h) }
func (m *sortMerger) Less(i, j int) bool {
	a, b := m.srcs[m.h[i]], m.srcs[m.h[j]]
	if c := m.e.compareKeys(a.rows[a.pos].keys, b.rows[b.pos].keys); c != 0 {
		return c < 0
	}
	return m.h[i] < m.h[j]
}
func (m *sortMerger) Swap(i, j int) { m.h[i], m.h[j] = m.h[j], m.h[i] }
func (m *sortMerger) Push(x any)    { m.h = append(m.h, x.(int)) }
func (m *sortMerger) Pop() any {
	x := m.h[len(m.h)-1]
	m.h = m.h[:len(m.h)-1]
	return x
}

// topNHeap keeps the bound smallest rows seen (a max-heap; among equal
// keys the earlier row, by seq, is smaller, so the result is the stable
// sort's prefix). Kept rows are copied into a rowStore that is compacted
// when it holds twice the bound.
type topNHeap struct {
	e     *sortExec
	bound int
	items []sortRow
	store rowStore
	seq   int
	keys  []types.Datum // the offered row's keys
}

func (h *topNHeap) Len() int { return len(h.items) }
func (h *topNHeap) Less(i, j int) bool {
	if c := h.e.compareKeys(h.items[i].keys, h.items[j].keys); c != 0 {
		return c > 0
	}
	return h.items[i].seq > h.items[j].seq
}
func (h *topNHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *topNHeap) Push(x any)    { h.items = append(h.items, x.(sortRow)) }
func (h *topNHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}

// offer considers one row: its keys are evaluated, and it is copied if
// kept.
func (h *topNHeap) offer(row chunk.Row) error {
	if err := h.e.keysInto(h.keys, row); err != nil {
		return err
	}
	h.seq++
	if len(h.items) == h.bound && h.e.compareKeys(h.keys, h.items[0].keys) >= 0 {
		return nil
	}
	kept := h.keep(row)
	if len(h.items) == h.bound {
		h.items[0] = kept
		heap.Fix(h, 0)
	} else {
		heap.Push(h, kept)
	}
	if h.store.n > 2*h.bound+storeChunkRows {
		h.compact()
	}
	return nil
}

// keep copies row into the store, with a copy of its keys (they may
// alias the input chunk).
func (h *topNHeap) keep(row chunk.Row) sortRow {
	r := h.store.get(h.store.add(row))
	keys := make([]types.Datum, len(h.keys))
	for k := range keys {
		keys[k] = h.keys[k].Clone()
	}
	return sortRow{row: r, keys: keys, seq: h.seq}
}

// compact copies the kept rows into a fresh store.
func (h *topNHeap) compact() {
	old := h.store
	h.store = rowStore{fts: old.fts, mem: old.mem}
	for i := range h.items {
		h.items[i].row = h.store.get(h.store.add(h.items[i].row))
	}
	if h.store.err == nil {
		h.store.err = old.err
	}
	old.reset()
}

// openTopN reads the child keeping the first skip+left rows in order
// and leaves rows skip.. in e.rows.
func (e *sortExec) openTopN(ctx context.Context, skip, left uint64) error {
	bound := int(skip + left)
	if bound == 0 {
		return nil
	}
	h := &topNHeap{e: e, bound: bound, store: rowStore{fts: e.fts, mem: e.mem}, keys: make([]types.Datum, len(e.by))}
	defer func() { e.topStore = h.store }()
	err := e.drainChild(ctx, func(c *chunk.Chunk) error {
		for i := 0; i < c.NumRows(); i++ {
			if err := h.offer(c.GetRow(i)); err != nil {
				return err
			}
		}
		return h.store.Err()
	})
	if err != nil {
		return err
	}
	slices.SortFunc(h.items, func(a, b sortRow) int {
		if c := e.compareKeys(a.keys, b.keys); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	e.rows = append(e.rows, h.items...)
	if skip >= uint64(len(e.rows)) {
		e.rows = e.rows[:0]
	} else {
		e.rows = e.rows[skip:]
	}
	return nil
}
