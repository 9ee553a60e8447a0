package exec

import (
	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/testutil/sqltest"
)

// The shared SQL test helpers, under this package's short names.
type (
	testCtx = sqltest.Ctx
	kvTxn   = kv.Transaction
)

var (
	newTestCatalogBegin = sqltest.NewCatalog
	ddl                 = sqltest.DDL
	errText             = sqltest.ErrText
)
