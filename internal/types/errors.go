package types

import "errors"

// Conversion errors. Functions that convert a value to a column type return
// the best-effort value (clamped, truncated or zero, as MySQL stores it in
// non-strict sql_mode) together with one of these errors wrapped with
// detail, so the SQL layer can either fail the statement (strict mode) or
// store the value with a warning. Check them with errors.Is.
var (
	// ErrOverflow: a value out of the column type's range (MySQL 1264,
	// SQLSTATE 22003, "Out of range value for column").
	ErrOverflow = errors.New("out of range value")
	// ErrTruncated: a value that lost data in conversion, such as trailing
	// garbage after a number (MySQL 1265, SQLSTATE 01000, "Data truncated
	// for column").
	ErrTruncated = errors.New("data truncated")
	// ErrDataTooLong: a string longer than the column (MySQL 1406, SQLSTATE
	// 22001, "Data too long for column").
	ErrDataTooLong = errors.New("data too long")
	// ErrIncorrectValue: a string that is not a number at all, such as 'abc'
	// for an INT column (MySQL 1366, SQLSTATE HY000, "Incorrect integer
	// value").
	ErrIncorrectValue = errors.New("incorrect value")
	// ErrWrongTimeValue: a string that is not a valid date, datetime or
	// time, or a date that the sql_mode forbids (MySQL 1292, SQLSTATE 22007,
	// "Incorrect datetime value").
	ErrWrongTimeValue = errors.New("incorrect time value")
	// ErrDivByZero: division by zero (MySQL 1365, SQLSTATE 22012; in
	// expressions the result is NULL with a warning).
	ErrDivByZero = errors.New("division by 0")
)
