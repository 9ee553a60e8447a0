package sysvar

import (
	"strconv"
	"strings"
)

// SQLMode is the sql_mode bitmask, with MySQL 8's bit positions (so that
// SET sql_mode = <number> means what it means in MySQL).
type SQLMode uint64

// The sql_mode bits. Bits 8..17 were MySQL 5.7's POSTGRESQL ... MYSQL40 and
// NO_*_OPTIONS; MySQL 8 rejects those names, Strata accepts them (as TiDB
// does, so that 5.7 dumps load) with no effect.
const (
	ModeRealAsFloat            SQLMode = 1 << 0
	ModePipesAsConcat          SQLMode = 1 << 1
	ModeANSIQuotes             SQLMode = 1 << 2
	ModeIgnoreSpace            SQLMode = 1 << 3
	ModeNotUsed                SQLMode = 1 << 4
	ModeOnlyFullGroupBy        SQLMode = 1 << 5
	ModeNoUnsignedSubtraction  SQLMode = 1 << 6
	ModeNoDirInCreate          SQLMode = 1 << 7
	ModePostgreSQL             SQLMode = 1 << 8
	ModeOracle                 SQLMode = 1 << 9
	ModeMSSQL                  SQLMode = 1 << 10
	ModeDB2                    SQLMode = 1 << 11
	ModeMaxDB                  SQLMode = 1 << 12
	ModeNoKeyOptions           SQLMode = 1 << 13
	ModeNoTableOptions         SQLMode = 1 << 14
	ModeNoFieldOptions         SQLMode = 1 << 15
	ModeMySQL323               SQLMode = 1 << 16
	ModeMySQL40                SQLMode = 1 << 17
	ModeANSI                   SQLMode = 1 << 18
	ModeNoAutoValueOnZero      SQLMode = 1 << 19
	ModeNoBackslashEscapes     SQLMode = 1 << 20
	ModeStrictTransTables      SQLMode = 1 << 21
	ModeStrictAllTables        SQLMode = 1 << 22
	ModeNoZeroInDate           SQLMode = 1 << 23
	ModeNoZeroDate             SQLMode = 1 << 24
	ModeAllowInvalidDates      SQLMode = 1 << 25
	ModeErrorForDivisionByZero SQLMode = 1 << 26
	ModeTraditional            SQLMode = 1 << 27
	ModeNoAutoCreateUser       SQLMode = 1 << 28
	ModeHighNotPrecedence      SQLMode = 1 << 29
	ModeNoEngineSubstitution   SQLMode = 1 << 30
	ModePadCharToFullLength    SQLMode = 1 << 31
	ModeTimeTruncateFractional SQLMode = 1 << 32

	modeAll SQLMode = 1<<33 - 1
)

// Combination modes expand to these bits (MySQL 8), and keep their own bit.
const (
	modeANSIExpansion        = ModeRealAsFloat | ModePipesAsConcat | ModeANSIQuotes | ModeIgnoreSpace | ModeOnlyFullGroupBy | ModeANSI
	modeTraditionalExpansion = ModeStrictTransTables | ModeStrictAllTables | ModeNoZeroInDate | ModeNoZeroDate |
		ModeErrorForDivisionByZero | ModeNoEngineSubstitution | ModeTraditional
)

// DefaultSQLMode is MySQL 8's default sql_mode.
const DefaultSQLMode = "ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION"

// modeNames is indexed by bit position.
var modeNames = [...]string{
	"REAL_AS_FLOAT", "PIPES_AS_CONCAT", "ANSI_QUOTES", "IGNORE_SPACE", "NOT_USED",
	"ONLY_FULL_GROUP_BY", "NO_UNSIGNED_SUBTRACTION", "NO_DIR_IN_CREATE",
	"POSTGRESQL", "ORACLE", "MSSQL", "DB2", "MAXDB", "NO_KEY_OPTIONS",
	"NO_TABLE_OPTIONS", "NO_FIELD_OPTIONS", "MYSQL323", "MYSQL40", "ANSI",
	"NO_AUTO_VALUE_ON_ZERO", "NO_BACKSLASH_ESCAPES", "STRICT_TRANS_TABLES",
	"STRICT_ALL_TABLES", "NO_ZERO_IN_DATE", "NO_ZERO_DATE", "ALLOW_INVALID_DATES",
	"ERROR_FOR_DIVISION_BY_ZERO", "TRADITIONAL", "NO_AUTO_CREATE_USER",
	"HIGH_NOT_PRECEDENCE", "NO_ENGINE_SUBSTITUTION", "PAD_CHAR_TO_FULL_LENGTH",
	"TIME_TRUNCATE_FRACTIONAL",
}

// Has reports whether all bits of b are set in m.
func (m SQLMode) Has(b SQLMode) bool { return m&b == b }

// Strict reports STRICT_TRANS_TABLES or STRICT_ALL_TABLES.
func (m SQLMode) Strict() bool { return m&(ModeStrictTransTables|ModeStrictAllTables) != 0 }

// String returns the mode list in bit order, as MySQL displays it.
func (m SQLMode) String() string {
	var b strings.Builder
	for i, n := range modeNames {
		if m&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte(',')
			}
			b.WriteString(n)
		}
	}
	return b.String()
}

// ParseSQLMode parses a comma-separated mode list (case-insensitive,
// spaces and empty items ignored, combination modes expanded) or a
// decimal bitmask.
func ParseSQLMode(s string) (SQLMode, error) {
	t := strings.TrimSpace(s)
	if t != "" && digits(t) {
		n, err := strconv.ParseUint(t, 10, 64)
		if err != nil || SQLMode(n)&^modeAll != 0 || SQLMode(n)&ModeNotUsed != 0 {
			return 0, errWrongValue("sql_mode", s)
		}
		return expandCombos(SQLMode(n)), nil
	}
	var m SQLMode
	for item := range strings.SplitSeq(t, ",") {
		item = strings.ToUpper(strings.TrimSpace(item))
		if item == "" {
			continue
		}
		bit, ok := modeBit(item)
		if !ok {
			return 0, errWrongValue("sql_mode", s)
		}
		m |= bit
	}
	return expandCombos(m), nil
}

func expandCombos(m SQLMode) SQLMode {
	if m&ModeANSI != 0 {
		m |= modeANSIExpansion
	}
	if m&ModeTraditional != 0 {
		m |= modeTraditionalExpansion
	}
	return m
}

func modeBit(name string) (SQLMode, bool) {
	if name == "INVALID_DATES" {
		return ModeAllowInvalidDates, true
	}
	for i, n := range modeNames {
		if n == name && name != "NOT_USED" {
			return 1 << i, true
		}
	}
	return 0, false
}

func validateSQLMode(v string) (string, []error, error) {
	m, err := ParseSQLMode(v)
	if err != nil {
		return "", nil, err
	}
	return m.String(), nil, nil
}
