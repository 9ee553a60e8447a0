package sysvar

import (
	"strconv"
	"time"
)

// Vars are the system variables of one session. A session value that was
// never set is the global value current when the session started (the
// snapshot NewVars took); global-only variables always read the current
// global value.
//
// A Vars belongs to its session's goroutine: it is not safe for concurrent
// use.
type Vars struct {
	reg     *Registry
	src     GlobalSource
	start   *Globals
	session map[string]string // set in this session, by canonical name
	hot     hot
	dynamic func(name string) (string, bool)
}

// NewVars returns the variables of a new session, inheriting src's current
// global values.
func NewVars(src GlobalSource) *Vars {
	g := src.Globals()
	return &Vars{reg: g.reg, src: src, start: g, hot: g.hot}
}

// Registry returns the variable definitions.
func (v *Vars) Registry() *Registry { return v.reg }

// SetDynamic installs the session's provider of Dynamic variables
// (warning_count, error_count, tidb_current_ts): f returns the value and
// true, or false to fall back to the stored value.
func (v *Vars) SetDynamic(f func(name string) (string, bool)) { v.dynamic = f }

// Get returns @@name: the session value of a variable with a session
// scope, else the global value.
func (v *Vars) Get(name string) (string, error) {
	sv, err := v.reg.Resolve(name)
	if err != nil {
		return "", err
	}
	if sv.Scope.HasSession() {
		return v.sessionValue(sv), nil
	}
	return v.src.Globals().value(sv), nil
}

// GetSession returns @@session.name (@@local.name); a global-only
// variable is ErrIncorrectScope.
func (v *Vars) GetSession(name string) (string, error) {
	sv, err := v.reg.Resolve(name)
	if err != nil {
		return "", err
	}
	if !sv.Scope.HasSession() {
		return "", &Error{Kind: ErrIncorrectScope, Name: name, Scope: ScopeGlobal}
	}
	return v.sessionValue(sv), nil
}

// GetGlobal returns @@global.name, the current global value; a
// session-only variable is ErrIncorrectScope.
func (v *Vars) GetGlobal(name string) (string, error) { return v.src.Globals().Get(name) }

func (v *Vars) sessionValue(sv *SysVar) string {
	if sv.Dynamic && v.dynamic != nil {
		if s, ok := v.dynamic(sv.Name); ok {
			return s
		}
	}
	if s, ok := v.session[sv.Name]; ok {
		return s
	}
	return v.start.value(sv)
}

func (v *Vars) sessionGetter(n string) string { s, _ := v.Get(n); return s }

// SetSession runs SET [SESSION] name = value. It returns the warnings of
// the assignment (a clamped value, a variable with no effect) and an error
// wrapping ErrUnknownSystemVariable, ErrIncorrectScope (a global-only
// variable), ErrReadOnly, ErrWrongValueForVar, ErrWrongTypeForVar or
// ErrNotSupported. On error nothing changes.
func (v *Vars) SetSession(name, value string) ([]error, error) {
	sv, err := v.reg.Resolve(name)
	if err != nil {
		return nil, err
	}
	switch {
	case sv.Scope == ScopeNone || sv.ReadOnly:
		return nil, &Error{Kind: ErrReadOnly, Name: name}
	case !sv.Scope.HasSession():
		return nil, &Error{Kind: ErrIncorrectScope, Name: name, Scope: ScopeGlobal, Set: true}
	case sv.SessionReadOnly:
		return nil, &Error{Kind: ErrReadOnly, Name: name, Msg: "SESSION variable '" + sv.Name + "' is read-only. Use SET GLOBAL to assign the value"}
	}
	norm, warns, err := sv.Normalize(value)
	if err != nil {
		return nil, err
	}
	if sv.Check != nil {
		cw, err := sv.Check(v.sessionGetter, norm)
		if err != nil {
			return nil, err
		}
		warns = append(warns, cw...)
	}
	v.store(sv, norm)
	return warns, nil
}

// SetSessionDefault runs SET [SESSION] name = DEFAULT: the session value
// becomes the current global value.
func (v *Vars) SetSessionDefault(name string) ([]error, error) {
	sv, err := v.reg.Resolve(name)
	if err != nil {
		return nil, err
	}
	if !sv.Scope.HasGlobal() || sv.Scope == ScopeNone {
		return v.SetSession(name, sv.Default)
	}
	return v.SetSession(name, v.src.Globals().value(sv))
}

// SetInternal sets a session value on behalf of the server, bypassing
// the read-only check and validation (last_insert_id after an INSERT,
// warning_count when no Dynamic provider is installed). value must be in
// normalized form.
func (v *Vars) SetInternal(name, value string) error {
	sv, err := v.reg.Resolve(name)
	if err != nil {
		return err
	}
	if !sv.Scope.HasSession() {
		return &Error{Kind: ErrIncorrectScope, Name: name, Scope: ScopeGlobal}
	}
	v.store(sv, value)
	return nil
}

