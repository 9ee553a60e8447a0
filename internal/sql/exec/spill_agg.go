package exec

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"io"
	"math"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/codec"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/types"
)

// Hash aggregation's spill. At level 0 the input is aggregated in
// memory; when the tracker asks hashAgg to spill, the level becomes
// active: each group in memory is written to one of aggPartitions files
// (chosen by a hash of its key with the level's seed) as a state record
// — its key, first row and aggregate states — and memory is released;
// every later row of the level goes to its group's file as a row
// record. A group's state record precedes its row records in its file.
// At the end of the input the files become partitions of level 1, each
// aggregated in turn from a fresh table: a state record restores its
// group, a row record updates (or starts) its group. A partition that
// is still too big spills the same way with the next level's seed, at
// most aggMaxLevel deep (then the statement fails with 8175).
const (
	aggPartitions = 16
	aggMaxLevel   = 6

	// aggDecodeRows is the size of the chunks partition rows are read
	// into.
	aggDecodeRows = 256

	aggRecRow   = 0
	aggRecState = 1
)

// aggPart is a partition file waiting to be aggregated.
type aggPart struct {
	f     *spillFile
	level int
}

// aggSpill is hashAgg's spill state.
type aggSpill struct {
	active  bool // the level has spilled: its rows go to parts
	level   int
	parts   []*spillFile
	pending []aggPart
	seeds   levelSeeds
	codec   *rowCodec
	rec     []byte
	tmp     *chunk.Chunk
	err     error // a write error (reported by the next charge)
}

func (s *aggSpill) partOf(key []byte) *spillFile {
	return s.parts[maphash.Bytes(s.seeds.at(s.level), key)%aggPartitions]
}

// start makes the level's partition files.
func (s *aggSpill) start(fts []*types.FieldType) error {
	if s.codec == nil {
		s.codec = newRowCodec(fts)
		s.tmp = chunk.New(fts, aggDecodeRows)
	}
	parts, err := newSpillFiles(aggPartitions)
	if err != nil {
		return err
	}
	s.parts, s.active = parts, true
	return nil
}

// writeRow sends an input row to its group's partition.
func (s *aggSpill) writeRow(key []byte, row chunk.Row) error {
	s.rec = append(s.rec[:0], aggRecRow)
	s.rec = s.codec.encode(s.rec, row)
	f := s.partOf(key)
	f.write(s.rec)
	return f.err
}

// endLevel turns the level's files into pending partitions of the next
// level.
func (s *aggSpill) endLevel(mem *MemTracker) error {
	if !s.active {
		return s.err
	}
	s.active = false
	parts := s.parts
	s.parts = nil
	for i, f := range parts {
		if s.err == nil && f.records > 0 {
			mem.RecordSpill(f.written)
			if err := f.rewind(); err != nil {
				s.err = err
			} else {
				s.pending = append(s.pending, aggPart{f: f, level: s.level + 1})
				parts[i] = nil
				continue
			}
		}
		_ = f.Close()
	}
	return s.err
}

// close drops every file.
func (s *aggSpill) close() {
	closeSpillFiles(s.parts)
	for _, p := range s.pending {
		_ = p.f.Close()
	}
	s.parts, s.pending = nil, nil
	s.active, s.level, s.err = false, 0, nil
}

// Spill writes the groups in memory to the level's partitions and
// releases them; the level's later rows go to the partitions too. It
// does nothing while groups are being returned, once the level has
// spilled, or at the deepest level.
func (e *hashAgg) Spill() (int64, error) {
	s := &e.spill
	if !e.filling || s.active || s.err != nil || s.level >= aggMaxLevel || len(e.groups) == 0 {
		return 0, nil
	}
	if err := s.start(e.cfts); err != nil {
		s.err = err
		return 0, err
	}
	for key, g := range e.index {
		s.rec = append(s.rec[:0], aggRecState)
		s.rec = binary.AppendUvarint(s.rec, uint64(len(key)))
		s.rec = append(s.rec, key...)
		s.rec = encodeAggGroup(s.rec, g)
		s.partOf([]byte(key)).write(s.rec)
	}
	freed := e.bytes
	e.release()
	return freed, nil
}

// MemUsed reports the bytes of the groups held.
func (e *hashAgg) MemUsed() int64 { return e.bytes }

// nextPartition aggregates the next pending partition into memory
// (false when none is left).
func (e *hashAgg) nextPartition() (bool, error) {
	s := &e.spill
	if len(s.pending) == 0 {
		return false, nil
	}
	part := s.pending[len(s.pending)-1]
	s.pending = s.pending[:len(s.pending)-1]
	defer part.f.Close()
	e.release()
	s.level = part.level
	e.filling = true
	err := e.aggregateFile(part.f)
	e.filling = false
	if err != nil {
		return false, err
	}
	return true, s.endLevel(e.mem)
}

