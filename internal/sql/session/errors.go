package session

import (
	"errors"

	"github.com/strata-db/strata/internal/sql/session/sysvar"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// sysvarErr maps a system variable error to its MySQL error; other errors
// pass through (the protocol layer maps them with sqlerr.From).
func sysvarErr(err error) error {
	var e *sysvar.Error
	if !errors.As(err, &e) {
		return err
	}
	code := uint16(sqlerr.ErrUnknown)
	switch e.Kind {
	case sysvar.ErrUnknownSystemVariable:
		code = sqlerr.ErrUnknownSystemVariable
	case sysvar.ErrIncorrectScope:
		code = sqlerr.ErrIncorrectGlobalLocalVar
		switch {
		case e.Set && e.Scope == sysvar.ScopeGlobal:
			code = 1229 // ER_GLOBAL_VARIABLE
		case e.Set:
			code = 1228 // ER_LOCAL_VARIABLE
		}
	case sysvar.ErrWrongValueForVar:
		code = sqlerr.ErrWrongValueForVar
	case sysvar.ErrWrongTypeForVar:
		code = sqlerr.ErrWrongTypeForVar
	case sysvar.ErrReadOnly:
		code = sqlerr.ErrIncorrectGlobalLocalVar
		if e.Set {
			code = sqlerr.ErrVariableIsReadonly
		}
	case sysvar.ErrUnknownTimeZone:
		code = sqlerr.ErrUnknownTimeZone
	case sysvar.ErrNotSupported:
		code = sqlerr.ErrNotSupportedYet
	case sysvar.WarnTruncated:
		code = sqlerr.ErrTruncatedWrongValue
	}
	return sqlerr.Newf(code, "%s", e.Error())
}
