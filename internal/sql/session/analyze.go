package session

import (
	"context"
	"fmt"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/infoschema"
	"github.com/strata-db/strata/internal/sql/privilege"
	"github.com/strata-db/strata/internal/sql/server"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/sql/statistics"
)

// analyzeColumns are the columns of ANALYZE TABLE's result (MySQL's).
var analyzeColumns = []string{"Table", "Op", "Msg_type", "Msg_text"}

// execAnalyze runs ANALYZE [NO_WRITE_TO_BINLOG | LOCAL] TABLE t [, t2 ...]
// (and TiDB's INDEX list and WITH N BUCKETS / TOPN / SAMPLES options,
// MySQL 8's UPDATE HISTOGRAM ON c, ...): it builds the statistics of
// every table from a fresh snapshot, after committing the open
// transaction (an implicit commit, as in MySQL). As in MySQL, a missing
// table or a view is a row of the result, not an error.
func (s *Session) execAnalyze(ctx context.Context, st *ast.AnalyzeTableStmt) (server.Result, error) {
	if st.HistogramOperation == ast.HistogramOperationDrop {
		return nil, sqlerr.New(sqlerr.ErrNotSupportedYet, "ANALYZE TABLE ... DROP HISTOGRAM")
	}
	opts, err := analyzeOptions(st.AnalyzeOpts)
	if err != nil {
		return nil, err
	}
	if err := s.commit(ctx); err != nil {
		return nil, err
	}
	acc := s.account(ctx)
	seen := map[[2]string]bool{}
	for _, tn := range st.TableNames {
		db := s.tableDB(tn)
		if db == "" {
			return nil, sqlerr.New(sqlerr.ErrNoDB)
		}
		k := [2]string{db, tn.Name.L}
		if seen[k] {
			return nil, sqlerr.New(mysql.ErrNonuniqTable, tn.Name.O)
		}
		seen[k] = true
		if infoschema.IsDB(db) {
			return nil, sqlerr.New(sqlerr.ErrDBAccessDenied, s.conn.User, s.conn.Host, tn.Schema.O)
		}
		need := privilege.SelectPriv | privilege.InsertPriv
		if !acc.Global.Has(privilege.GlobalPrivs) && !acc.Verify(db, tn.Name.L, need) {
			return nil, s.denied(privReq{db: db, table: tn.Name.L, priv: need}, acc)
		}
	}
	var rows [][]string
	for _, tn := range st.TableNames {
		db := tn.Schema.O
		if db == "" {
			db = s.db
		}
		name := db + "." + tn.Name.O
		t, err := s.d.catalog.InfoSchema().Table(db, tn.Name.O)
		switch {
		case err != nil:
			rows = append(rows, analyzeFailed(name, fmt.Sprintf("Table '%s' doesn't exist", name))...)
			continue
		case t.IsView():
			// MySQL's ER_WRONG_OBJECT text.
			rows = append(rows, analyzeFailed(name, fmt.Sprintf("'%s' is not BASE TABLE", name))...)
			continue
		}
		if st.HistogramOperation == ast.HistogramOperationUpdate {
			var missing []string
			for _, c := range st.ColumnNames {
				if t.Column(c.O) == nil {
					missing = append(missing, c.O)
				}
			}
			if len(missing) > 0 {
				for _, c := range missing {
					rows = append(rows, []string{name, "histogram", "Error", fmt.Sprintf("The column '%s' does not exist.", c)})
				}
				continue
			}
		}
		if _, err := s.d.stats.AnalyzeTable(ctx, t, opts); err != nil {
			return nil, err
		}
		if st.HistogramOperation == ast.HistogramOperationUpdate {
			for _, c := range st.ColumnNames {
				rows = append(rows, []string{name, "histogram", "status", fmt.Sprintf("Histogram statistics created for column '%s'.", c.O)})
			}
			continue
		}
		rows = append(rows, []string{name, "analyze", "status", "OK"})
	}
	return stringsResult(analyzeColumns, rows), nil
}

// analyzeFailed are the rows of a table ANALYZE could not analyze.
func analyzeFailed(name, msg string) [][]string {
	return [][]string{{name, "analyze", "Error", msg}, {name, "analyze", "status", "Operation failed"}}
}

// analyzeOptions reads WITH N BUCKETS / TOPN / SAMPLES (TiDB's limits and
// messages); the CM sketch and sample-rate options are accepted and
// ignored.
func analyzeOptions(list []ast.AnalyzeOpt) (statistics.Options, error) {
	opts := statistics.DefaultOptions()
	for _, o := range list {
		v, ok := o.Value.GetValue().(uint64)
		if !ok {
			if i, isInt := o.Value.GetValue().(int64); isInt && i >= 0 {
				v, ok = uint64(i), true
			}
		}
		name := ast.AnalyzeOptionString[o.Type]
		switch o.Type {
		case ast.AnalyzeOptNumBuckets:
			if !ok || v == 0 || v > statistics.MaxBuckets {
				return opts, sqlerr.Newf(sqlerr.ErrUnknown, "Value of analyze option %s should be positive and not larger than %d", name, statistics.MaxBuckets)
			}
			opts.Buckets = int(v)
		case ast.AnalyzeOptNumTopN:
			if !ok || v > statistics.MaxTopN {
				return opts, sqlerr.Newf(sqlerr.ErrUnknown, "Value of analyze option %s should not larger than %d", name, statistics.MaxTopN)
			}
			opts.TopN = int(v)
		case ast.AnalyzeOptNumSamples:
			if !ok || v > statistics.MaxSampleSize {
				return opts, sqlerr.Newf(sqlerr.ErrUnknown, "Value of analyze option %s should not larger than %d", name, statistics.MaxSampleSize)
			}
			if v > 0 {
				opts.SampleSize = int(v)
			}
		}
	}
	return opts, nil
}
