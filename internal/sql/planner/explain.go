package planner

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
)

// ExplainColumns are the columns of EXPLAIN's result, as in TiDB.
var ExplainColumns = []string{"id", "estRows", "task", "access object", "operator info"}

// ExplainAnalyzeColumns are the columns of EXPLAIN ANALYZE, as in TiDB.
var ExplainAnalyzeColumns = []string{"id", "estRows", "actRows", "task", "access object", "execution info", "operator info", "memory", "disk"}

// explainNodes lists p's nodes in ExplainRows' order.
func explainNodes(p Plan) []Plan {
	out := []Plan{p}
	for _, k := range p.Children() {
		out = append(out, explainNodes(k)...)
	}
	return out
}

// ExplainRows renders p as EXPLAIN rows (one per operator, children
// indented under their parent).
func ExplainRows(p Plan) [][]string { return explainRowsWith(p, estRows) }

// Rows renders the explained plan with the row estimates made when it
// was built (from the tables' statistics).
func (e *Explain) Rows() [][]string {
	return explainRowsWith(e.Target, func(p Plan) string {
		if v, ok := e.est[p]; ok {
			return strconv.FormatFloat(v, 'f', 2, 64)
		}
		return estRows(p)
	})
}

// AnalyzeRows is ExplainAnalyzeRows with the plan's estimates.
func (e *Explain) AnalyzeRows(run func(Plan) (actRows, info, memory, disk string)) [][]string {
	nodes := explainNodes(e.Target)
	rows := e.Rows()
	out := make([][]string, len(rows))
	for i, r := range rows {
		act, info, mem, disk := run(nodes[i])
		out[i] = []string{r[0], r[1], act, r[2], r[3], info, r[4], mem, disk}
	}
	return out
}

func explainRowsWith(p Plan, est func(Plan) string) [][]string {
	var rows [][]string
	n := 0
	var walk func(p Plan, indent string, last bool)
	walk = func(p Plan, indent string, last bool) {
		name, task, obj, info := describe(p)
		n++
		prefix := indent
		if indent != "" || n > 1 {
			if last {
				prefix += "└─"
			} else {
				prefix += "├─"
			}
		}
		rows = append(rows, []string{prefix + name + "_" + strconv.Itoa(n), est(p), task, obj, info})
		kids := p.Children()
		childIndent := indent
		if n > 1 {
			if last {
				childIndent += "  "
			} else {
				childIndent += "│ "
			}
		}
		for i, k := range kids {
			walk(k, childIndent, i == len(kids)-1)
		}
	}
	walk(p, "", true)
	return rows
}

func estRows(p Plan) string {
	switch x := p.(type) {
	case *PointGet:
		if len(x.Handles) > 0 {
			return fmt.Sprintf("%d.00", len(x.Handles))
		}
		return fmt.Sprintf("%d.00", len(x.IndexValues))
	case *TableScan:
		if !x.Full {
			return "250.00"
		}
	case *IndexLookUp:
		return "10.00"
	}
	return "10000.00"
}

// explainer is implemented by plans that describe themselves.
type explainer interface {
	explainInfo() (name, obj, info string)
}

