package expr

import (
	"slices"

	"github.com/pingcap/tidb/pkg/parser/ast"
)

// ParamMarkers returns the '?' markers of a statement in text order and
// sets each one's Order to its index, which is the index of its value
// among COM_STMT_EXECUTE's parameters (the parser leaves Order unset).
// PREPARE calls it once; len of the result is the parameter count.
func ParamMarkers(stmt ast.Node) []*ParamMarkerExpr {
	c := &markerCollector{}
	stmt.Accept(c)
	slices.SortFunc(c.out, func(a, b *ParamMarkerExpr) int { return a.Offset - b.Offset })
	for i, m := range c.out {
		m.Order = i
	}
	return c.out
}

type markerCollector struct{ out []*ParamMarkerExpr }

func (c *markerCollector) Enter(n ast.Node) (ast.Node, bool) {
	if m, ok := n.(*ParamMarkerExpr); ok {
		c.out = append(c.out, m)
	}
	return n, false
}

func (c *markerCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }
