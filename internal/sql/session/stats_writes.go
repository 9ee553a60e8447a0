package session

import (
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/sql/statistics"
)

// noteWrite counts a successful write statement's rows for the
// statistics' modification counts: at once when its transaction
// committed with it, at COMMIT when it runs in an explicit transaction.
// The affected rows are MySQL's.
func (s *Session) noteWrite(p planner.Plan, affected uint64) {
	if affected == 0 {
		return
	}
	n := int64(affected)
	var id int64
	var d statistics.Delta
	switch w := p.(type) {
	case *planner.Insert:
		// REPLACE and ON DUPLICATE KEY UPDATE count a replaced or
		// updated row twice: the count drifts up until the next ANALYZE.
		id, d = w.Table.ID, statistics.Delta{Count: n, Modify: n}
	case *planner.Update:
		id, d = w.Table.ID, statistics.Delta{Modify: n}
	case *planner.Delete:
		id, d = w.Table.ID, statistics.Delta{Count: -n, Modify: n}
	default:
		return
	}
	if s.txn == nil {
		s.d.stats.Update(id, d)
		return
	}
	if s.txnStats == nil {
		s.txnStats = map[int64]statistics.Delta{}
	}
	s.txnStats[id] = s.txnStats[id].Add(d)
}

// endTxnStats hands the explicit transaction's counts to the statistics
// if it committed, and drops them otherwise (the map is kept for the
// session's next transaction).
func (s *Session) endTxnStats(committed bool) {
	if committed {
		for id, d := range s.txnStats {
			s.d.stats.Update(id, d)
		}
	}
	clear(s.txnStats)
}
