package planner

import (
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/types"
)

// colCond is a condition of the form column op constant-expression(s).
type colCond struct {
	col  int // offset in the table source
	name string
	args []expr.Expression // values (one; two for between; n for in)
	cond expr.Expression
	// subs are the alternatives of an OR of conditions on col (name "or").
	subs []colCond
}

// matchColCond recognises col = v, v op col, col IN (...), col BETWEEN a
// AND b and col IS NULL, where the values read no column (constants,
// parameters, folded expressions).
func matchColCond(e expr.Expression) (colCond, bool) {
	f, ok := e.(*expr.ScalarFunction)
	if !ok {
		return colCond{}, false
	}
	switch f.Name {
	case expr.FnEQ, expr.FnLT, expr.FnLE, expr.FnGT, expr.FnGE:
		if c, ok := f.Args[0].(*expr.Column); ok && isConst(f.Args[1]) {
			return colCond{col: c.Index, name: f.Name, args: f.Args[1:2], cond: e}, true
		}
		if c, ok := f.Args[1].(*expr.Column); ok && isConst(f.Args[0]) {
			return colCond{col: c.Index, name: expr.ReverseComparison(f.Name), args: f.Args[0:1], cond: e}, true
		}
	case expr.FnIn, expr.FnBetween:
		c, ok := f.Args[0].(*expr.Column)
		if !ok {
			return colCond{}, false
		}
		for _, a := range f.Args[1:] {
			if !isConst(a) {
				return colCond{}, false
			}
		}
		return colCond{col: c.Index, name: f.Name, args: f.Args[1:], cond: e}, true
	case expr.FnIsNull:
		if c, ok := f.Args[0].(*expr.Column); ok {
			return colCond{col: c.Index, name: f.Name, cond: e}, true
		}
	case expr.FnOr:
		var subs []colCond
		for _, a := range splitOr(e, nil) {
			sc, ok := matchColCond(a)
			if !ok || sc.name == expr.FnOr || (len(subs) > 0 && sc.col != subs[0].col) {
				return colCond{}, false
			}
			subs = append(subs, sc)
		}
		return colCond{col: subs[0].col, name: expr.FnOr, subs: subs, cond: e}, true
	}
	return colCond{}, false
}

// splitOr flattens a disjunction.
func splitOr(e expr.Expression, out []expr.Expression) []expr.Expression {
	if f, ok := e.(*expr.ScalarFunction); ok && f.Name == expr.FnOr && len(f.Args) == 2 {
		out = splitOr(f.Args[0], out)
		return splitOr(f.Args[1], out)
	}
	return append(out, e)
}

func isConst(e expr.Expression) bool { return len(expr.ExtractColumns(e)) == 0 }

// accessPath picks the read of src for conds (over src's schema), among
// the indexes src.indexes allows, and returns it with the conditions
// still to be checked on its rows.
func accessPath(src TableSource, conds []expr.Expression) (Plan, []expr.Expression) {
	allow := src.indexes
	ok := func(idx *catalog.IndexInfo) bool { return allow == nil || allow(idx) }
	ccs := colConds(conds)
	t := src.Table
	if pk := t.PKHandleColumn(); pk != nil && ok(nil) {
		if p, rest := handlePath(src, pk.Offset, ccs, conds); p != nil {
			return p, rest
		}
	}
	var best *IndexLookUp
	bestScore := 0
	for _, idx := range t.PublicIndices() {
		if !ok(idx) {
			continue
		}
		ranges, used, score := indexRanges(t, idx, ccs)
		if score > bestScore {
			best = &IndexLookUp{TableSource: src, Index: idx, Ranges: ranges, RangeConds: used}
			bestScore = score
		}
	}
	if best != nil {
		if pg := uniquePointGet(best); pg != nil {
			return pg, conds
		}
		return best, without(conds, best.RangeConds)
	}
	if !ok(nil) {
		return &TableScan{TableSource: src, Full: true}, conds
	}
	return tablePath(src, ccs, conds)
}

