// Package planner turns parsed statements into physical plans: name
// resolution against a catalog.InfoSchema, access path selection from the
// WHERE predicates, and the operators above the table read. It never
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
// FROM (one table) → WHERE (access path + Selection) → FOR UPDATE (Lock)
// → GROUP BY / aggregates (Agg: output is the group's first row of every
// child column, then the aggregate results, so that non-aggregated column
// references resolve as MySQL without ONLY_FULL_GROUP_BY) → HAVING
// (Selection) → field list (Projection, which also computes ORDER BY
// expressions not in the field list as hidden columns) → DISTINCT (Agg
// grouping the visible columns) → ORDER BY + LIMIT (Sort, TopN, Limit) →
// a final Projection dropping hidden columns.
//
// INSERT, REPLACE, UPDATE and DELETE plan their reads with the same
// access paths; EXPLAIN renders any plan with TiDB's columns.
package planner
