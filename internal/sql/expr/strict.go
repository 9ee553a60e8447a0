package expr

import (
	"errors"

	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// SQL mode bits StrictContext reads (sysvar.SQLMode's values).
const (
	modeStrictTransTables uint64 = 1 << 21
	modeStrictAllTables   uint64 = 1 << 22
)

// StrictContext wraps the EvalContext of a data-changing statement
// (INSERT, UPDATE, DELETE, and their SELECT parts) under a strict
// sql_mode: the conversion warnings MySQL turns into errors there
// (1292 truncated value, 1264 out of range, and 1365 division by zero when
// ERROR_FOR_DIVISION_BY_ZERO is set) are kept as the statement's error
// instead of becoming warnings. The executor checks Err after evaluating a
// row's expressions and fails the statement with it. Outside strict mode
// it passes warnings through unchanged.
type StrictContext struct {
	EvalContext
	err error
}

// NewStrictContext wraps ctx.
func NewStrictContext(ctx EvalContext) *StrictContext { return &StrictContext{EvalContext: ctx} }

// AppendWarning implements EvalContext.
func (c *StrictContext) AppendWarning(err error) {
	if c.err == nil && c.promotes(err) {
		c.err = err
		return
	}
	c.EvalContext.AppendWarning(err)
}

func (c *StrictContext) promotes(err error) bool {
	mode := c.SQLMode()
	if mode&(modeStrictTransTables|modeStrictAllTables) == 0 {
		return false
	}
	var se *sqlerr.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code {
	case sqlerr.ErrTruncatedWrongValue, sqlerr.ErrWarnDataOutOfRange, sqlerr.ErrTruncatedWrongValueForField:
		return true
	case sqlerr.ErrDivisionByZero:
		return mode&modeErrorForDivisionByZero != 0
	}
	return false
}

// Err returns the first promoted warning, or nil.
func (c *StrictContext) Err() error { return c.err }

// Reset clears the error (between statements that reuse the wrapper).
func (c *StrictContext) Reset() { c.err = nil }
