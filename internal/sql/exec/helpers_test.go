package exec

import (
	"testing"

	"github.com/strata-db/strata/internal/kv"
	"github.com/strata-db/strata/internal/sql/catalog"
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

// newTestCatalog returns a catalog over an in-process cluster, with
// database "test".
func newTestCatalog(t testing.TB) *catalog.Catalog {
	c, _ := sqltest.NewCatalog(t)
	return c
}
