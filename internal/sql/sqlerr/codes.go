package sqlerr

import "github.com/pingcap/tidb/pkg/parser/mysql"

// The MySQL error numbers Strata raises, named once here so that callers
// write sqlerr.ErrDupEntry rather than a bare number. Values are MySQL's
// (from github.com/pingcap/tidb/pkg/parser/mysql).
const (
	ErrAccessDenied                  = mysql.ErrAccessDenied                  // 1045 28000
	ErrDBAccessDenied                = mysql.ErrDBaccessDenied                // 1044 42000
	ErrNoDB                          = mysql.ErrNoDB                          // 1046 3D000
	ErrUnknownCom                    = mysql.ErrUnknownCom                    // 1047 08S01
	ErrBadNull                       = mysql.ErrBadNull                       // 1048 23000
	ErrBadDB                         = mysql.ErrBadDB                         // 1049 42000
	ErrTableExists                   = mysql.ErrTableExists                   // 1050 42S01
	ErrBadTable                      = mysql.ErrBadTable                      // 1051 42S02
	ErrNonUniq                       = mysql.ErrNonUniq                       // 1052 23000
	ErrBadField                      = mysql.ErrBadField                      // 1054 42S22
	ErrWrongValueCount               = mysql.ErrWrongValueCount               // 1058 21S01
	ErrDupFieldName                  = mysql.ErrDupFieldName                  // 1060 42S21
	ErrDupKeyName                    = mysql.ErrDupKeyName                    // 1061 42000
	ErrDupEntry                      = mysql.ErrDupEntry                      // 1062 23000
	ErrParse                         = mysql.ErrParse                         // 1064 42000
	ErrDBCreateExists                = mysql.ErrDBCreateExists                // 1007 HY000
	ErrDBDropExists                  = mysql.ErrDBDropExists                  // 1008 HY000
	ErrNoSuchThread                  = mysql.ErrNoSuchThread                  // 1094 HY000
	ErrKillDenied                    = mysql.ErrKillDenied                    // 1095 HY000
	ErrUnknown                       = mysql.ErrUnknown                       // 1105 HY000
	ErrUnknownTable                  = mysql.ErrUnknownTable                  // 1109 42S02
	ErrUnknownCharacterSet           = mysql.ErrUnknownCharacterSet           // 1115 42000
	ErrWrongValueCountOnRow          = mysql.ErrWrongValueCountOnRow          // 1136 21S01
	ErrTableaccessDenied             = mysql.ErrTableaccessDenied             // 1142 42000
	ErrNoSuchTable                   = mysql.ErrNoSuchTable                   // 1146 42S02
	ErrNetPacketTooLarge             = mysql.ErrNetPacketTooLarge             // 1153 08S01
	ErrCantDoThisDuringAnTransaction = mysql.ErrCantDoThisDuringAnTransaction // 1179 25000
	ErrUnknownSystemVariable         = mysql.ErrUnknownSystemVariable         // 1193 HY000
	ErrLockWaitTimeout               = mysql.ErrLockWaitTimeout               // 1205 HY000
	ErrReadOnlyTransaction           = mysql.ErrReadOnlyTransaction           // 1207 25000
	ErrWrongArguments                = mysql.ErrWrongArguments                // 1210 HY000
	ErrLockDeadlock                  = mysql.ErrLockDeadlock                  // 1213 40001
	ErrSpecificAccessDenied          = mysql.ErrSpecificAccessDenied          // 1227 42000
	ErrWrongValueForVar              = mysql.ErrWrongValueForVar              // 1231 42000
	ErrWrongTypeForVar               = mysql.ErrWrongTypeForVar               // 1232 42000
	ErrNotSupportedYet               = mysql.ErrNotSupportedYet               // 1235 42000
	ErrIncorrectGlobalLocalVar       = mysql.ErrIncorrectGlobalLocalVar       // 1238 HY000
	ErrUnknownStmtHandler            = mysql.ErrUnknownStmtHandler            // 1243 HY000
	ErrWarnDataOutOfRange            = mysql.ErrWarnDataOutOfRange            // 1264 22003
	ErrTruncatedWrongValue           = mysql.ErrTruncatedWrongValue           // 1292 22007
	ErrUnknownTimeZone               = mysql.ErrUnknownTimeZone               // 1298 HY000
	ErrQueryInterrupted              = mysql.ErrQueryInterrupted              // 1317 70100
	ErrNoDefaultForField             = mysql.ErrNoDefaultForField             // 1364 HY000
	ErrDivisionByZero                = mysql.ErrDivisionByZero                // 1365 22012
	ErrTruncatedWrongValueForField   = mysql.ErrTruncatedWrongValueForField   // 1366 HY000
	ErrPsManyParam                   = mysql.ErrPsManyParam                   // 1390 HY000
	ErrCannotUser                    = mysql.ErrCannotUser                    // 1396 HY000
	ErrDataTooLong                   = mysql.ErrDataTooLong                   // 1406 22001
	ErrVariableIsReadonly            = mysql.ErrVariableIsReadonly            // 1621 HY000
	ErrDataOutOfRange                = mysql.ErrDataOutOfRange                // 1690 22003
	ErrMalformedPacket               = mysql.ErrMalformedPacket               // 1835 HY000
	ErrMaxExecTimeExceeded           = mysql.ErrMaxExecTimeExceeded           // 3024 HY000
)
