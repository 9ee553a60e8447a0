package catalog

import (
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/types"
)

// Index keys and collations.
//
// An index key holds, for each string column under a case-insensitive
// collation (utf8mb4_general_ci, utf8mb4_0900_ai_ci, latin1_swedish_ci,
// ...), the collation's sort key of the value (expr.SortKey), not the
// value, as TiDB's new collation framework does. So:
//
//   - a UNIQUE index rejects 'a' after 'A' with 1062, because both have
//     one key;
//   - an equality or range on the column is a key range (exec's
//     indexKeyRange converts its bounds the same way), and = 'a' finds
//     'A';
//   - the key cannot be decoded back into the value: an index-only read
//     of such a column is not possible (planner's keyDecodable), rows are
//     read from the table.
//
// The binary collations (binary, *_bin) keep the value in the key, so
// that index-only reads of the default utf8mb4_bin columns stay possible;
// their PAD SPACE equality (trailing spaces ignored) is met by widened
// ranges and a re-check of the condition (exec's padRange). A UNIQUE
// index on a *_bin VARCHAR therefore takes 'a' and 'a ' as two values,
// where MySQL rejects the second: a known difference.
//
// The choice is per column type and fixed, so keys written before this
// layout (raw values in _ci columns) need the index rebuilt (DROP and
// ADD INDEX).

// IndexKeyValue returns the datum an index key holds for value d of a
// column of type ft (see above).
func IndexKeyValue(ft *types.FieldType, d types.Datum) types.Datum {
	return expr.IndexKeyDatum(ft, d)
}
