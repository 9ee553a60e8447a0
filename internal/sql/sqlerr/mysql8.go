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

	// Foreign keys, generated columns and CHECK constraints.
	ErrFKDepthExceeded              uint16 = 3008
	ErrFKCannotDropParent           uint16 = 3730
	ErrFKNoColumnParent             uint16 = 3734
	ErrGeneratedColumnNamedFunction uint16 = 3763
	ErrCheckNotBoolean              uint16 = 3812
	ErrColumnCheckRefersOther       uint16 = 3813
	ErrCheckNamedFunction           uint16 = 3814
	ErrCheckFunction                uint16 = 3815
	ErrCheckVariables               uint16 = 3816
	ErrCheckRefersAutoInc           uint16 = 3818
	ErrCheckViolated                uint16 = 3819
	ErrCheckUnknownColumn           uint16 = 3820
	ErrCheckNotFound                uint16 = 3821
	ErrCheckDupName                 uint16 = 3822
	ErrDependentByCheck             uint16 = 3959
	// ErrFieldInGroupingNotGroupBy: a GROUPING() argument that is not a
	// GROUP BY item.
	ErrFieldInGroupingNotGroupBy uint16 = 3580
)

func init() {
	tidbMessages[ErrCTERecursiveRequiresUnion] = "Recursive Common Table Expression '%s' should contain a UNION"
	tidbMessages[ErrCTERecursiveForbidsAggregation] = "Recursive Common Table Expression '%s' can contain neither aggregation nor window functions in recursive query block"
	tidbMessages[ErrCTERecursiveRequiresNonRecursiveFirst] = "Recursive Common Table Expression '%s' should have one or more non-recursive query blocks followed by one or more recursive ones"
	tidbMessages[ErrCTERecursiveForbiddenJoinOrder] = "In recursive query block of Recursive Common Table Expression '%s', the recursive table must neither be in the right argument of a LEFT JOIN, nor be forced to be non-first with join order hints"
	tidbMessages[ErrCTERecursiveRequiresSingleReference] = "In recursive query block of Recursive Common Table Expression '%s', the recursive table must be referenced only once, and not in any subquery"
	tidbMessages[ErrCTEMaxRecursionDepth] = "Recursive query aborted after %d iterations. Try increasing @@cte_max_recursion_depth to a larger value."
	tidbMessages[ErrFKDepthExceeded] = "Foreign key cascade delete/update exceeds max depth of %d."
	tidbMessages[ErrFKCannotDropParent] = "Cannot drop table '%s' referenced by a foreign key constraint '%s' on table '%s'."
	tidbMessages[ErrFKNoColumnParent] = "Failed to add the foreign key constraint. Missing column '%s' for constraint '%s' in the referenced table '%s'"
	tidbMessages[ErrGeneratedColumnNamedFunction] = "Expression of generated column '%s' contains a disallowed function: %s."
	tidbMessages[ErrCheckNotBoolean] = "An expression of non-boolean type specified to a check constraint '%s'."
	tidbMessages[ErrColumnCheckRefersOther] = "Column check constraint '%s' references other column."
	tidbMessages[ErrCheckNamedFunction] = "An expression of a check constraint '%s' contains disallowed function: %s."
	tidbMessages[ErrCheckFunction] = "An expression of a check constraint '%s' contains disallowed function."
	tidbMessages[ErrCheckVariables] = "An expression of a check constraint '%s' cannot refer to a user or system variable."
	tidbMessages[ErrCheckRefersAutoInc] = "Check constraint '%s' cannot refer to an auto-increment column."
	tidbMessages[ErrCheckViolated] = "Check constraint '%s' is violated."
	tidbMessages[ErrCheckUnknownColumn] = "Check constraint '%s' refers to non-existing column '%s'."
	tidbMessages[ErrCheckNotFound] = "Check constraint '%s' is not found in the table."
	tidbMessages[ErrCheckDupName] = "Duplicate check constraint name '%s'."
	tidbMessages[ErrFieldInGroupingNotGroupBy] = "Argument #%d of GROUPING function is not in GROUP BY"
	tidbMessages[ErrDependentByCheck] = "Check constraint '%s' uses column '%s', hence column cannot be dropped or renamed."
}

// Register adds an error number's SQLSTATE and message format for
// packages that define their own errors (call from init).
func Register(code uint16, state, format string) {
	tidbMessages[code] = format
	tidbStates[code] = state
}
