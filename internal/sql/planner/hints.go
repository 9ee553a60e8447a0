package planner

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/strata-db/strata/internal/sql/catalog"
)

// joinAlgo is the join algorithm a hint asks for a table (as the inner
// side of its join).
type joinAlgo byte

const (
	algoAny joinAlgo = iota
	algoHash
	algoIndex
	algoMerge
)

// hints are a SELECT's optimizer hints (/*+ ... */) and STRAIGHT_JOIN:
// join algorithms by table alias (TiDB's HASH_JOIN, MERGE_JOIN,
// INL_JOIN / TIDB_INLJ, which name the inner table) and index choices
// (USE_INDEX, IGNORE_INDEX, FORCE_INDEX; the table-level USE / IGNORE /
// FORCE INDEX of MySQL are read from the table names).
type hints struct {
	algo     map[string]joinAlgo
	use      map[string][]string
	ignore   map[string][]string
	straight bool
}

// parseHints reads st's hints; nil (every method answers "no hint") when
// it has none, the common case, so that planning allocates nothing.
func parseHints(st *ast.SelectStmt) *hints {
	if len(st.TableHints) == 0 && (st.SelectStmtOpts == nil || !st.SelectStmtOpts.StraightJoin) {
		return nil
	}
	h := &hints{algo: map[string]joinAlgo{}, use: map[string][]string{}, ignore: map[string][]string{}}
	if st.SelectStmtOpts != nil {
		h.straight = st.SelectStmtOpts.StraightJoin
	}
	for _, th := range st.TableHints {
		var algo joinAlgo
		switch th.HintName.L {
		case "hash_join", "tidb_hj", "hash_join_build", "hash_join_probe":
			algo = algoHash
		case "inl_join", "tidb_inlj", "inl_hash_join", "inl_merge_join":
			algo = algoIndex
		case "merge_join", "tidb_smj":
			algo = algoMerge
		case "use_index", "force_index", "index":
			for _, t := range th.Tables {
				h.use[t.TableName.L] = appendNames(h.use[t.TableName.L], th.Indexes)
			}
			continue
		case "ignore_index", "no_index":
			for _, t := range th.Tables {
				h.ignore[t.TableName.L] = appendNames(h.ignore[t.TableName.L], th.Indexes)
			}
			continue
		case "straight_join":
			h.straight = true
			continue
		default:
			continue
		}
		for _, t := range th.Tables {
			h.algo[t.TableName.L] = algo
		}
	}
	return h
}

func appendNames(out []string, names []ast.CIStr) []string {
	for _, n := range names {
		out = append(out, n.L)
	}
	if out == nil {
		out = []string{}
	}
	return out
}

// algoFor is the hinted algorithm for the table read by n (any when n is
// not a base table or has no hint).
func (h *hints) algoFor(n *lnode) joinAlgo {
	if h == nil || n == nil || n.isJoin() || n.table == nil {
		return algoAny
	}
	return h.algo[strings.ToLower(n.table.Alias)]
}

// indexFilter returns which indexes the access path of n's table may
// use: nil when any.
func (h *hints) indexFilter(n *lnode) func(*catalog.IndexInfo) bool {
	if h == nil && len(n.hints) == 0 {
		return nil
	}
	alias := strings.ToLower(n.table.Alias)
	use, hasUse := h.lookupUse(alias)
	var ignore []string
	if h != nil {
		ignore = h.ignore[alias]
	}
	for _, ih := range n.hints {
		names := appendNames(nil, ih.IndexNames)
		switch ih.HintType {
		case ast.HintUse, ast.HintForce:
			use, hasUse = append(use, names...), true
		case ast.HintIgnore:
			ignore = append(ignore, names...)
		}
	}
	if !hasUse && len(ignore) == 0 {
		return nil
	}
	in := func(list []string, name string) bool {
		for _, x := range list {
			if strings.EqualFold(x, name) {
				return true
			}
		}
		return false
	}
	return func(idx *catalog.IndexInfo) bool {
		name := "primary"
		if idx != nil {
			name = idx.Name
		}
		if in(ignore, name) {
			return false
		}
		// USE INDEX () with no names means no index.
		return !hasUse || in(use, name)
	}
}

func (h *hints) lookupUse(alias string) ([]string, bool) {
	if h == nil {
		return nil, false
	}
	u, ok := h.use[alias]
	return u, ok
}
