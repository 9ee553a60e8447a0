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
	seeds   levelSeeds
	bcodec  *rowCodec
	pcodec  *rowCodec
	rec     []byte
	key     []byte
	tmp     *chunk.Chunk
	mem     *MemTracker
	err     error
}

func (g *graceJoin) partIndex(key []byte) int {
	return int(maphash.Bytes(g.seeds.at(g.level), key) % joinPartitions)
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

// addBuild keeps a build row with a non-NULL key k: in memory, or in
// its partition once the level has spilled.
func (e *hashJoin) addBuild(k []byte, row chunk.Row) error {
	g := &e.grace
	if g.spilled {
		return g.write(g.bparts, g.bcodec, k, row)
	}
	if e.firstOnly && e.table.has(k) {
		return nil
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
	build, probe := e.sides()
	if !e.building || g.spilled || g.err != nil || len(build.keys) == 0 || g.level >= joinMaxLevel || e.store.n == 0 {
		return 0, nil
	}
	if g.bcodec == nil {
		g.bcodec = newRowCodec(e.store.fts)
		g.pcodec = newRowCodec(probe.in.FieldTypes())
	}
	var err error
	if g.bparts, err = newSpillFiles(joinPartitions); err != nil {
		g.err = err
		return 0, err
	}
	g.spilled, g.mem = true, e.store.mem
	for i := 0; i < e.store.n; i++ {
		row := e.store.at(i)
		k, null, err := joinKeyOf(e.ectx, e.p, build.keys, row, g.key[:0])
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

// fillGrace is fill for a spilled join.
func (e *hashJoin) fillGrace(ctx context.Context, n int) error {
	g := &e.grace
	_, pr := e.sides()
	if g.phase == graceOff {
		var err error
		if g.pparts, err = newSpillFiles(joinPartitions); err != nil {
			return err
		}
		g.phase = gracePartition
		if g.tmp == nil {
			g.tmp = chunk.New(pr.in.FieldTypes(), 1)
		}
	}
	for e.out.rows.NumRows() < n {
		switch g.phase {
		case gracePartition:
			row, ok, err := e.nextProbe(ctx, pr)
			if err != nil {
				return err
			}
			if !ok {
				if err := e.endLevel(); err != nil {
					return err
				}
				continue
			}
			k, null, err := e.keyOf(pr.keys, row)
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
			row, k, err := e.readSpilled(g.cur.probe, g.pcodec, g.tmp, pr.keys)
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
			if err := e.probe(row, k, false, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// readSpilled reads the next record of a partition file into chk (a
// chunk of one row) and returns the row and its join key; io.EOF at the
// end. The record stays in g.rec.
func (e *hashJoin) readSpilled(f *spillFile, c *rowCodec, chk *chunk.Chunk, keys []expr.Expression) (chunk.Row, []byte, error) {
	g := &e.grace
	var err error
	if g.rec, err = f.next(g.rec); err != nil {
		return chunk.Row{}, nil, err
	}
	chk.Reset()
	if err := c.decode(g.rec, chk); err != nil {
		return chunk.Row{}, nil, err
	}
	row := chk.GetRow(0)
	k, _, err := e.keyOf(keys, row)
	return row, k, err
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
	build, probe := e.sides()
	chk := chunk.New(e.store.fts, 1) // the store copies each row out of it
	e.building = true
	err := func() error {
		for {
			row, k, err := e.readSpilled(part.build, g.bcodec, chk, build.keys)
			if err == io.EOF {
				return nil
			}
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
	for {
		_, k, err := e.readSpilled(part.probe, g.pcodec, g.tmp, probe.keys)
		if err == io.EOF {
			break
		}
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
