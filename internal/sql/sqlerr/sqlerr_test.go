package sqlerr

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/strata-db/strata/internal/kv"
)

func TestNewFormatsStandardMessages(t *testing.T) {
	cases := []struct {
		err   *Error
		code  uint16
		state string
		msg   string
	}{
		{New(ErrDupEntry, "1", "PRIMARY"), 1062, "23000", "Duplicate entry '1' for key 'PRIMARY'"},
		{New(ErrBadNull, "c"), 1048, "23000", "Column 'c' cannot be null"},
		{New(ErrNoDefaultForField, "c"), 1364, "HY000", "Field 'c' doesn't have a default value"},
		{New(ErrDataTooLong, "c", 1), 1406, "22001", "Data too long for column 'c' at row 1"},
		{New(ErrNoSuchTable, "db", "t"), 1146, "42S02", "Table 'db.t' doesn't exist"},
		{New(ErrBadField, "x", "field list"), 1054, "42S22", "Unknown column 'x' in 'field list'"},
		{New(ErrAccessDenied, "u", "h", "YES"), 1045, "28000", "Access denied for user 'u'@'h' (using password: YES)"},
		{New(ErrBadDB, "d"), 1049, "42000", "Unknown database 'd'"},
		{New(ErrTableExists, "t"), 1050, "42S01", "Table 't' already exists"},
		{New(ErrBadTable, "t"), 1051, "42S02", "Unknown table 't'"},
		{New(ErrUnknownSystemVariable, "v"), 1193, "HY000", "Unknown system variable 'v'"},
		{New(ErrWrongValueForVar, "v", "x"), 1231, "42000", "Variable 'v' can't be set to the value of 'x'"},
		{New(ErrWrongTypeForVar, "v"), 1232, "42000", "Incorrect argument type to variable 'v'"},
		{New(ErrNetPacketTooLarge), 1153, "08S01", "Got a packet bigger than 'max_allowed_packet' bytes"},
		{New(ErrUnknownStmtHandler, "7", "EXECUTE"), 1243, "HY000", "Unknown prepared statement handler 7 given to EXECUTE"},
		{New(ErrWrongArguments, "EXECUTE"), 1210, "HY000", "Incorrect arguments to EXECUTE"},
		{New(ErrQueryInterrupted), 1317, "70100", "Query execution was interrupted"},
		{New(ErrLockWaitTimeout), 1205, "HY000", "Lock wait timeout exceeded; try restarting transaction"},
		{New(ErrLockDeadlock), 1213, "40001", "Deadlock found when trying to get lock; try restarting transaction"},
		{New(ErrUnknownCom), 1047, "08S01", "Unknown command"},
		{New(ErrTxnTooLarge, 10), 8004, "HY000", "Transaction is too large, size: 10"},
		{New(4999), 4999, "HY000", "Unknown error 4999"},
		{New(ErrBadDB, "d", "extra", 1), 1049, "42000", "Unknown database 'd'"},
	}
	for _, c := range cases {
		if c.err.Code != c.code || c.err.State != c.state || c.err.Message != c.msg {
			t.Errorf("got %d %s %q, want %d %s %q", c.err.Code, c.err.State, c.err.Message, c.code, c.state, c.msg)
		}
	}
	if got := New(ErrBadDB, "d").Error(); got != "ERROR 1049 (42000): Unknown database 'd'" {
		t.Errorf("Error() = %q", got)
	}
}

func TestFromMapsByIdentity(t *testing.T) {
	cases := []struct {
		in   error
		code uint16
	}{
		{&kv.WriteConflictError{StartTS: 1, ConflictStartTS: 2, ConflictCommitTS: 3, Key: []byte("k")}, ErrLockDeadlock},
		{fmt.Errorf("commit: %w", kv.ErrWriteConflict), ErrLockDeadlock},
		{kv.ErrKeyIsLocked, ErrLockWaitTimeout},
		{&kv.LockedError{}, ErrLockWaitTimeout},
		{kv.ErrLockWaitTimeout, ErrLockWaitTimeout},
		{kv.ErrDeadlock, ErrLockDeadlock},
		{&kv.AlreadyExistError{Key: []byte("k")}, ErrDupEntry},
		{kv.ErrTxnTooLarge, ErrTxnTooLarge},
		{kv.ErrResultUndetermined, ErrUnknown},
		{kv.ErrRegionUnavailable, ErrRegionUnavailable},
		{kv.ErrTxnRetryable, ErrTxnRetryable},
		{kv.ErrNotSupported, ErrNotSupportedYet},
		{context.Canceled, ErrQueryInterrupted},
		{context.DeadlineExceeded, ErrMaxExecTimeExceeded},
		{errors.New("boom"), ErrUnknown},
		{fmt.Errorf("wrapped: %w", New(ErrBadDB, "x")), ErrBadDB},
	}
	for _, c := range cases {
		got := From(c.in)
		if got.Code != c.code {
			t.Errorf("From(%v) = %v, want code %d", c.in, got, c.code)
		}
		if got.State == "" || len(got.State) != 5 {
			t.Errorf("From(%v) state %q", c.in, got.State)
		}
	}
	if From(nil) != nil {
		t.Errorf("From(nil) != nil")
	}
	wc := From(&kv.WriteConflictError{StartTS: 1, ConflictStartTS: 2, ConflictCommitTS: 3, Key: []byte("k"), Reason: kv.ConflictOptimistic})
	want := `Write conflict, txnStartTS=1, conflictStartTS=2, conflictCommitTS=3, key="k", reason=Optimistic [try again later]`
	if wc.Message != want || wc.Code != 1213 || wc.State != "40001" {
		t.Errorf("write conflict %d %s %q, want 1213 40001 %q", wc.Code, wc.State, wc.Message, want)
	}
	if got := From(kv.ErrResultUndetermined).Message; got != MsgResultUndetermined {
		t.Errorf("undetermined message %q", got)
	}
	if !errors.Is(fmt.Errorf("x: %w", New(ErrQueryInterrupted)), New(ErrQueryInterrupted)) {
		t.Errorf("errors.Is by code failed")
	}
}
