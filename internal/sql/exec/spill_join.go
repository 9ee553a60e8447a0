package exec

import (
	"context"
	"hash/maphash"
	"io"

	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
)

// Grace hash join. When the tracker asks a hash join with keys to spill
// while it reads its build side, the build rows in memory and every
// later one go to joinPartitions files by a hash of their join key (the
// level's seed), and memory is released. The probe side is then
// partitioned the same way — except rows with a NULL key, which match
// nothing and are answered at once from the global facts kept while
// building: the number of build rows (NOT IN's "the subquery is not
// empty") and whether one had a NULL key (NOT IN's NULL). Then each
// pair of partitions is joined in memory; a build partition that is
// still too big is partitioned again with the next level's seed, at
// most joinMaxLevel deep (then 8175). A probe row meets exactly the
// build rows of its partition, which hold every row with its key, so
// inner, outer, semi and anti joins and their null-aware forms answer
// as in memory; only the order of the output differs.
const (
	joinPartitions = 16
	joinMaxLevel   = 6
)

// gracePhase is where the probing of a spilled join is.
type gracePhase byte

const (
	graceOff       gracePhase = iota // not spilled: probe in memory
	gracePartition                   // partitioning the probe input
	graceNextPart                    // about to load the next pair
	graceProbeFile                   // probing a partition file
)

// joinPart is a pair of partition files waiting to be joined.
type joinPart struct {
	build, probe *spillFile
	level        int
}

// graceJoin is hashJoin's spill state.
type graceJoin struct {
	spilled bool // the current build has spilled at level
	level   int
	phase   gracePhase
	bparts  []*spillFile
	pparts  []*spillFile
	pending []joinPart
	cur     joinPart
	seeds   []maphash.Seed
	bcodec  *rowCodec
	pcodec  *rowCodec
	rec     []byte
	key     []byte
	tmp     *chunk.Chunk
	mem     *MemTracker
	err     error
}

func (g *graceJoin) partIndex(key []byte) int {
	for len(g.seeds) <= g.level {
		g.seeds = append(g.seeds, maphash.MakeSeed())
	}
	return int(maphash.Bytes(g.seeds[g.level], key) % joinPartitions)
}

func newSpillFiles(n int) ([]*spillFile, error) {
	fs := make([]*spillFile, 0, n)
	for i := 0; i < n; i++ {
		f, err := newSpillFile()
		if err != nil {
			closeSpillFiles(fs)
			return nil, err
		}
		fs = append(fs, f)
	}
	return fs, nil
}

// write encodes row into the partition of key.
func (g *graceJoin) write(parts []*spillFile, c *rowCodec, key []byte, row chunk.Row) error {
	g.rec = c.encode(g.rec[:0], row)
	f := parts[g.partIndex(key)]
	f.write(g.rec)
	return f.err
}

// close drops every file.
func (g *graceJoin) close() {
	closeSpillFiles(g.bparts)
	closeSpillFiles(g.pparts)
	for _, p := range g.pending {
		_ = p.build.Close()
		_ = p.probe.Close()
	}
	_ = g.cur.build.Close()
	_ = g.cur.probe.Close()
	*g = graceJoin{seeds: g.seeds, bcodec: g.bcodec, pcodec: g.pcodec, rec: g.rec, key: g.key, tmp: g.tmp}
}

// endBuild readies the build partitions after a spilled build.
func (g *graceJoin) endBuild() error {
	if !g.spilled {
		return g.err
	}
	for _, f := range g.bparts {
		g.mem.RecordSpill(f.written)
	}
	return g.err
}

// buildSide returns the build input's keys and the probe's.
func (e *hashJoin) sideKeys() (build, probe []expr.Expression) {
	if e.p.BuildLeft {
		return e.p.EqLeft, e.p.EqRight
	}
	return e.p.EqRight, e.p.EqLeft
}

// addBuild keeps a build row with a non-NULL key k: in memory, or in
// its partition once the level has spilled.
func (e *hashJoin) addBuild(k []byte, row chunk.Row) error {
	g := &e.grace
	if g.spilled {
		return g.write(g.bparts, g.bcodec, k, row)
	}
	ref := e.store.add(row)
	if g.err != nil {
		return g.err
	}
	if !g.spilled { // else the row went to disk with the others
		e.table.add(k, ref)
	}
	return nil
}

// Spill writes the build rows in memory to the level's partitions and
// releases them. It does nothing outside the reading of a build side,
// for a join without keys, once the level has spilled, or at the
// deepest level.
func (e *hashJoin) Spill() (int64, error) {
	g := &e.grace
	bkeys, _ := e.sideKeys()
	if !e.building || g.spilled || g.err != nil || len(bkeys) == 0 || g.level >= joinMaxLevel || e.store.n == 0 {
		return 0, nil
	}
	if g.bcodec == nil {
		g.bcodec = newRowCodec(e.store.fts)
		g.pcodec = newRowCodec(e.probeSide().FieldTypes())
	}
	var err error
	if g.bparts, err = newSpillFiles(joinPartitions); err != nil {
		g.err = err
		return 0, err
	}
	g.spilled, g.mem = true, e.store.mem
	for _, ref := range e.store.all(nil) {
		row := e.store.get(ref)
		k, null, err := joinKeyOf(e.ectx, e.p, bkeys, row, g.key[:0])
		g.key = k
		if err != nil {
			g.err = err
			return 0, err
		}
		if null {
			continue // counted in buildRows and buildNull
		}
		if err := g.write(g.bparts, g.bcodec, k, row); err != nil {
			g.err = err
			return 0, err
		}
	}
	freed := e.store.bytes
	e.store.reset()
	e.table.reset()
	return freed, nil
}

