package exec

import (
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/types"
)

// TIMESTAMP values are stored in UTC and shown in the session time zone,
// as MySQL does: the conversion happens at this package's edges only —
// values written (castValue, ON UPDATE CURRENT_TIMESTAMP) and key bounds
// built from a statement's values go to UTC; rows and index entries read
// come back in the session zone; the old rows an UPDATE or DELETE read go
// back to UTC before their index entries are removed. Paths that copy
// stored rows without the SQL layer (index backfill, statistics) stay in
// UTC throughout.

// sessionZone returns the session's time zone, nil when it is UTC (no
// conversion).
func (c *Context) sessionZone() *time.Location {
	if c == nil || c.Eval == nil {
		return nil
	}
	loc := c.Eval.Location()
	if loc == nil || loc == time.UTC || loc.String() == "UTC" {
		return nil
	}
	return loc
}

func isTimestamp(ft *types.FieldType) bool { return ft.Tp == mysql.TypeTimestamp }

// toStoredTS converts a TIMESTAMP value of the session zone to UTC.
func (c *Context) toStoredTS(ft *types.FieldType, d types.Datum) types.Datum {
	return c.convertTS(ft, d, true)
}

// toShownTS converts a stored (UTC) TIMESTAMP value to the session zone.
func (c *Context) toShownTS(ft *types.FieldType, d types.Datum) types.Datum {
	return c.convertTS(ft, d, false)
}

func (c *Context) convertTS(ft *types.FieldType, d types.Datum, toUTC bool) types.Datum {
	if !isTimestamp(ft) || d.Kind() != types.KindTime {
		return d
	}
	loc := c.sessionZone()
	if loc == nil {
		return d
	}
	if toUTC {
		return types.NewTimeDatum(d.GetTime().ConvertTimeZone(loc, time.UTC))
	}
	return types.NewTimeDatum(d.GetTime().ConvertTimeZone(time.UTC, loc))
}

// rowToStored converts the TIMESTAMP columns of a row read through this
// package (session zone) back to their stored form, in place.
func (c *Context) rowToStored(t *catalog.TableInfo, row []types.Datum) {
	if c.sessionZone() == nil {
		return
	}
	for i, col := range t.Columns {
		if i < len(row) {
			row[i] = c.toStoredTS(&col.FieldType, row[i])
		}
	}
}

// showRowTS converts, in place, the TIMESTAMP columns ts of chunk row i
// (just decoded from storage) to the session zone loc.
func showRowTS(chk *chunk.Chunk, i int, ts []int, loc *time.Location) {
	for _, ci := range ts {
		c := chk.Column(ci)
		if c.IsNull(i) {
			continue
		}
		tm := c.GetTime(i)
		c.SetPackedTime(i, tm.ConvertTimeZone(time.UTC, loc).Pack())
	}
}
