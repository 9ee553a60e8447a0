package planner

import (
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/types"
)

// indexJoinFor makes j an index join when its right side is the base
// table of n, read with conds (over the table's columns), and some left
// keys equal the table's int primary key or the leading columns of one of
// its indexes, compared in the column's own class (so the lookup finds
// every row the equality would); and when the left side is expected to
// be smaller than the right (or force). The lookups use the index with
// the most key columns (the primary key first).
func (q *qbuilder) indexJoinFor(j *Join, n *lnode, conds []expr.Expression, force bool, outerEst, innerEst float64) {
	if n == nil || n.table == nil || n.plan != nil || IsMemTable(n.table.DB) || len(j.EqLeft) == 0 ||
		j.NullAwareKey || len(j.Cmp) > 0 {
		return
	}
	if !force && outerEst >= innerEst {
		return
	}
	t := n.table.Table
	stats := statsOf(q.ctx, t.ID)
	// cheap: the lookups (each costing about lookupCost scanned rows,
	// plus the rows they find) cost less than scanning the table once.
	cheap := func(fanout float64) bool {
		const lookupCost = 20
		return force || outerEst*(lookupCost+fanout) < stats.RowCount()+outerEst
	}
	colKey := map[int]int{} // table column offset -> key position
	for i, r := range j.EqRight {
		c, ok := r.(*expr.Column)
		if !ok || c.Index >= len(t.Columns) || j.NullEQ[i] {
			continue
		}
		cls, coll := j.Keys[i].Class()
		ft := &t.Columns[c.Index].FieldType
		if cls != ft.EvalType() || !keyComparable(ft) || cls == types.ETString && coll != ft.Collate {
			continue
		}
		if _, dup := colKey[c.Index]; !dup {
			colKey[c.Index] = i
		}
	}
	if pk := t.PKHandleColumn(); pk != nil {
		if k, ok := colKey[pk.Offset]; ok {
			if !cheap(1) {
				return
			}
			setIndexJoin(j, &IndexJoinInner{Source: *n.table, KeyPos: []int{k}, Conds: conds})
			return
		}
	}
	var best *catalog.IndexInfo
	var bestKeys []int
	for _, idx := range t.PublicIndices() {
		var keys []int
		for _, ic := range idx.Columns {
			k, ok := colKey[ic.Offset]
			if !ok || ic.Length >= 0 {
				break
			}
			keys = append(keys, k)
		}
		if len(keys) > len(bestKeys) {
			best, bestKeys = idx, keys
		}
	}
	if best != nil {
		fanout := stats.RowCount() / 1000 // pseudo: 1/1000 per value
		if is := stats.Index(best.ID); !is.Pseudo() && is.NDV() > 0 {
			fanout = stats.RowCount() / is.NDV()
			if len(bestKeys) < len(best.Columns) {
				// Only a prefix is equal: NDV of the whole index
				// overstates the selectivity.
				fanout *= float64(len(best.Columns) - len(bestKeys) + 1)
			}
		}
		if best.Unique && len(bestKeys) == len(best.Columns) {
			fanout = 1
		}
		if !cheap(fanout) {
			return
		}
		in := &IndexJoinInner{Source: *n.table, Index: best, KeyPos: bestKeys, Conds: conds}
		if j.Kind.IsSemi() {
			// Only the keys and the conditions read the right rows: the
			// index entries may be enough.
			needed := usedBy(len(n.table.Schema()), nil, j.EqRight...)
			markUsed(needed, conds...)
			nl := len(j.Left.Schema())
			markShifted(needed, nl, j.Other...)
			markShifted(needed, nl, j.Cmp...)
			in.IndexOnly = covers(&IndexLookUp{TableSource: *n.table, Index: best}, needed)
		}
		setIndexJoin(j, in)
	}
}

// IndexJoinRead stands for an index join's right side in the plan tree
// (EXPLAIN): the lookups the executor makes per batch of left rows.
type IndexJoinRead struct {
	Inner *IndexJoinInner
	Keys  []expr.Expression // the left keys of the lookup, in index order
}

// Schema implements Plan.
func (p *IndexJoinRead) Schema() []OutCol { return p.Inner.Source.Schema() }

// Children implements Plan.
func (p *IndexJoinRead) Children() []Plan { return nil }

func (p *IndexJoinRead) explainInfo() (name, obj, info string) {
	obj = "table:" + p.Inner.Source.Alias
	name = "Batch_Point_Get"
	if p.Inner.Index != nil {
		name = "IndexLookUp"
		if p.Inner.IndexOnly {
			name = "IndexRangeScan"
		}
		obj += ", index:" + p.Inner.Index.Name + "(" + idxCols(p.Inner.Index.Columns) + ")"
	}
	info = "decided by [" + exprList(p.Keys) + "]"
	if len(p.Inner.Conds) > 0 {
		info += ", filter:" + exprList(p.Inner.Conds)
	}
	return name, obj, info
}

// setIndexJoin makes j an index join reading through in.
func setIndexJoin(j *Join, in *IndexJoinInner) {
	j.IndexJoin = in
	keys := make([]expr.Expression, len(in.KeyPos))
	for i, k := range in.KeyPos {
		keys[i] = j.EqLeft[k]
	}
	j.Right = &IndexJoinRead{Inner: in, Keys: keys}
}