func (v *Vars) store(sv *SysVar, norm string) {
	if v.session == nil {
		v.session = make(map[string]string, 8)
	}
	v.session[sv.Name] = norm
	v.hot.apply(sv.Name, norm, v.reg.systemLocation())
}

// SetLastInsertID records LAST_INSERT_ID() (@@last_insert_id); it does
// nothing when the value did not change.
func (v *Vars) SetLastInsertID(id uint64) {
	if id == v.hot.lastInsertID {
		return
	}
	v.store(v.reg.vars["last_insert_id"], strconv.FormatUint(id, 10))
}

// Typed accessors of the variables read on every statement or transaction.

// Autocommit is @@autocommit.
func (v *Vars) Autocommit() bool { return v.hot.autocommit }

// TxnIsolation is @@transaction_isolation (ReadCommitted, RepeatableRead,
// ...).
func (v *Vars) TxnIsolation() string { return v.hot.isolation }

// TxnReadOnly is @@transaction_read_only.
func (v *Vars) TxnReadOnly() bool { return v.hot.readOnly }

// SQLMode is @@sql_mode as a bitmask.
func (v *Vars) SQLMode() SQLMode { return v.hot.sqlMode }

// AsyncCommit is @@tidb_enable_async_commit.
func (v *Vars) AsyncCommit() bool { return v.hot.asyncCommit }

// OnePC is @@tidb_enable_1pc.
func (v *Vars) OnePC() bool { return v.hot.onePC }

// GuaranteeLinearizability is @@tidb_guarantee_linearizability.
func (v *Vars) GuaranteeLinearizability() bool { return v.hot.linearizability }

// TxnMode is @@tidb_txn_mode (TxnModeOptimistic or TxnModePessimistic).
func (v *Vars) TxnMode() string { return v.hot.txnMode }

// TimeZone is @@time_zone as written (normalized).
func (v *Vars) TimeZone() string { return v.hot.timeZone }

// Location is the *time.Location of @@time_zone.
func (v *Vars) Location() *time.Location { return v.hot.location }

// MaxExecutionTime is @@max_execution_time (0: no limit).
func (v *Vars) MaxExecutionTime() time.Duration {
	return time.Duration(v.hot.maxExecutionTime) * time.Millisecond
}

// LockWaitTimeout is @@innodb_lock_wait_timeout.
func (v *Vars) LockWaitTimeout() time.Duration {
	return time.Duration(v.hot.lockWaitTimeout) * time.Second
}

// AutoIncrement returns @@auto_increment_increment and
// @@auto_increment_offset.
func (v *Vars) AutoIncrement() (increment, offset uint64) {
	return v.hot.autoIncIncrement, v.hot.autoIncOffset
}

// SQLSelectLimit is @@sql_select_limit.
func (v *Vars) SQLSelectLimit() uint64 { return v.hot.sqlSelectLimit }

// MaxAllowedPacket is @@max_allowed_packet.
func (v *Vars) MaxAllowedPacket() uint64 { return v.hot.maxAllowedPacket }

// RetryLimit is @@tidb_retry_limit.
func (v *Vars) RetryLimit() int64 { return v.hot.retryLimit }

// PreparedPlanCache is @@tidb_enable_prepared_plan_cache, a GLOBAL-only
// variable: the current global value, not the one at session start.
func (v *Vars) PreparedPlanCache() bool { return v.src.Globals().hot.planCache }

// DisableTxnAutoRetry is @@tidb_disable_txn_auto_retry.
func (v *Vars) DisableTxnAutoRetry() bool { return v.hot.disableAutoRetry }

// MemQuotaQuery is @@tidb_mem_quota_query in bytes (<= 0: no limit).
func (v *Vars) MemQuotaQuery() int64 { return v.hot.memQuotaQuery }

// ClusteredIndex is @@tidb_enable_clustered_index (ClusteredOn, ...).
func (v *Vars) ClusteredIndex() string { return v.hot.clusteredIndex }

// DistSQLScanConcurrency is @@tidb_distsql_scan_concurrency.
func (v *Vars) DistSQLScanConcurrency() int { return v.hot.distSQLConcurrency }

// ExecutorConcurrency is @@tidb_executor_concurrency.
func (v *Vars) ExecutorConcurrency() int { return v.hot.executorConcurrency }

// LastInsertID is @@last_insert_id.
func (v *Vars) LastInsertID() uint64 { return v.hot.lastInsertID }
