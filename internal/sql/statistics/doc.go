// Package statistics keeps the table statistics the planner estimates
// row counts with (DESIGN.md "Planning"; issue 5, item 5), after TiDB's.
//
// # What ANALYZE builds
//
// ANALYZE TABLE reads every row of the table at one snapshot (Collect,
// over the record range, decoding rows with the catalog's helpers) and
// feeds them to a Collector, which does no I/O:
//
//	every row ──┬─> row count, NULL count, encoded size per column / index
//	            ├─> distinct count per column / index: exact set of 64-bit
//	            │   hashes up to 8192 values, then a HyperLogLog (p=14,
//	            │   ~0.8% error) — over the full scan, not the sample
//	            └─> reservoir sample of SampleSize rows (algorithm R,
//	                seeded: the same rows give the same sample)
//	sample ─────┬─> TopN: the most frequent values (seen twice or more)
//	            ├─> equi-depth histogram of the rest: buckets with lower
//	            │   and upper bound, count and the repeats of the upper
//	            │   bound; a value never spans two buckets
//	            └─> rank correlation of values with row order (columns)
//
// Sample counts are scaled to the table by nonNULL rows / nonNULL sampled.
// Values are memcomparable encodings (codec.EncodeKey) so that byte order
// is SQL order, strings cut to MaxValueLen bytes; an index's values are
// its columns' encodings one after the other (prefix columns cut), so
// that an equality on leading columns is the byte range of a prefix. A
// string column under a _ci collation keeps its values' sort keys
// (expr.IndexKeyDatum, as index keys do), so that values its collation
// calls equal are one value; SHOW STATS_BUCKETS prints those keys.
//
// # Estimation
//
// Table (nil-safe) and Stats answer RowCount, EqualRows, RangeRows,
// NullRows, NDV. A value in the TopN has its count; a bucket's upper
// bound its repeats; another value the histogram rows over the distinct
// values outside the TopN. A range adds the TopN values in it, whole
// buckets, and a linear share of partly covered buckets interpolated on
// the 8 bytes after the bounds' common prefix (exact for integers). All is
// scaled by the table's current rows over the analyzed rows. Never
// analyzed: TiDB's pseudo rates (10000 rows unless writes were counted,
// 1/1000 equal, 1/3 one-sided range, 1/40 two-sided range).
//
// # Storage and caching
//
// Statistics live in the metadata key space (storage.go): one Meta per
// table (analyzed count, net rows and modifications since, version) and
// one Hist per column and index, as JSON. Handle is a SQL server's cache:
// Refresh (on the session's 1 s sync loop) reloads every Meta and the
// Hists whose version moved, so every SQL server uses what any of them
// analyzed. Committed writes add to per-table pending deltas in memory
// (Update); Flush adds them to the Metas in one transaction (write
// conflicts retried). Readers see pending deltas too, each exactly once.
//
// # Automatic ANALYZE
//
// NeedsAnalyze is TiDB's rule: at least 1000 rows and either never
// analyzed or modify_count / count > tidb_auto_analyze_ratio. AutoAnalyze
// runs at most one ANALYZE per server at a time, in its own goroutine,
// and leaves a table that failed alone for a minute.
//
// # Locks
//
// Handle.loadMu serializes cache replacements (and is held across their
// KV I/O, never across a table scan); Handle.mu guards pending deltas and
// publishing the cache, so that a reader sees a delta either pending or
// in the cache. Order: loadMu, then mu.
//
// # Files
//
//	collector.go   Collector, Options, correlation
//	sketch.go      distinct counts
//	hist.go        Hist, TopN, buckets: building and per-value estimates
//	encode.go      value encoding for statistics (conversion, cutting)
//	table.go       Table, Meta, Stats, Bound: the planner's API, pseudo rates
//	format.go      values and sizes as SHOW STATS_* print them
//	provider.go    Provider, the interface the planner's Context implements
//	analyze.go     Collect: a table scan feeding a Collector
//	storage.go     keys and JSON in the cluster
//	handle.go      Handle: cache, deltas, flush, refresh, auto ANALYZE
package statistics
