package expr

import (
	"time"

	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// SimpleContext is a plain-struct EvalContext and BuildContext for tests
// and for places with no session (the coprocessor, background jobs). The
// zero value is usable: UTC, no parameters, no variables; Now defaults to
// the time of the first call.
type SimpleContext struct {
	Mode         uint64
	Loc          *time.Location
	NowTime      time.Time
	Params       []types.Datum
	SysVars      map[string]string // by lower-case name; also used for global
	UserVars     map[string]types.Datum
	DB           string
	UserName     string
	ConnID       uint64
	LastID       uint64
	PrevRowCount int64 // ROW_COUNT()
	FoundRowsN   int64 // FOUND_ROWS()
	// Warnings collects AppendWarning's errors.
	Warnings []error
}

var _ BuildContext = (*SimpleContext)(nil)

// SQLMode implements EvalContext.
func (c *SimpleContext) SQLMode() uint64 { return c.Mode }

// Location implements EvalContext.
func (c *SimpleContext) Location() *time.Location {
	if c.Loc == nil {
		return time.UTC
	}
	return c.Loc
}

// Now implements EvalContext.
func (c *SimpleContext) Now() time.Time {
	if c.NowTime.IsZero() {
		c.NowTime = time.Now()
	}
	return c.NowTime
}

// Param implements EvalContext.
func (c *SimpleContext) Param(i int) types.Datum {
	if i < 0 || i >= len(c.Params) {
		return types.NewNullDatum()
	}
	return c.Params[i]
}

// GetSysVar implements EvalContext: unknown names are error 1193.
func (c *SimpleContext) GetSysVar(name string, global bool) (string, error) {
	v, ok := c.SysVars[name]
	if !ok {
		return "", sqlerr.New(sqlerr.ErrUnknownSystemVariable, name)
	}
	return v, nil
}

// GetUserVar implements EvalContext.
func (c *SimpleContext) GetUserVar(name string) (types.Datum, bool) {
	d, ok := c.UserVars[name]
	return d, ok
}

// CurrentDB implements EvalContext.
func (c *SimpleContext) CurrentDB() string { return c.DB }

// User implements EvalContext.
func (c *SimpleContext) User() string { return c.UserName }

// ConnectionID implements EvalContext.
func (c *SimpleContext) ConnectionID() uint64 { return c.ConnID }

// CurrentUser implements EvalContext: the login, as no account matching
// happens here.
func (c *SimpleContext) CurrentUser() string { return c.UserName }

// LastInsertID implements EvalContext.
func (c *SimpleContext) LastInsertID() uint64 { return c.LastID }

// RowCount implements EvalContext.
func (c *SimpleContext) RowCount() int64 { return c.PrevRowCount }

// FoundRows implements EvalContext.
func (c *SimpleContext) FoundRows() int64 { return c.FoundRowsN }

// AppendWarning implements EvalContext.
func (c *SimpleContext) AppendWarning(err error) { c.Warnings = append(c.Warnings, err) }
