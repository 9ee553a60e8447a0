package planner

import (
	"github.com/strata-db/strata/internal/sql/catalog"
	"github.com/strata-db/strata/internal/sql/expr"
)

// Context is what planning needs from the session: expression building
// (which may evaluate constants and reads the current parameter values for
// their types) and the schema to resolve names against.
type Context interface {
	expr.BuildContext
	// InfoSchema returns the schema snapshot the statement plans against.
	InfoSchema() *catalog.InfoSchema
}
