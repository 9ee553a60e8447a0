package sqlerr

import (
	"fmt"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
)

// Error is a MySQL error as sent in an ERR packet.
type Error struct {
	// Code is the MySQL error number (mysql.ErrDupEntry, ...).
	Code uint16
	// State is the five-character SQLSTATE ("23000", "HY000", ...).
	State string
	// Message is the human-readable, already formatted message.
	Message string
}

// Error implements error in the form the mysql client prints.
func (e *Error) Error() string {
	return fmt.Sprintf("ERROR %d (%s): %s", e.Code, e.State, e.Message)
}

// Is makes errors.Is(err, target) true when target is a *Error with the same
// Code, so sentinels like ErrQueryInterrupted can be tested by identity.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// New returns the error code with its standard message formatted with args
// (MySQL's format, e.g. 1062 "Duplicate entry '%-.64s' for key '%-.192s'")
// and its standard SQLSTATE. A code without a known format gets "Unknown
// error %d" followed by the args. Arguments beyond the format's verbs are
// dropped rather than printed as %!(EXTRA ...).
func New(code uint16, args ...any) *Error {
	format, ok := Format(code)
	if !ok {
		msg := fmt.Sprintf("Unknown error %d", code)
		if len(args) > 0 {
			msg += ": " + fmt.Sprint(args...)
		}
		return &Error{Code: code, State: State(code), Message: msg}
	}
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
		if i := strings.Index(msg, "%!(EXTRA "); i >= 0 {
			msg = strings.TrimRight(msg[:i], " ")
		}
	}
	return &Error{Code: code, State: State(code), Message: msg}
}

// Newf returns the error code with its standard SQLSTATE and a message of
// the caller's own (used where MySQL's wording carries details its format
// cannot, e.g. a parse error's position).
func Newf(code uint16, format string, args ...any) *Error {
	return &Error{Code: code, State: State(code), Message: fmt.Sprintf(format, args...)}
}

// Format returns the message format of code and whether it is known.
func Format(code uint16) (string, bool) {
	if m, ok := tidbMessages[code]; ok {
		return m, true
	}
	if m, ok := mysql.MySQLErrName[code]; ok && m != nil {
		return m.Raw, true
	}
	return "", false
}

// State returns the SQLSTATE of code: MySQL's where it defines one, and
// "HY000" (general error) otherwise.
func State(code uint16) string {
	if s, ok := tidbStates[code]; ok {
		return s
	}
	if s, ok := mysql.MySQLState[code]; ok {
		return s
	}
	return mysql.DefaultMySQLState
}
