// Package chunk holds the columnar batches executors pass to each other
// (DESIGN.md: "executors pass columnar batches"), after TiDB's chunk
// package.
//
// A Chunk has one Column per output field. A Column stores, by the
// field's type:
//
//	integers, unsigned, DOUBLE, DATE/DATETIME/TIMESTAMP (packed), TIME (ns)   8 bytes each, little endian
//	FLOAT                                                                  4 bytes each
//	CHAR/VARCHAR/TEXT/BINARY/BLOB                                          data + offsets (offsets[i]..offsets[i+1])
//	ENUM/SET (their names), JSON (binary form, types.EncodeJSON)            data + offsets; BIT is an unsigned integer
//	DECIMAL                                                                a []types.Decimal
//
// plus a null bitmap (bit i set = row i is NULL; NULL rows still take a
// slot in the values so that row i is at index i everywhere).
//
// Invariants: every column of a chunk has the same length (NumRows); a
// chunk without columns counts rows in a virtual counter; getters alias the
// chunk's memory (GetBytes, GetDecimal, string and decimal datums), which
// Reset reuses: copy what must outlive the next Reset. A chunk belongs to
// one goroutine at a time; it has no locks.
//
// Row is a (chunk, index) pair whose getters (Len, IsNull, GetInt64,
// GetUint64, GetFloat32, GetFloat64, GetBytes, GetDecimal, GetTime,
// GetDuration) are the method set the MySQL protocol layer writes result
// rows from.
package chunk
