package session

import (
	"context"
	"fmt"

	"github.com/strata-db/strata/internal/sql/exec"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/sql/server"
)

// explainAnalyze runs the explained statement (writes included, as MySQL
// and TiDB do) with every operator measured, drops its result, and
// returns one row per operator: estimated and actual rows, time, loops,
// memory and disk.
func (s *Session) explainAnalyze(ctx context.Context, q *queryCtx, ex *planner.Explain) (server.Result, error) {
	stats := exec.NewRuntimeStats()
	s.collectStats = stats
	_, err := s.runPlan(ctx, q, ex.Target, nil)
	s.collectStats = nil
	if err != nil {
		return nil, err
	}
	rows := ex.AnalyzeRows(func(p planner.Plan) (string, string, string, string) {
		st := stats.Get(p)
		if st == nil {
			return "0", "N/A", "N/A", "N/A"
		}
		mem, disk := "N/A", "N/A"
		if st.Mem != nil {
			mem = formatBytes(st.Mem.Peak())
			if n := st.Mem.Spilled(); n > 0 {
				disk = formatBytes(n)
			}
		}
		return fmt.Sprint(st.Rows), st.Info(), mem, disk
	})
	return stringsResult(planner.ExplainAnalyzeColumns, rows), nil
}

// formatBytes prints a size as TiDB does (1.23 KB, 4.5 MB).
func formatBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d Bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.2f KB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.2f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.2f GB", float64(n)/(1<<30))
}
