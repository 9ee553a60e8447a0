package difftest

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// nullCell stands for SQL NULL in a result (no generated string looks like it).
const nullCell = "∅NULL"

// result is what one server answered to a query: column type names and the
// rows as raw text cells, or an error.
type result struct {
	types []string
	rows  [][]string
	err   error
}

// errText is the error as "Error NNNN: message" when it is a MySQL error.
func (r result) errText() string {
	var me *mysql.MySQLError
	if errors.As(r.err, &me) {
		return fmt.Sprintf("Error %d: %s", me.Number, me.Message)
	}
	return r.err.Error()
}

// run runs q on conn with a timeout.
func run(ctx context.Context, conn *sql.Conn, q string, timeout time.Duration) result {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return result{err: err}
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return result{err: err}
	}
	var res result
	for _, ct := range cts {
		res.types = append(res.types, ct.DatabaseTypeName())
	}
	vals := make([]sql.NullString, len(cts))
	ptrs := make([]any, len(cts))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return result{err: err}
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			if v.Valid {
				row[i] = v.String
			} else {
				row[i] = nullCell
			}
		}
		res.rows = append(res.rows, row)
	}
	if err := rows.Err(); err != nil {
		return result{err: err}
	}
	return res
}

// isFloatType reports whether a column type name is a binary float.
func isFloatType(name string) bool { return name == "DOUBLE" || name == "FLOAT" }

// normalize turns a cell into the form compared: floats (by the oracle's
// column type) rounded to 10 significant digits, so that sums in another
// order compare equal; strings lower-cased and right-trimmed, because
// which of 'a', 'A' and 'a ' a GROUP BY, DISTINCT, UNION, MIN or MAX under
// a PAD SPACE or case-insensitive collation returns is not determined.
func normalize(cell string, float bool) string {
	if cell == nullCell {
		return cell
	}
	if float {
		if f, err := strconv.ParseFloat(cell, 64); err == nil {
			if f == 0 {
				return "0" // -0 and 0
			}
			return strconv.FormatFloat(f, 'g', 10, 64)
		}
	}
	return strings.TrimRight(strings.ToLower(cell), " ")
}

// normRows normalizes every row into one comparable line, using the oracle's
// column types to pick the float columns; unordered results are sorted.
func normRows(r result, oracleTypes []string, ordered bool) []string {
	out := make([]string, 0, len(r.rows))
	for _, row := range r.rows {
		cells := make([]string, len(row))
		for i, c := range row {
			float := i < len(oracleTypes) && isFloatType(oracleTypes[i])
			cells[i] = normalize(c, float)
		}
		out = append(out, strings.Join(cells, " | "))
	}
	if !ordered {
		sort.Strings(out)
	}
	return out
}

// outcome classifies one query's pair of results.
type outcome int

const (
	same      outcome = iota // equal results, or both failed
	differ                   // both answered, differently
	strataErr                // only Strata failed
	mariaErr                 // only MariaDB failed
)

func (o outcome) String() string {
	return [...]string{"same", "different results", "only Strata failed", "only MariaDB failed"}[o]
}

// compare classifies the results of strata and maria (the oracle).
func compare(strata, maria result, ordered bool) outcome {
	switch {
	case strata.err != nil && maria.err != nil:
		return same
	case strata.err != nil:
		return strataErr
	case maria.err != nil:
		return mariaErr
	}
	if len(strata.types) != len(maria.types) {
		return differ
	}
	if !slices.Equal(normRows(strata, maria.types, ordered), normRows(maria, maria.types, ordered)) {
		return differ
	}
	return same
}

// format prints a result for a report, rows sorted unless ordered.
func (r result) format(ordered bool) string {
	if r.err != nil {
		return "error: " + r.errText()
	}
	lines := make([]string, 0, len(r.rows))
	for _, row := range r.rows {
		cells := make([]string, len(row))
		for i, c := range row {
			if c == nullCell {
				c = "NULL"
			} else if strings.HasSuffix(c, " ") || c == "" {
				c = strconv.Quote(c)
			}
			cells[i] = c
		}
		lines = append(lines, strings.Join(cells, " | "))
	}
	if !ordered {
		sort.Strings(lines)
	}
	if len(lines) == 0 {
		return "(no rows)"
	}
	return strings.Join(lines, "\n")
}
