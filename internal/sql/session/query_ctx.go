package session

import (
	"context"
	"strings"
	"time"

	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/session/sysvar"
	"github.com/strata-db/strata/internal/sql/statistics"
	"github.com/strata-db/strata/internal/types"
)

// queryCtx is the expr.EvalContext and planner.Context of one statement
// execution: the session's variables, the statement's parameters and
// start time.
type queryCtx struct {
	s      *Session
	is     *catalog.InfoSchema
	params []types.Datum
	now    time.Time
	// strictDML: the statement changes data under a strict sql_mode
	// without IGNORE (forStmt); strict is the context it then runs in
	// (runDML).
	strictDML bool
	strict    expr.StrictContext
}

// StrictDML implements expr.StrictDMLContext.
func (q *queryCtx) StrictDML() bool { return q.strictDML }

func (s *Session) newQueryCtx(params []types.Datum) *queryCtx {
	return &queryCtx{s: s, is: s.d.catalog.InfoSchema(), params: params, now: time.Now()}
}

func (q *queryCtx) InfoSchema() *catalog.InfoSchema { return q.is }
func (q *queryCtx) SQLMode() uint64                 { return uint64(q.s.vars.SQLMode()) }
func (q *queryCtx) Location() *time.Location        { return q.s.vars.Location() }
func (q *queryCtx) Now() time.Time                  { return q.now }
func (q *queryCtx) CurrentDB() string               { return q.s.db }
func (q *queryCtx) User() string                    { return q.s.conn.User + "@" + q.s.conn.Host }
func (q *queryCtx) ConnectionID() uint64            { return uint64(q.s.conn.ID) }

// CurrentUser is the account the login matched (CURRENT_USER()).
func (q *queryCtx) CurrentUser() string {
	a := q.s.account(context.Background())
	return a.User + "@" + a.Host
}
func (q *queryCtx) LastInsertID() uint64    { return q.s.vars.LastInsertID() }
func (q *queryCtx) RowCount() int64         { return q.s.rows.prev }
func (q *queryCtx) FoundRows() int64        { return q.s.rows.found }
func (q *queryCtx) AppendWarning(err error) { q.s.warnings = append(q.s.warnings, err) }

func (q *queryCtx) Param(i int) types.Datum {
	if i < 0 || i >= len(q.params) {
		return types.NewNullDatum()
	}
	return q.params[i]
}

// GetSysVar reads @@[global.]name. Boolean variables read as 1 or 0, as
// in MySQL (SELECT @@autocommit is 1; SHOW VARIABLES says ON).
func (q *queryCtx) GetSysVar(name string, global bool) (string, error) {
	var (
		v   string
		err error
	)
	if global {
		v, err = q.s.vars.GetGlobal(name)
	} else {
		v, err = q.s.vars.Get(name)
	}
	if err != nil {
		return "", sysvarErr(err)
	}
	if sv, ok := q.s.d.reg.Lookup(name); ok && sv.Type == sysvar.TypeBool {
		switch v {
		case "ON":
			return "1", nil
		case "OFF":
			return "0", nil
		}
	}
	return v, nil
}

func (q *queryCtx) GetUserVar(name string) (types.Datum, bool) {
	v, ok := q.s.userVars[strings.ToLower(name)]
	if !ok {
		return types.NewNullDatum(), false
	}
	return types.NewStringDatum(v), true
}

// Stats implements statistics.Provider: the table's cached statistics
// (nil: none, pseudo estimates).
func (q *queryCtx) Stats(tableID int64) *statistics.Table { return q.s.d.stats.Table(tableID) }

var _ statistics.Provider = (*queryCtx)(nil)