// MemUsed reports the bytes of the build rows held.
func (e *hashJoin) MemUsed() int64 { return e.store.bytes }

func (e *hashJoin) probeSide() Executor {
	if e.p.BuildLeft {
		return e.right
	}
	return e.left
}

// fillGrace is fill for a spilled join.
func (e *hashJoin) fillGrace(ctx context.Context, n int) error {
	g := &e.grace
	if g.phase == graceOff {
		var err error
		if g.pparts, err = newSpillFiles(joinPartitions); err != nil {
			return err
		}
		g.phase = gracePartition
		if g.tmp == nil {
			g.tmp = chunk.New(e.probeSide().FieldTypes(), 1)
		}
	}
	_, pkeys := e.sideKeys()
	buf := e.lbuf
	if e.p.BuildLeft {
		buf = e.rbuf
	}
	for e.out.rows.NumRows() < n {
		switch g.phase {
		case gracePartition:
			if e.probeRow >= buf.NumRows() {
				if err := e.probeSide().Next(ctx, buf); err != nil {
					return err
				}
				e.probeRow = 0
				if buf.NumRows() == 0 {
					if err := e.endLevel(); err != nil {
						return err
					}
					continue
				}
			}
			row := buf.GetRow(e.probeRow)
			e.probeRow++
			k, null, err := e.keyOf(pkeys, row)
			if err != nil {
				return err
			}
			if null {
				if err := e.probe(row, k, true, false); err != nil {
					return err
				}
				continue
			}
			if err := g.write(g.pparts, g.pcodec, k, row); err != nil {
				return err
			}
		case graceNextPart:
			if len(g.pending) == 0 {
				e.probeEOF = true
				return nil
			}
			if err := e.loadPart(); err != nil {
				return err
			}
		case graceProbeFile:
			var err error
			g.rec, err = g.cur.probe.next(g.rec)
			if err == io.EOF {
				_ = g.cur.build.Close()
				_ = g.cur.probe.Close()
				g.cur = joinPart{}
				g.phase = graceNextPart
				continue
			}
			if err != nil {
				return err
			}
			g.tmp.Reset()
			if err := g.pcodec.decode(g.rec, g.tmp); err != nil {
				return err
			}
			row := g.tmp.GetRow(0)
			k, _, err := e.keyOf(pkeys, row)
			if err != nil {
				return err
			}
			if err := e.probe(row, k, false, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// endLevel turns the level's partition files into pending pairs (a
// pair whose probe file is empty has no output).
func (e *hashJoin) endLevel() error {
	g := &e.grace
	for i := range g.bparts {
		b, p := g.bparts[i], g.pparts[i]
		g.mem.RecordSpill(p.written)
		if p.records == 0 {
			_ = b.Close()
			_ = p.Close()
			continue
		}
		if err := b.rewind(); err != nil {
			return err
		}
		if err := p.rewind(); err != nil {
			return err
		}
		g.pending = append(g.pending, joinPart{build: b, probe: p, level: g.level + 1})
		g.bparts[i], g.pparts[i] = nil, nil
	}
	closeSpillFiles(g.bparts)
	closeSpillFiles(g.pparts)
	g.bparts, g.pparts = nil, nil
	g.spilled = false
	g.phase = graceNextPart
	return nil
}

// loadPart reads the next pending build partition into memory; if it
// spills again, its probe partition is partitioned at the next level.
func (e *hashJoin) loadPart() error {
	g := &e.grace
	part := g.pending[len(g.pending)-1]
	g.pending = g.pending[:len(g.pending)-1]
	g.cur = part
	e.store.reset()
	e.table.reset()
	g.level, g.spilled = part.level, false
	bkeys, pkeys := e.sideKeys()
	chk := chunk.New(e.store.fts, 1)
	e.building = true
	err := func() error {
		for {
			var err error
			g.rec, err = part.build.next(g.rec)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			// Each row gets a chunk of its own row in the store: decode
			// into a small chunk, then add copies it.
			chk.Reset()
			if err := g.bcodec.decode(g.rec, chk); err != nil {
				return err
			}
			row := chk.GetRow(0)
			k, _, err := joinKeyOf(e.ectx, e.p, bkeys, row, e.key[:0])
			e.key = k
			if err != nil {
				return err
			}
			if err := e.addBuild(k, row); err != nil {
				return err
			}
		}
	}()
	e.building = false
	if err == nil {
		err = e.store.Err()
	}
	if err != nil {
		return err
	}
	_ = part.build.Close()
	if !g.spilled {
		g.phase = graceProbeFile
		return nil
	}
	// Too big: partition its probe file too and queue the sub-pairs.
	if g.pparts, err = newSpillFiles(joinPartitions); err != nil {
		return err
	}
	ptmp := chunk.New(e.probeSide().FieldTypes(), 1)
	for {
		g.rec, err = part.probe.next(g.rec)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		ptmp.Reset()
		if err := g.pcodec.decode(g.rec, ptmp); err != nil {
			return err
		}
		k, _, err := joinKeyOf(e.ectx, e.p, pkeys, ptmp.GetRow(0), e.key[:0])
		e.key = k
		if err != nil {
			return err
		}
		f := g.pparts[g.partIndex(k)]
		f.write(g.rec)
		if f.err != nil {
			return f.err
		}
	}
	_ = part.probe.Close()
	g.cur = joinPart{}
	for _, f := range g.bparts {
		g.mem.RecordSpill(f.written)
	}
	return e.endLevel()
}