func (e *hashAgg) aggregateFile(f *spillFile) error {
	s := &e.spill
	var rec []byte
	for {
		var err error
		rec, err = f.next(rec)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if len(rec) == 0 {
			return fmt.Errorf("%w: empty aggregation record", ErrSpillCorrupt)
		}
		switch rec[0] {
		case aggRecRow:
			// Rows are decoded into chunks that are never reused: an
			// aggregate state may keep values that point into its row.
			if s.tmp.NumRows() >= aggDecodeRows {
				s.tmp = chunk.New(e.cfts, aggDecodeRows)
			}
			if err := s.codec.decode(rec[1:], s.tmp); err != nil {
				return err
			}
			if err := e.add(s.tmp.GetRow(s.tmp.NumRows() - 1)); err != nil {
				return err
			}
		case aggRecState:
			if err := e.restoreGroup(rec); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%w: aggregation record kind %d", ErrSpillCorrupt, rec[0])
		}
	}
}

// restoreGroup brings back a group from its state record (or passes
// the record on when the level has spilled).
func (e *hashAgg) restoreGroup(rec []byte) error {
	s := &e.spill
	key, rest, err := spillBytes(rec[1:])
	if err != nil {
		return err
	}
	if s.active {
		f := s.partOf(key)
		f.write(rec)
		return f.err
	}
	g, err := decodeAggGroup(rest, e.p.Funcs)
	if err != nil {
		return err
	}
	if e.index[string(key)] != nil {
		return fmt.Errorf("%w: a group's state after its rows", ErrSpillCorrupt)
	}
	g.ctx = e.ectx.Eval
	e.index[string(key)] = g
	e.groups = append(e.groups, g)
	// Charged as add charges a new group: the states' growth is not
	// counted in memory either, and a state grown past the quota would
	// otherwise spill again at every level and fail at the last.
	return e.charge(int64(len(key)) + datumsSize(g.first, e.cfts) + 64*int64(len(e.p.Funcs)) + 64)
}

// encodeAggGroup appends a group's first row and states.
func encodeAggGroup(b []byte, g *aggGroup) []byte {
	b = binary.AppendUvarint(b, uint64(len(g.first)))
	for i := range g.first {
		b = encodeSpillDatum(b, &g.first[i])
	}
	b = binary.AppendUvarint(b, uint64(len(g.states)))
	for i := range g.states {
		b = encodeAggState(b, &g.states[i])
	}
	return b
}

func decodeAggGroup(b []byte, funcs []*planner.AggFunc) (*aggGroup, error) {
	n, b, err := spillUvarint(b)
	if err != nil || n > uint64(len(b)) {
		return nil, fmt.Errorf("%w: group's first row", ErrSpillCorrupt)
	}
	g := &aggGroup{first: make([]types.Datum, n)}
	for i := range g.first {
		if g.first[i], b, err = decodeSpillDatum(b); err != nil {
			return nil, err
		}
	}
	if n, b, err = spillUvarint(b); err != nil || n != uint64(len(funcs)) {
		return nil, fmt.Errorf("%w: group's states", ErrSpillCorrupt)
	}
	g.states = make([]aggState, n)
	for i := range g.states {
		if b, err = decodeAggState(b, &g.states[i]); err != nil {
			return nil, err
		}
	}
	if len(b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after a group", ErrSpillCorrupt, len(b))
	}
	return g, nil
}

// encodeAggState appends every field of an aggregate's state (the
// collation orders and key buffer are caches and are not kept).
func encodeAggState(b []byte, s *aggState) []byte {
	b = binary.AppendVarint(b, s.count)
	if s.isum != 0 {
		_ = s.flushSum() // see result
	}
	if s.dec != nil {
		b = append(b, 1)
		b = codec.EncodeDecimal(b, s.dec)
	} else {
		b = append(b, 0)
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.float))
	b = encodeSpillDatum(b, &s.val)
	if s.has {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(s.seen)))
	for k := range s.seen {
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
	}
	b = binary.LittleEndian.AppendUint64(b, s.bits)
	b = binary.AppendVarint(b, s.vr.n)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.vr.m))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(s.vr.s))
	b = binary.AppendUvarint(b, uint64(len(s.gc)))
	for _, r := range s.gc {
		b = binary.AppendUvarint(b, uint64(len(r.text)))
		b = append(b, r.text...)
		b = binary.AppendUvarint(b, uint64(len(r.keys)))
		for i := range r.keys {
			b = encodeSpillDatum(b, &r.keys[i])
		}
	}
	if s.json == nil {
		return append(b, 0)
	}
	b = append(b, 1)
	b = binary.AppendUvarint(b, uint64(len(s.json.keys)))
	for _, k := range s.json.keys {
		b = binary.AppendUvarint(b, uint64(len(k)))
		b = append(b, k...)
	}
	b = binary.AppendUvarint(b, uint64(len(s.json.elems)))
	var enc []byte
	for i := range s.json.elems {
		enc = types.EncodeJSON(enc[:0], &s.json.elems[i])
		b = binary.AppendUvarint(b, uint64(len(enc)))
		b = append(b, enc...)
	}
	return b
}

