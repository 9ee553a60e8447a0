package expr

import (
	"time"

	"github.com/strata-db/strata/internal/types"
)

// EvalContext is what evaluation needs from the statement that runs it: a
// small interface, not the session, so that executors, the coprocessor and
// tests can supply their own. Implementations need not be safe for
// concurrent use unless the caller evaluates in parallel.
type EvalContext interface {
	// SQLMode returns the sql_mode bitmask, with the bit values of
	// sysvar.SQLMode (MySQL 8's positions).
	SQLMode() uint64
	// Location returns the session time zone.
	Location() *time.Location
	// Now returns the statement's start time (NOW() is constant within a
	// statement).
	Now() time.Time
	// Param returns the i-th parameter of a prepared statement (NULL when
	// there is none).
	Param(i int) types.Datum
	// GetSysVar returns a system variable's value as text; global selects
	// @@global.
	GetSysVar(name string, global bool) (string, error)
	// GetUserVar returns a user variable (@name) and whether it is set.
	GetUserVar(name string) (types.Datum, bool)
	// CurrentDB returns the default database ("" when none).
	CurrentDB() string
	// User returns the client's login as 'user@host' (USER()).
	User() string
	// CurrentUser returns the account the login matched, as 'user@host'
	// with the account's host pattern (CURRENT_USER(): root@%).
	CurrentUser() string
	// ConnectionID returns the connection's id.
	ConnectionID() uint64
	// LastInsertID returns LAST_INSERT_ID().
	LastInsertID() uint64
	// RowCount returns ROW_COUNT(): what the previous statement changed
	// (-1 after a result set or an error).
	RowCount() int64
	// FoundRows returns FOUND_ROWS(): the rows the last statement that
	// returned a result set returned.
	FoundRows() int64
	// AppendWarning records a warning for SHOW WARNINGS (a *sqlerr.Error).
	AppendWarning(err error)
}

// BuildContext is what Build needs: an EvalContext (constant folding
// evaluates, and param-backed constants take their type from the current
// parameter values). It is its own name so that builder-only needs can be
// added without touching evaluation.
type BuildContext interface {
	EvalContext
}

// Version is what VERSION() returns: a MySQL 8 version string, so that
// clients enable their MySQL 8 behaviour, followed by Strata's name.
const Version = "8.0.11-Strata"

// SQL mode bits this package reads, with sysvar.SQLMode's values.
const (
	modeNoUnsignedSubtraction  uint64 = 1 << 6
	modePipesAsConcat          uint64 = 1 << 1
	modeHighNotPrecedence      uint64 = 1 << 29
	modeErrorForDivisionByZero uint64 = 1 << 26
	modeNoZeroInDate           uint64 = 1 << 23
	modeNoZeroDate             uint64 = 1 << 24
)
