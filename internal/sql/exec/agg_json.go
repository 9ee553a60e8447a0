package exec

import (
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// jsonAgg is the state of JSON_ARRAYAGG (elems) or JSON_OBJECTAGG (keys
// and elems, in row order).
type jsonAgg struct {
	keys  []string
	elems []types.JSON
}

// addJSON folds one row into JSON_ARRAYAGG(v) or JSON_OBJECTAGG(k, v).
// Unlike the other aggregates they keep NULL values (as JSON null); a
// NULL key is MySQL's 3158.
func (s *aggState) addJSON(ctx expr.EvalContext, f *planner.AggFunc, row chunk.Row) error {
	if s.json == nil {
		s.json = &jsonAgg{}
	}
	v := f.Args[0]
	if f.Name == planner.AggJSONObjectAgg {
		k, err := f.Args[0].Eval(ctx, row)
		if err != nil {
			return err
		}
		if k.IsNull() {
			return sqlerr.New(mysql.ErrJSONDocumentNULLKey)
		}
		s.json.keys = append(s.json.keys, k.String())
		v = f.Args[1]
	}
	j, err := expr.JSONArgValue(ctx, row, v)
	if err != nil {
		return err
	}
	if j.Type == types.JSONDecimal && j.Dec != nil {
		// The value points into the input chunk, which the next batch
		// overwrites: keep a copy.
		c := new(types.Decimal)
		c.Set(&j.Dec.Decimal)
		j.Dec = c
	}
	s.json.elems = append(s.json.elems, j)
	s.count++
	return nil
}

// jsonResult is the group's array or object; NULL without rows.
func (s *aggState) jsonResult(f *planner.AggFunc) types.Datum {
	if s.json == nil || s.count == 0 {
		return types.NewNullDatum()
	}
	if f.Name == planner.AggJSONArrayAgg {
		return types.NewJSONDatum(types.JSONFromArray(s.json.elems))
	}
	var ob types.JSONObjectBuilder
	for i, k := range s.json.keys {
		ob.Add(k, s.json.elems[i])
	}
	return types.NewJSONDatum(ob.Build())
}