func decodeAggState(b []byte, s *aggState) ([]byte, error) {
	bad := func(what string) ([]byte, error) {
		return nil, fmt.Errorf("%w: aggregate state: %s", ErrSpillCorrupt, what)
	}
	var k int
	var u uint64
	var err error
	if s.count, k = binary.Varint(b); k <= 0 {
		return bad("count")
	}
	b = b[k:]
	if len(b) == 0 {
		return bad("decimal")
	}
	hasDec := b[0]
	b = b[1:]
	if hasDec == 1 {
		if b, s.dec, err = codec.DecodeDecimal(b); err != nil {
			return bad("decimal")
		}
	} else if hasDec != 0 {
		return bad("decimal flag")
	}
	if u, b, err = spillU64(b); err != nil {
		return nil, err
	}
	s.float = math.Float64frombits(u)
	if s.val, b, err = decodeSpillDatum(b); err != nil {
		return nil, err
	}
	if len(b) == 0 || b[0] > 1 {
		return bad("has")
	}
	s.has, b = b[0] == 1, b[1:]
	if u, b, err = spillUvarint(b); err != nil || u > uint64(len(b)) {
		return bad("distinct set")
	}
	if u > 0 {
		s.seen = make(map[string]struct{}, u)
		for i := uint64(0); i < u; i++ {
			var v []byte
			if v, b, err = spillBytes(b); err != nil {
				return nil, err
			}
			s.seen[string(v)] = struct{}{}
		}
	}
	if s.bits, b, err = spillU64(b); err != nil {
		return nil, err
	}
	if s.vr.n, k = binary.Varint(b); k <= 0 {
		return bad("variance")
	}
	b = b[k:]
	if u, b, err = spillU64(b); err != nil {
		return nil, err
	}
	s.vr.m = math.Float64frombits(u)
	if u, b, err = spillU64(b); err != nil {
		return nil, err
	}
	s.vr.s = math.Float64frombits(u)
	if u, b, err = spillUvarint(b); err != nil || u > uint64(len(b)) {
		return bad("GROUP_CONCAT rows")
	}
	for i := uint64(0); i < u; i++ {
		var r concatRow
		var text []byte
		if text, b, err = spillBytes(b); err != nil {
			return nil, err
		}
		r.text = append([]byte{}, text...)
		var nk uint64
		if nk, b, err = spillUvarint(b); err != nil || nk > uint64(len(b)) {
			return bad("GROUP_CONCAT keys")
		}
		r.keys = make([]types.Datum, nk)
		for j := range r.keys {
			if r.keys[j], b, err = decodeSpillDatum(b); err != nil {
				return nil, err
			}
		}
		s.gc = append(s.gc, r)
	}
	return decodeJSONAgg(b, s)
}

// decodeJSONAgg cuts JSON_ARRAYAGG / JSON_OBJECTAGG's state off b.
func decodeJSONAgg(b []byte, s *aggState) ([]byte, error) {
	bad := func(what string) ([]byte, error) {
		return nil, fmt.Errorf("%w: aggregate state: %s", ErrSpillCorrupt, what)
	}
	if len(b) == 0 || b[0] > 1 {
		return bad("JSON flag")
	}
	has := b[0] == 1
	b = b[1:]
	if !has {
		return b, nil
	}
	s.json = &jsonAgg{}
	n, b, err := spillUvarint(b)
	if err != nil || n > uint64(len(b)) {
		return bad("JSON keys")
	}
	for i := uint64(0); i < n; i++ {
		var k []byte
		if k, b, err = spillBytes(b); err != nil {
			return nil, err
		}
		s.json.keys = append(s.json.keys, string(k))
	}
	if n, b, err = spillUvarint(b); err != nil || n > uint64(len(b)) {
		return bad("JSON values")
	}
	for i := uint64(0); i < n; i++ {
		var v []byte
		if v, b, err = spillBytes(b); err != nil {
			return nil, err
		}
		j, err := types.DecodeJSON(v)
		if err != nil {
			return bad("JSON value")
		}
		s.json.elems = append(s.json.elems, j)
	}
	return b, nil
}
