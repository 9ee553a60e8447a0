package sqlerr

// MySQL 8 error numbers missing from the parser's list, with MySQL's
// messages (registered in tidbMessages' lookup by init).
const (
	// ErrCTERecursiveRequiresUnion: a recursive CTE without UNION.
	ErrCTERecursiveRequiresUnion uint16 = 3573
	// ErrCTERecursiveForbidsAggregation: aggregation or window functions
	// in a recursive CTE's recursive part.
	ErrCTERecursiveForbidsAggregation uint16 = 3575
	// ErrCTERecursiveRequiresNonRecursiveFirst: the first query block of
	// a recursive CTE reads the CTE.
	ErrCTERecursiveRequiresNonRecursiveFirst uint16 = 3574
	// ErrCTERecursiveForbiddenJoinOrder: the recursive table on the
	// inner side of an outer join.
	ErrCTERecursiveForbiddenJoinOrder uint16 = 3576
	// ErrCTERecursiveRequiresSingleReference: the recursive table read
	// twice, or in a subquery, in one recursive block.
	ErrCTERecursiveRequiresSingleReference uint16 = 3577
	// ErrCTEMaxRecursionDepth: more iterations than cte_max_recursion_depth.
	ErrCTEMaxRecursionDepth uint16 = 3636
)

func init() {
	tidbMessages[ErrCTERecursiveRequiresUnion] = "Recursive Common Table Expression '%s' should contain a UNION"
	tidbMessages[ErrCTERecursiveForbidsAggregation] = "Recursive Common Table Expression '%s' can contain neither aggregation nor window functions in recursive query block"
	tidbMessages[ErrCTERecursiveRequiresNonRecursiveFirst] = "Recursive Common Table Expression '%s' should have one or more non-recursive query blocks followed by one or more recursive ones"
	tidbMessages[ErrCTERecursiveForbiddenJoinOrder] = "In recursive query block of Recursive Common Table Expression '%s', the recursive table must neither be in the right argument of a LEFT JOIN, nor be forced to be non-first with join order hints"
	tidbMessages[ErrCTERecursiveRequiresSingleReference] = "In recursive query block of Recursive Common Table Expression '%s', the recursive table must be referenced only once, and not in any subquery"
	tidbMessages[ErrCTEMaxRecursionDepth] = "Recursive query aborted after %d iterations. Try increasing @@cte_max_recursion_depth to a larger value."
}

// Register adds an error number's SQLSTATE and message format for
// packages that define their own errors (call from init).
func Register(code uint16, state, format string) {
	tidbMessages[code] = format
	tidbStates[code] = state
}
