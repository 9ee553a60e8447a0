package types

import (
	"fmt"
	"time"
)

var (
	minTimestamp = time.Date(1970, 1, 1, 0, 0, 1, 0, time.UTC)
	maxTimestamp = time.Date(2038, 1, 19, 3, 14, 7, 999999000, time.UTC)
)

// CheckTimestamp reports ErrWrongTimeValue for a TIMESTAMP outside MySQL's
// range '1970-01-01 00:00:01' to '2038-01-19 03:14:07.999999' UTC, with t
// read in the session time zone loc. The zero date is allowed (sql_mode
// decides, see Check).
func (t Time) CheckTimestamp(loc *time.Location) error {
	if t.IsZero() {
		return nil
	}
	g, err := t.GoTime(loc)
	if err != nil {
		return err
	}
	if g.Before(minTimestamp) || g.After(maxTimestamp) {
		return fmt.Errorf("%w: '%s' for TIMESTAMP", ErrWrongTimeValue, t)
	}
	return nil
}

// ConvertTimeZone returns the wall-clock time in to of t read in from
// (TIMESTAMP values are stored in UTC and shown in the session zone). The
// zero date and dates with zero parts are returned unchanged.
func (t Time) ConvertTimeZone(from, to *time.Location) Time {
	if from == to || t.Month == 0 || t.Day == 0 {
		return t
	}
	g, err := t.GoTime(from)
	if err != nil {
		return t
	}
	r := FromGoTime(g.In(to), t.Type, t.Fsp)
	r.Microsecond = t.Microsecond
	return r
}
