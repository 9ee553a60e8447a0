package session

import (
	"context"
	"sort"
	"strconv"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/infoschema"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/statistics"
	"github.com/strata-db/strata/internal/types"
)

// TiDB's SHOW STATS_META / STATS_HISTOGRAMS / STATS_BUCKETS / STATS_TOPN,
// with TiDB's columns (Partition_name is always empty: no partitions).

// execShowStats answers the SHOW STATS_* statements (ok false for
// another SHOW).
func (s *Session) execShowStats(ctx context.Context, st *ast.ShowStmt) (res server.Result, ok bool, err error) {
	var r *showRows
	switch st.Tp {
	case ast.ShowStatsMeta:
		r = s.showStatsMeta(ctx)
	case ast.ShowStatsHistograms:
		r = s.showStatsHistograms(ctx)
	case ast.ShowStatsBuckets:
		r = s.showStatsBuckets(ctx)
	case ast.ShowStatsTopN:
		r = s.showStatsTopN(ctx)
	default:
		return nil, false, nil
	}
	if err := r.filter(s.newQueryCtx(nil), st); err != nil {
		return nil, true, err
	}
	return r.result(), true, nil
}

// statsTable is a table the user may see, with its statistics.
type statsTable struct {
	db    string
	t     *catalog.TableInfo
	stats *statistics.Table
}

// statsTables lists the base tables the session's account sees, by
// database and name.
func (s *Session) statsTables(ctx context.Context) []statsTable {
	acc := s.account(ctx)
	src := &infoschema.Source{Account: acc}
	var out []statsTable
	is := s.d.catalog.InfoSchema()
	for _, t := range baseTables(is) {
		db, ok := is.DatabaseByID(t.DBID)
		if !ok {
			continue
		}
		if !acc.Global.Has(privilege.GlobalPrivs) && !src.VisibleTable(db.Name, t.Name) {
			continue
		}
		out = append(out, statsTable{db: db.Name, t: t, stats: s.d.stats.Table(t.ID)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].db != out[j].db {
			return out[i].db < out[j].db
		}
		return out[i].t.Name < out[j].t.Name
	})
	return out
}

func (s *Session) updateTime(m statistics.Meta) types.Datum {
	if !m.Analyzed() {
		return types.NewNullDatum()
	}
	return types.NewStringDatum(m.UpdateTime().In(s.vars.Location()).Format("2006-01-02 15:04:05"))
}

func statsFts(kinds string) []*types.FieldType {
	fts := make([]*types.FieldType, len(kinds))
	for i, k := range kinds {
		switch k {
		case 'I':
			fts[i] = types.NewFieldType(mysql.TypeLonglong)
		case 'R':
			fts[i] = types.NewFieldType(mysql.TypeDouble)
		default:
			fts[i] = types.NewFieldType(mysql.TypeVarchar)
			fts[i].Flen = 64
		}
	}
	return fts
}

func str(v string) types.Datum { return types.NewStringDatum(v) }
func num(v int64) types.Datum  { return types.NewIntDatum(v) }

// showStatsMeta: every table, with its row and modification counts
// (Update_time is the last ANALYZE's, NULL when never analyzed).
func (s *Session) showStatsMeta(ctx context.Context) *showRows {
	r := &showRows{names: []string{"Db_name", "Table_name", "Partition_name", "Update_time", "Modify_count", "Row_count"},
		fts: statsFts("TTTTII")}
	for _, x := range s.statsTables(ctx) {
		var m statistics.Meta
		if x.stats != nil {
			m = x.stats.Meta
		}
		r.rows = append(r.rows, []types.Datum{str(x.db), str(x.t.Name), str(""), s.updateTime(m), num(m.ModifyCount), num(m.RealtimeCount())})
	}
	return r
}

// histsOf lists an analyzed table's column and index statistics in
// column then index order, with their names.
func histsOf(x statsTable) (names []string, hists []*statistics.Hist) {
	if x.stats == nil || !x.stats.Meta.Analyzed() {
		return nil, nil
	}
	for _, c := range x.t.Columns {
		if h := x.stats.Columns[c.ID]; h != nil {
			names, hists = append(names, c.Name), append(hists, h)
		}
	}
	for _, idx := range x.t.PublicIndices() {
		if h := x.stats.Indices[idx.ID]; h != nil {
			names, hists = append(names, idx.Name), append(hists, h)
		}
	}
	return names, hists
}

func isIndex(h *statistics.Hist) types.Datum {
	if h.IsIndex {
		return num(1)
	}
	return num(0)
}

// showStatsHistograms: one row per analyzed column and index.
func (s *Session) showStatsHistograms(ctx context.Context) *showRows {
	r := &showRows{names: []string{"Db_name", "Table_name", "Partition_name", "Column_name", "Is_index", "Update_time",
		"Distinct_count", "Null_count", "Avg_col_size", "Correlation"}, fts: statsFts("TTTTITIIRR")}
	for _, x := range s.statsTables(ctx) {
		names, hists := histsOf(x)
		for i, h := range hists {
			r.rows = append(r.rows, []types.Datum{str(x.db), str(x.t.Name), str(""), str(names[i]), isIndex(h),
				s.updateTime(x.stats.Meta), num(h.NDV), num(h.NullCount),
				types.NewFloat64Datum(round2(h.AvgColSize())), types.NewFloat64Datum(round2(h.Correlation))})
		}
	}
	return r
}

// showStatsBuckets: the histograms' buckets, Count cumulative (TiDB's).
func (s *Session) showStatsBuckets(ctx context.Context) *showRows {
	r := &showRows{names: []string{"Db_name", "Table_name", "Partition_name", "Column_name", "Is_index", "Bucket_id",
		"Count", "Repeats", "Lower_Bound", "Upper_Bound", "Ndv"}, fts: statsFts("TTTTIIIITTI")}
	for _, x := range s.statsTables(ctx) {
		names, hists := histsOf(x)
		for i, h := range hists {
			var cum int64
			for j, b := range h.Buckets {
				cum += b.Count
				r.rows = append(r.rows, []types.Datum{str(x.db), str(x.t.Name), str(""), str(names[i]), isIndex(h),
					num(int64(j)), num(cum), num(b.Repeat), str(h.FormatValue(b.Lower)), str(h.FormatValue(b.Upper)), num(b.NDV)})
			}
		}
	}
	return r
}

// showStatsTopN: the frequent values and their counts.
func (s *Session) showStatsTopN(ctx context.Context) *showRows {
	r := &showRows{names: []string{"Db_name", "Table_name", "Partition_name", "Column_name", "Is_index", "Value", "Count"},
		fts: statsFts("TTTTITI")}
	for _, x := range s.statsTables(ctx) {
		names, hists := histsOf(x)
		for i, h := range hists {
			for _, t := range h.TopN {
				r.rows = append(r.rows, []types.Datum{str(x.db), str(x.t.Name), str(""), str(names[i]), isIndex(h),
					str(h.FormatValue(t.Value)), num(t.Count)})
			}
		}
	}
	return r
}

func round2(f float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'f', 2, 64), 64)
	return v
}
