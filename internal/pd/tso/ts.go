package tso

// LogicalBits is the width of the logical part of a timestamp.
const LogicalBits = 18

// MaxLogical is the number of logical values per physical millisecond.
const MaxLogical = 1 << LogicalBits

// ComposeTS builds a timestamp from a physical time in milliseconds and a
// logical counter below MaxLogical.
func ComposeTS(physicalMs, logical uint64) uint64 {
	return physicalMs<<LogicalBits | logical&(MaxLogical-1)
}

// ExtractPhysical returns the physical part (milliseconds) of a timestamp.
func ExtractPhysical(ts uint64) uint64 { return ts >> LogicalBits }

// ExtractLogical returns the logical part of a timestamp.
func ExtractLogical(ts uint64) uint64 { return ts & (MaxLogical - 1) }