func describe(p Plan) (name, task, obj, info string) {
	task = "root"
	switch x := p.(type) {
	case *PointGet:
		name = "Point_Get"
		if len(x.Handles) > 1 || len(x.IndexValues) > 1 {
			name = "Batch_Point_Get"
		}
		obj = "table:" + x.Alias
		if x.Index != nil {
			obj += ", index:" + indexDesc(x)
			var parts []string
			for _, vs := range x.IndexValues {
				parts = append(parts, "("+exprList(vs)+")")
			}
			info = "keys:" + strings.Join(parts, ", ")
		} else {
			info = "handle:" + exprList(x.Handles)
		}
	case *TableScan:
		name, task, obj = "TableRangeScan", "cop[tikv]", "table:"+x.Alias
		order := "keep order:" + strconv.FormatBool(x.KeepOrder)
		if x.Desc {
			order += ", desc"
		}
		if x.Full {
			name, info = "TableFullScan", order
		} else {
			info = "range:" + boundsDesc(nil, x.Range.Lows, x.Range.Highs) + ", " + order
		}
	case *IndexLookUp:
		name, obj = "IndexLookUp", "table:"+x.Alias+", index:"+x.Index.Name+"("+idxCols(x.Index.Columns)+")"
		if x.IndexOnly {
			name, task = "IndexRangeScan", "cop[tikv]"
		}
		var rs []string
		for _, r := range x.Ranges {
			rs = append(rs, boundsDesc(r.Eq, r.Lows, r.Highs))
		}
		info = "range:" + strings.Join(rs, ", ")
	case *Selection:
		name, info = "Selection", exprList(x.Conds)
	case *Projection:
		name, info = "Projection", exprList(x.Exprs)
	case *Sort:
		name, info = "Sort", byList(x.By)
	case *TopN:
		name, info = "TopN", byList(x.By)+", offset:"+exprOr(x.Offset, "0")+", count:"+exprOr(x.Count, "")
	case *Limit:
		name, info = "Limit", "offset:"+exprOr(x.Offset, "0")+", count:"+exprOr(x.Count, "")
	case *Agg:
		name = "HashAgg"
		if x.Stream {
			name = "StreamAgg"
		}
		var parts []string
		if len(x.GroupBy) > 0 {
			parts = append(parts, "group by:"+exprList(x.GroupBy))
		}
		var fs []string
		for _, f := range x.Funcs {
			fs = append(fs, f.String())
		}
		if len(fs) > 0 {
			parts = append(parts, "funcs:"+strings.Join(fs, ", "))
		}
		info = strings.Join(parts, ", ")
	case *Lock:
		name, info = "SelectLock", "for update"
	case *Insert:
		name, info = "Insert", "N/A"
		if x.Replace {
			name = "Replace"
		}
		obj = "table:" + x.Table.Name
	case *Update:
		name, obj, info = "Update", "table:"+x.Table.Name, "N/A"
	case *Delete:
		name, obj, info = "Delete", "table:"+x.Table.Name, "N/A"
	case *Explain:
		name = "Explain"
	case explainer:
		name, obj, info = x.explainInfo()
	default:
		name = fmt.Sprintf("%T", p)
	}
	return name, task, obj, info
}

func indexDesc(p *PointGet) string { return p.Index.Name + "(" + idxCols(p.Index.Columns) + ")" }

func idxCols(cols []*catalog.IndexColumn) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

func exprList(es []expr.Expression) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

func exprOr(e expr.Expression, def string) string {
	if e == nil {
		return def
	}
	return e.String()
}

func byList(by []ByItem) string {
	parts := make([]string, len(by))
	for i, b := range by {
		parts[i] = b.Expr.String()
		if b.Desc {
			parts[i] += ":desc"
		}
	}
	return strings.Join(parts, ", ")
}

// boundsDesc renders a range: [eq... low, eq... high] with ( ) for
// excluded bounds and -inf/+inf for none.
func boundsDesc(eq []expr.Expression, lows, highs []Bound) string {
	lo, hi := "-inf", "+inf"
	lb, hb := "[", "]"
	if len(lows) > 0 {
		lo = boundList(lows)
		if lows[0].Excl {
			lb = "("
		}
	} else if len(eq) == 0 {
		lb = "("
	}
	if len(highs) > 0 {
		hi = boundList(highs)
		if highs[0].Excl {
			hb = ")"
		}
	} else if len(eq) == 0 {
		hb = ")"
	}
	if len(eq) > 0 {
		parts := make([]string, len(eq))
		for i, x := range eq {
			parts[i] = x.String()
		}
		e := strings.Join(parts, " ")
		if len(lows)+len(highs) == 0 {
			return "[" + e + "," + e + "]"
		}
		lo, hi = e+" "+lo, e+" "+hi
	}
	return lb + lo + "," + hi + hb
}

func boundList(bs []Bound) string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = b.Value.String()
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "max/min(" + strings.Join(parts, ", ") + ")"
}
