package types

import "time"

// Time is a MySQL DATE, DATETIME or TIMESTAMP value. Type is the mysql type
// code (mysql.TypeDate, mysql.TypeDatetime, mysql.TypeTimestamp); Fsp is
// the fractional seconds precision (0-6).
type Time struct {
	Year        uint16
	Month       uint8
	Day         uint8
	Hour        uint8
	Minute      uint8
	Second      uint8
	Microsecond uint32
	Type        byte
	Fsp         int8
}

// Duration is a MySQL TIME value: a signed span (MySQL's range is
// -838:59:59 to 838:59:59) with a fractional seconds precision.
type Duration struct {
	D   time.Duration
	Fsp int8
}
