package statistics

// Provider gives the planner the statistics of a table. The session's
// query context implements it; the planner's Context may embed it.
type Provider interface {
	// Stats returns the statistics of table tableID, or nil when there
	// are none (a nil *Table answers with pseudo estimates).
	Stats(tableID int64) *Table
}
