package txnclient

import (
	"context"

	"github.com/strata-db/strata/internal/client/locate"
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/kvproto/kvrpcpb"
)

// scanner iterates a snapshot range page by page, crossing region
// boundaries. It implements kv.Iterator. The keys and values it returns
// belong to their page's response, which nothing writes to again: they
// stay valid after Next, and callers may keep them without copying (but
// must not modify them).
//
// The first page asks for ScanBatchSize pairs, and each full page doubles
// the next one's size up to MaxScanBatchSize, as TiDB's paging does: a
// short range costs one small read, a long one few requests. Once the
// caller has asked for a second page the scan is a long one, and the
// scanner reads each next page in the background while the caller
// consumes the current one, so storage and SQL work overlap.
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
	limit  int    // size of the next page
	pages  int    // pages received

	pending  chan pageRead // the next page, read in the background; nil if none
	bgCtx    context.Context
	bgCancel context.CancelFunc
}

// pageRead is one page read: its pairs, the region it read, and the
// page size asked for.
type pageRead struct {
	pairs []*kvrpcpb.KvPair
	loc   *locate.KeyLocation
	limit int
	err   error
}

// newScanner positions a scanner on the first pair of [start, end).
func newScanner(ctx context.Context, snap *snapshot, start, end []byte, reverse bool) (*scanner, error) {
	s := &scanner{snap: snap, ctx: ctx, start: start, end: end, reverse: reverse, limit: snap.c.opts.ScanBatchSize}
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

// read reads the page of the given size at cursor.
func (s *scanner) read(ctx context.Context, cursor []byte, limit int) pageRead {
	pairs, loc, err := s.snap.scanPage(ctx, s.start, s.end, cursor, s.reverse, limit)
	return pageRead{pairs: pairs, loc: loc, limit: limit, err: err}
}

// fetch loads pages until one is non-empty or the range is exhausted.
func (s *scanner) fetch() error {
	for !s.eof {
		var p pageRead
		if s.pending != nil {
			p = <-s.pending
			s.pending = nil
		} else {
			p = s.read(s.ctx, s.cursor, s.limit)
		}
		if p.err != nil {
			return p.err
		}
		s.advance(p)
		s.page, s.idx = p.pairs, 0
		if s.pages++; s.pages >= 2 && !s.eof {
			s.prefetch()
		}
		if len(p.pairs) > 0 {
			return nil
		}
	}
	s.page, s.idx = nil, 0
	return nil
}

// advance moves the cursor past page p and sizes the next page.
func (s *scanner) advance(p pageRead) {
	pairs := p.pairs
	switch {
	case len(pairs) == p.limit && s.reverse:
		s.cursor = pairs[len(pairs)-1].GetKey()
	case len(pairs) == p.limit:
		s.cursor = kv.Key(pairs[len(pairs)-1].GetKey()).Next()
	case s.reverse:
		// region exhausted: continue below its start, unless that is
		// already below the scan's start.
		if len(p.loc.StartKey) == 0 || compareBytes(p.loc.StartKey, s.start) <= 0 {
			s.eof = true
		}
		s.cursor = p.loc.StartKey
	default:
		if len(p.loc.EndKey) == 0 || len(s.end) > 0 && compareBytes(p.loc.EndKey, s.end) >= 0 {
			s.eof = true
		}
		s.cursor = p.loc.EndKey
	}
	if len(pairs) == p.limit {
		s.limit = min(2*s.limit, s.snap.c.opts.MaxScanBatchSize)
	}
}

// prefetch starts reading the next page in the background.
func (s *scanner) prefetch() {
	if s.bgCtx == nil {
		s.bgCtx, s.bgCancel = context.WithCancel(s.ctx)
	}
	ch := make(chan pageRead, 1)
	s.pending = ch
	ctx, cursor, limit := s.bgCtx, s.cursor, s.limit
	go func() { ch <- s.read(ctx, cursor, limit) }()
}

func (s *scanner) Valid() bool   { return s.idx < len(s.page) }
func (s *scanner) Key() kv.Key   { return s.page[s.idx].GetKey() }
func (s *scanner) Value() []byte { return s.page[s.idx].GetValue() }

// Close drops the current page and abandons a background read.
func (s *scanner) Close() {
	s.page = nil
	s.pending = nil
	if s.bgCancel != nil {
		s.bgCancel()
	}
}

// Next moves to the next pair, fetching the next page when needed.
func (s *scanner) Next() error {
	s.idx++
	if s.idx < len(s.page) {
		return nil
	}
	s.page = nil
	return s.fetch()
}
