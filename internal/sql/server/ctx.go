package server

import "context"

// multiStmtKey carries, in ExecuteText's context, whether the connection
// allows several statements in one COM_QUERY.
type multiStmtKey struct{}

// MultiStatementsAllowed reports whether the client of ExecuteText's ctx
// enabled multi-statements (CLIENT_MULTI_STATEMENTS at connect, or
// COM_SET_OPTION since). A session must check it before running any
// statement of a query that holds more than one and fail the query with
// sqlerr.ErrMultiStatementDisabled if not: the server can only refuse the
// second result after its statement ran. Contexts not from this server
// allow them.
func MultiStatementsAllowed(ctx context.Context) bool {
	v, ok := ctx.Value(multiStmtKey{}).(bool)
	return !ok || v
}