// tablePath reads src's rows by handle: the range of the bounds conds put
// on the int primary key, or the whole table.
func tablePath(src TableSource, ccs []colCond, conds []expr.Expression) (*TableScan, []expr.Expression) {
	// Handle ranges follow the signed order of handles: not for UNSIGNED
	// keys, whose large values are negative handles.
	if pk := src.Table.PKHandleColumn(); pk != nil && !pk.FieldType.IsUnsigned() {
		var r HandleRange
		var used []expr.Expression
		for _, cc := range ccs {
			if cc.col == pk.Offset && isBound(cc.name) {
				addBounds(&r.Lows, &r.Highs, cc)
				used = append(used, cc.cond)
			}
		}
		if len(r.Lows)+len(r.Highs) > 0 {
			return &TableScan{TableSource: src, Range: r, RangeConds: used}, without(conds, used)
		}
	}
	return &TableScan{TableSource: src, Full: true}, conds
}

// colConds returns the conditions of conds that matchColCond recognises.
func colConds(conds []expr.Expression) []colCond {
	var ccs []colCond
	for _, c := range conds {
		if cc, ok := matchColCond(c); ok {
			ccs = append(ccs, cc)
		}
	}
	return ccs
}

// handlePath: an equality or IN list on the int primary key is a
// (batch) point get, which checks the condition exactly.
func handlePath(src TableSource, pk int, ccs []colCond, conds []expr.Expression) (Plan, []expr.Expression) {
	for _, cc := range ccs {
		if cc.col != pk || (cc.name != expr.FnEQ && cc.name != expr.FnIn) {
			continue
		}
		rest := make([]expr.Expression, 0, len(conds))
		for _, c := range conds {
			if c != cc.cond {
				rest = append(rest, c)
			}
		}
		return &PointGet{TableSource: src, Handles: cc.args}, rest
	}
	return nil, conds
}

// isBound: a comparison or BETWEEN, which addBounds turns into bounds.
func isBound(name string) bool {
	switch name {
	case expr.FnEQ, expr.FnLT, expr.FnLE, expr.FnGT, expr.FnGE, expr.FnBetween:
		return true
	}
	return false
}

// without returns conds minus drop (by identity).
func without(conds, drop []expr.Expression) []expr.Expression {
	out := make([]expr.Expression, 0, len(conds))
next:
	for _, c := range conds {
		for _, d := range drop {
			if c == d {
				continue next
			}
		}
		out = append(out, c)
	}
	return out
}

// addBounds adds the range bounds of a comparison or BETWEEN.
func addBounds(lows, highs *[]Bound, cc colCond) {
	switch cc.name {
	case expr.FnEQ:
		*lows = append(*lows, Bound{Value: cc.args[0]})
		*highs = append(*highs, Bound{Value: cc.args[0]})
	case expr.FnGT:
		*lows = append(*lows, Bound{Value: cc.args[0], Excl: true})
	case expr.FnGE:
		*lows = append(*lows, Bound{Value: cc.args[0]})
	case expr.FnLT:
		*highs = append(*highs, Bound{Value: cc.args[0], Excl: true})
	case expr.FnLE:
		*highs = append(*highs, Bound{Value: cc.args[0]})
	case expr.FnBetween:
		*lows = append(*lows, Bound{Value: cc.args[0]})
		*highs = append(*highs, Bound{Value: cc.args[1]})
	}
}

// indexRanges builds the ranges of idx from the conditions: equalities on
// a prefix of its columns, then an IN list, IS NULL, an OR of conditions
// or range bounds on the next column. used are the conditions the ranges
// stand for; the score favours more equal columns.
func indexRanges(t *catalog.TableInfo, idx *catalog.IndexInfo, ccs []colCond) (ranges []IndexRange, used []expr.Expression, score int) {
	var eq []expr.Expression
	for _, ic := range idx.Columns {
		if ic.Length >= 0 || !keyComparable(&t.Columns[ic.Offset].FieldType) {
			break
		}
		var r IndexRange
		var in, or, null *colCond
		var bounds []expr.Expression
		for i := range ccs {
			cc := &ccs[i]
			if cc.col != ic.Offset {
				continue
			}
			switch cc.name {
			case expr.FnOr:
				or = cc
			case expr.FnIn:
				in = cc
			case expr.FnIsNull:
				null = cc
			default:
				addBounds(&r.Lows, &r.Highs, *cc)
				bounds = append(bounds, cc.cond)
			}
		}
		if v, ok := eqValue(r); ok {
			eq = append(eq, v)
			for _, cc := range ccs {
				if cc.col == ic.Offset && cc.name == expr.FnEQ && cc.args[0] == v {
					used = append(used, cc.cond)
					break
				}
			}
			score += 4
			continue
		}
		switch {
		case null != nil:
			nullC := expr.NewConstant(types.NewNullDatum(), nil)
			return []IndexRange{{Eq: append(eq, nullC), NullLast: true}}, append(used, null.cond), score + 4
		case in != nil:
			ranges := make([]IndexRange, len(in.args))
			for i, v := range in.args {
				ranges[i] = IndexRange{Eq: append(append([]expr.Expression(nil), eq...), v)}
			}
			return ranges, append(used, in.cond), score + 3
		case len(r.Lows)+len(r.Highs) > 0:
			r.Eq = eq
			return []IndexRange{r}, append(used, bounds...), score + 1
		case or != nil:
			return orRanges(eq, or.subs), append(used, or.cond), score + 2
		}
		break
	}
	if len(eq) == 0 {
		return nil, nil, 0
	}
	return []IndexRange{{Eq: eq}}, used, score
}

