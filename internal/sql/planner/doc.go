// Package planner turns parsed statements into physical plans: name
// resolution against a catalog.InfoSchema, access path selection from the
// WHERE predicates, join order and algorithms, subquery rewriting, and
// the operators above the table reads. It never
// imports the executors or the session; a plan is plain data that
// internal/sql/exec runs.
//
// # Plans are immutable and parameter-agnostic
//
// Range bounds, point-get handles, LIMIT counts and every other value are
// kept as expr.Expressions (constants, '?' parameters, folded
// expressions), evaluated by the executors at each execution. A plan
// built for a prepared statement is therefore valid for any parameter
// values of the same kinds, which is what the session's plan cache relies
// on: EXECUTE re-binds parameters without re-planning. The access path
// never depends on a parameter's value.
//
// # Table reads and their output
//
// Every table read (PointGet, TableScan, IndexLookUp) outputs the same
// TableSource layout: all table columns in offset order, then the row
// handle as a hidden BIGINT column. Operators above refer to columns by
// position in their child's output (expr.Column.Index).
//
//	Projection / Sort / TopN / Limit / Agg
//	        │
//	   Selection   (residual predicates: what the access path does not stand for)
//	        │
//	PointGet │ TableScan (range on the int handle, or full) │ IndexLookUp (ranges on an index prefix)
//
// Access paths, in order of preference: an equality or IN list on the
// integer primary key (Point_Get / Batch_Point_Get, which check the
// condition exactly, so it is removed from the residual); the index with
// the most equal prefix columns, then an IN list, IS NULL or range on the
// next column (a unique index with all columns equal becomes a point get
// on the index); a range on the handle (TableRangeScan); TableFullScan.
// The conditions a range stands for move into the read (RangeConds):
// ranges may be a superset of the rows those conditions select when a
// value does not convert exactly to the column type (a bound is then
// dropped), which the executor detects per execution, re-checking the
// conditions only then. Every other predicate stays in a Selection.
// Indexes are used for ranges only over columns whose SQL comparison
// agrees with the memcomparable key order (not for strings under
// case-insensitive collations, not for prefix index columns).
//
// # SELECT
//
// A query level is planned by a qbuilder (query.go) that knows the
// enclosing level's scope (for correlated names), the CTEs in sight and
// the optimizer hints:
//
// FROM (from_logical.go: a tree of lnodes — base tables, derived tables,
// CTE reads, joins with their ON conditions; USING / NATURAL coalesce
// columns through an output map; RIGHT JOIN is a left join of the
// swapped sides) → WHERE (fromWhere: EXISTS / IN / ANY / ALL conjuncts
// become semi joins, the other conjuncts are pushed down by physical()
// to the tables they read, to the inner side of outer joins when their
// ON allows, or stay above) → FOR UPDATE (Lock per base table) → GROUP
// BY / aggregates (Agg: output is the group's first row of every child
// column, then the aggregate results, so that non-aggregated column
// references resolve as MySQL without ONLY_FULL_GROUP_BY; GROUP BY names
// a select alias or position when no FROM column matches) → HAVING
// (Selection) → window functions (window.go: a Sort and a Window per
// distinct specification) → field list (Projection, which also computes
// ORDER BY expressions not in the field list as hidden columns) →
// DISTINCT (Agg grouping the visible columns) → ORDER BY + LIMIT (Sort,
// TopN, Limit) → a final Projection dropping hidden columns.
//
// # Joins
//
// Consecutive inner joins (not STRAIGHT_JOIN) are flattened into units
// and ordered greedily (join_order.go): start from the unit with the
// fewest estimated rows, then join the smallest unit connected by an
// equality. Without statistics the estimates are TiDB's pseudo ones.
// Each join picks its algorithm (chooseAlgo): a hint (HASH_JOIN,
// INL_JOIN / TIDB_INLJ, MERGE_JOIN naming the inner table), else an index
// join when the right side is a base table whose int primary key or an
// index prefix equals left keys compared in the column's own class and
// the left side is expected smaller, else a hash join building the
// smaller side. Equalities between the two sides become hash keys
// (expr.JoinKey encodes values so that equal-by-comparison means
// equal bytes: collations, int/uint, decimals of any scale); the rest are
// Other conditions on the joined row.
//
// # Subqueries
//
// A subquery becomes an operator on the plan of the query containing it
// (subquery.go): scalar subqueries an Apply (at most one row per outer
// row, 1242 otherwise); EXISTS / IN / ANY / ALL a semi-family Join whose
// three-valued match is either a filter (SemiJoin, AntiSemiJoin) or a
// column (LeftOuterSemiJoin, AntiLeftOuterSemiJoin). x op ALL (s) is
// planned as NOT (x !op ANY (s)); NOT IN keeps MySQL's NULL semantics
// (a null-aware hash key for the common one-column case). A subquery
// whose correlated names all sit in top-level conjuncts of its WHERE (and
// IN's compared expression) is decorrelated into a join with its FROM;
// any other correlated subquery runs per outer row through an Apply that
// writes the outer values into the CorrelatedColumns' slots (scope.go).
//
// # Set operations and CTEs
//
// UNION / INTERSECT / EXCEPT [ALL] are left-deep SetOps whose column
// types merge as CASE's do. A CTE (cte.go) is materialized once per
// execution and read by CTERead nodes; a recursive one runs its
// recursive blocks over the previous iteration's rows (CTEWork) until no
// row is added, at most cte_max_recursion_depth times.
//
// INSERT, REPLACE, UPDATE and DELETE plan their reads with the same
// access paths; EXPLAIN renders any plan with TiDB's columns.
package planner
