package txn

import "github.com/strata-db/strata/internal/client/rpc"

// Storage serves exactly the unary methods of the storage API.
var _ rpc.StoreAPI = (*Storage)(nil)
