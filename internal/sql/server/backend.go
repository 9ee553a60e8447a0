package server

import (
	"context"

	"github.com/strata-db/strata/internal/types"
)

// Backend is what the protocol server needs from the rest of the SQL layer:
// checking logins and opening sessions. The session package implements it.
type Backend interface {
	// Authenticate checks a login. plugin is "mysql_native_password" or
	// "caching_sha2_password"; salt is the 20-byte scramble sent in the
	// handshake; response is the client's auth response. Return nil or an
	// error (the server sends it as ERR, e.g. 1045).
	Authenticate(user, host, plugin string, salt, response []byte) error
	// Open starts the session of a new connection (after authentication;
	// db may be empty).
	Open(ctx context.Context, c ConnInfo) (Session, error)
}

// ConnInfo describes a connection to the session it opens.
type ConnInfo struct {
	// ID is the connection id (CONNECTION_ID(), KILL's argument).
	ID uint32
	// User and Host are the authenticated account and the client's address.
	User, Host string
	// DB is the database named in the handshake, or "".
	DB string
	// Capability is the negotiated capability set (client & server flags).
	Capability uint32
	// Collation is the client's connection collation id.
	Collation uint8
}

// Session is one connection's SQL state. The server calls it from the
// connection's goroutine only, one command at a time; ctx of a call is
// cancelled by KILL QUERY or when the connection goes away.
type Session interface {
	// ExecuteText runs the statements of one COM_QUERY in order, calling
	// emit with each statement's Result as it is produced (multi-statements
	// give several results, MySQL's SERVER_MORE_RESULTS_EXISTS); it stops
	// at the first error, which the server sends after the results emitted
	// so far. The server drains and closes each emitted Result before emit
	// returns; an error from emit (the client went away) must be returned.
	// Before running a query of several statements, check
	// MultiStatementsAllowed(ctx).
	ExecuteText(ctx context.Context, sql string, emit func(Result) error) error
	// Prepare prepares one statement (COM_STMT_PREPARE).
	Prepare(ctx context.Context, sql string) (*Prepared, error)
	// ExecutePrepared runs a prepared statement with its decoded
	// parameters (COM_STMT_EXECUTE). The server drains and closes the
	// Result.
	ExecutePrepared(ctx context.Context, id uint32, args []Arg) (Result, error)
	// ClosePrepared forgets a prepared statement (COM_STMT_CLOSE).
	ClosePrepared(id uint32)
	// ResetPrepared resets a prepared statement (COM_STMT_RESET).
	ResetPrepared(id uint32) error
	// UseDB changes the current database (COM_INIT_DB).
	UseDB(ctx context.Context, db string) error
	// FieldList lists a table's columns (COM_FIELD_LIST).
	FieldList(ctx context.Context, table, wildcard string) ([]*Column, error)
	// Status returns the server status flags for OK/EOF packets
	// (StatusInTrans, StatusAutocommit, ...).
	Status() uint16
	// WarningCount returns the warnings of the last statement.
	WarningCount() uint16
	// Close ends the session (the connection closed).
	Close()
}

// Prepared describes a prepared statement.
type Prepared struct {
	// ID is the statement id the client uses in later commands.
	ID uint32
	// Params describes the parameters ("?" markers); only len matters to
	// most clients.
	Params []*Column
	// Columns describes the result columns, nil for a statement without
	// a result set.
	Columns []*Column
}

// Arg is one parameter of COM_STMT_EXECUTE, decoded from the binary
// protocol (SEND_LONG_DATA chunks appended, as []byte).
type Arg struct {
	// Type is the MySQL type code the client sent (mysql.TypeLonglong, ...).
	Type byte
	// Unsigned is the client's unsigned flag for integer types.
	Unsigned bool
	// Null is true for a NULL parameter; Value is nil then.
	Null bool
	// Value is int64 or uint64 (integers, by Unsigned), float64 (FLOAT and
	// DOUBLE), []byte (strings, blobs, DECIMAL text, JSON, BIT ...),
	// types.Time (DATE, DATETIME, TIMESTAMP) or types.Duration (TIME).
	Value any
}

// Result is the outcome of one statement: either rows (Columns non-nil) or
// an OK result.
type Result interface {
	// Columns returns the result columns; nil means an OK result (no rows).
	Columns() []*Column
	// Next returns the next batch of rows; an empty batch with a nil error
	// means done. Rows are only read before the next call to Next.
	Next(ctx context.Context) ([]Row, error)
	// AffectedRows is the OK packet's affected-rows count.
	AffectedRows() uint64
	// LastInsertID is the OK packet's last-insert-id.
	LastInsertID() uint64
	// Close releases the result.
	Close()
}

// Column is a column definition (Protocol::ColumnDefinition41).
type Column struct {
	Schema, Table, OrgTable, Name, OrgName string
	// Charset is the collation id (63 binary, 46 utf8mb4_bin, ...).
	Charset uint16
	// Length is the column's display length.
	Length uint32
	// Type is the MySQL type code (mysql.TypeLong, ...).
	Type byte
	// Flags are the column flags (mysql.NotNullFlag, mysql.UnsignedFlag ...).
	Flags uint16
	// Decimals is the scale (DECIMAL), fsp (time types) or 31 (not fixed).
	Decimals uint8
}

// Row is one row of a result; the shape of internal/chunk's Row, which
// satisfies it. The server reads each column with the getter its Column
// type implies.
type Row interface {
	Len() int
	IsNull(col int) bool
	GetInt64(col int) int64
	GetUint64(col int) uint64
	GetFloat32(col int) float32
	GetFloat64(col int) float64
	// GetBytes returns strings, blobs, binary strings, ENUM/SET names
	// and JSON values in their binary form (types.EncodeJSON; the server
	// prints their text). BIT values are read with GetUint64.
	GetBytes(col int) []byte
	GetDecimal(col int) *types.Decimal
	GetTime(col int) types.Time
	GetDuration(col int) types.Duration
}