// eqValue returns the value of an equality among r's bounds.
func eqValue(r IndexRange) (expr.Expression, bool) {
	for _, l := range r.Lows {
		for _, h := range r.Highs {
			if l.Value == h.Value {
				return l.Value, true
			}
		}
	}
	return nil, false
}

// keyComparable: values of the type compare in SQL as their memcomparable
// index key encodings do (strings under binary collations, and under the
// case-insensitive ones whose keys hold sort keys: see catalog's
// index_collation.go).
func keyComparable(ft *types.FieldType) bool {
	if ft.EvalType() != types.ETString || expr.IsCollationKeyed(ft) {
		return true
	}
	c := ft.Collate
	return c == "binary" || c == "utf8mb4_bin" || c == "utf8_bin" || c == "utf8mb3_bin" || c == "ascii_bin" || c == "latin1_bin"
}

// keyDecodable: the index key of a value of the type decodes back into
// the value (an index-only read may return it): keyComparable types
// except collation-keyed strings.
func keyDecodable(ft *types.FieldType) bool {
	return keyComparable(ft) && !expr.IsCollationKeyed(ft)
}

// uniquePointGet turns a lookup of full equal keys of a unique index into
// a (batch) point get on the index.
func uniquePointGet(p *IndexLookUp) *PointGet {
	if !p.Index.Unique {
		return nil
	}
	for _, ic := range p.Index.Columns {
		// Trailing spaces: see exec's padRange.
		if ft := &p.Table.Columns[ic.Offset].FieldType; ft.EvalType() == types.ETString && ft.Collate != "binary" {
			return nil
		}
	}
	vals := make([][]expr.Expression, 0, len(p.Ranges))
	for _, r := range p.Ranges {
		if len(r.Eq) != len(p.Index.Columns) || len(r.Lows)+len(r.Highs) > 0 {
			return nil
		}
		for _, v := range r.Eq {
			if c, ok := v.(*expr.Constant); ok && !c.IsParam() && c.Value.IsNull() {
				return nil
			}
		}
		vals = append(vals, r.Eq)
	}
	return &PointGet{TableSource: p.TableSource, Index: p.Index, IndexValues: vals}
}

// orRanges is one range per alternative of an OR on the next index column
// after the equal prefix eq.
func orRanges(eq []expr.Expression, subs []colCond) []IndexRange {
	var out []IndexRange
	prefix := func(v ...expr.Expression) []expr.Expression {
		return append(append([]expr.Expression(nil), eq...), v...)
	}
	for _, sc := range subs {
		switch sc.name {
		case expr.FnIn:
			for _, v := range sc.args {
				out = append(out, IndexRange{Eq: prefix(v)})
			}
		case expr.FnIsNull:
			out = append(out, IndexRange{Eq: prefix(expr.NewConstant(types.NewNullDatum(), nil)), NullLast: true})
		case expr.FnEQ:
			out = append(out, IndexRange{Eq: prefix(sc.args[0])})
		default:
			r := IndexRange{Eq: prefix()}
			addBounds(&r.Lows, &r.Highs, sc)
			out = append(out, r)
		}
	}
	return out
}
