package txnclient

import (
	"context"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// scanner iterates a snapshot range page by page (ScanBatchSize pairs per
// request), crossing region boundaries. It implements kv.Iterator. The
// keys and values it returns belong to their page's response, which
// nothing writes to again: they stay valid after Next, and callers may
// keep them without copying (but must not modify them).
type scanner struct {
	snap    *snapshot
	ctx     context.Context
	start   []byte
	end     []byte // empty: +inf
	reverse bool

	page   []*kvrpcpb.KvPair
	idx    int
	cursor []byte // next page starts here (forward) / ends here (reverse)
	eof    bool   // no page after the current one
}

// newScanner positions a scanner on the first pair of [start, end).
func newScanner(ctx context.Context, snap *snapshot, start, end []byte, reverse bool) (*scanner, error) {
	s := &scanner{snap: snap, ctx: ctx, start: start, end: end, reverse: reverse}
	if reverse {
		s.cursor = end
	} else {
		s.cursor = start
	}
	if err := s.fetch(); err != nil {
		return nil, err
	}
	return s, nil
}

// fetch loads pages until one is non-empty or the range is exhausted.
func (s *scanner) fetch() error {
	limit := s.snap.c.opts.ScanBatchSize
	for !s.eof {
		pairs, loc, err := s.snap.scanPage(s.ctx, s.start, s.end, s.cursor, s.reverse, limit)
		if err != nil {
			return err
		}
		s.page, s.idx = pairs, 0
		switch {
		case len(pairs) == limit && s.reverse:
			s.cursor = pairs[len(pairs)-1].GetKey()
		case len(pairs) == limit:
			s.cursor = kv.Key(pairs[len(pairs)-1].GetKey()).Next()
		case s.reverse:
			// region exhausted: continue below its start, unless that is
			// already below the scan's start.
			if len(loc.StartKey) == 0 || compareBytes(loc.StartKey, s.start) <= 0 {
				s.eof = true
			}
			s.cursor = loc.StartKey
		default:
			if len(loc.EndKey) == 0 || len(s.end) > 0 && compareBytes(loc.EndKey, s.end) >= 0 {
				s.eof = true
			}
			s.cursor = loc.EndKey
		}
		if len(pairs) > 0 {
			return nil
		}
	}
	s.page, s.idx = nil, 0
	return nil
}

func (s *scanner) Valid() bool   { return s.idx < len(s.page) }
func (s *scanner) Key() kv.Key   { return s.page[s.idx].GetKey() }
func (s *scanner) Value() []byte { return s.page[s.idx].GetValue() }
func (s *scanner) Close()        { s.page = nil }

// Next moves to the next pair, fetching the next page when needed.
func (s *scanner) Next() error {
	s.idx++
	if s.idx < len(s.page) {
		return nil
	}
	s.page = nil
	return s.fetch()
}
