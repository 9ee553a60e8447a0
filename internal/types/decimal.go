package types

import "github.com/cockroachdb/apd/v3"

// Decimal is an exact MySQL DECIMAL value (up to 65 digits, 30 after the
// point), over apd.
type Decimal struct {
	apd.Decimal
}
