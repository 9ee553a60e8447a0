package sysvar

import (
	"math"
	"strconv"
	"strings"
)

// Isolation level values of transaction_isolation.
const (
	ReadUncommitted = "READ-UNCOMMITTED"
	ReadCommitted   = "READ-COMMITTED"
	RepeatableRead  = "REPEATABLE-READ"
	Serializable    = "SERIALIZABLE"
)

// DefaultCollation is the collation of Strata's utf8mb4 (binary, as
// TiDB's default; MySQL 8's utf8mb4_0900_ai_ci is accepted by name).
const DefaultCollation = "utf8mb4_bin"

// mysqlVars are MySQL 8's variables, with MySQL's defaults except where a
// comment says why Strata differs.
func mysqlVars() []SysVar {
	return []SysVar{
		boolVar(ScopeBoth, "autocommit", true),
		{Name: "transaction_isolation", Scope: ScopeBoth, Type: TypeEnum, Default: RepeatableRead,
			Values: []string{ReadUncommitted, ReadCommitted, RepeatableRead, Serializable}, Check: checkIsolation},
		alias("tx_isolation", "transaction_isolation"),
		boolVar(ScopeBoth, "transaction_read_only", false),
		alias("tx_read_only", "transaction_read_only"),
		validated(strVar(ScopeBoth, "sql_mode", DefaultSQLMode), validateSQLMode),
		{Name: "max_allowed_packet", Scope: ScopeBoth, Type: TypeUint, Default: "67108864", Min: 1024, MaxUint: 1 << 30, SessionReadOnly: true},
		readOnly("version", MySQLVersionPrefix+"dev"),
		readOnly("version_comment", "Strata Server (Apache License 2.0) Community Edition, MySQL 8.0 compatible"),
		readOnly("version_compile_os", "Linux"),
		readOnly("version_compile_machine", "x86_64"),
		readOnly("protocol_version", "10"),
		readOnly("license", "Apache License 2.0"),
		readOnly("hostname", ""),
		readOnly("port", "4000"),
		readOnly("socket", ""),
		readOnly("datadir", ""),
		readOnly("tmpdir", ""),
		readOnly("have_ssl", "DISABLED"),
		readOnly("have_openssl", "DISABLED"),
		readOnly("system_time_zone", "UTC"),
		readOnly("secure_file_priv", ""),
		readOnly("default_authentication_plugin", "mysql_native_password"),
		// performance_schema is not implemented: OFF, as TiDB reports.
		readOnly("performance_schema", "OFF"),
		// 2: names are stored as given and compared case-insensitively,
		// which is what TiDB does (MySQL on Linux defaults to 0).
		readOnly("lower_case_table_names", "2"),
		readOnly("lower_case_file_system", "OFF"),
		readOnly("character_set_system", "utf8mb3"),
		validated(strVar(ScopeBoth, "character_set_client", "utf8mb4"), validateCharset("character_set_client", false)),
		validated(strVar(ScopeBoth, "character_set_connection", "utf8mb4"), validateCharset("character_set_connection", false)),
		// An empty character_set_results is SQL NULL: no conversion.
		validated(strVar(ScopeBoth, "character_set_results", "utf8mb4"), validateCharset("character_set_results", true)),
		validated(strVar(ScopeBoth, "character_set_server", "utf8mb4"), validateCharset("character_set_server", false)),
		validated(strVar(ScopeBoth, "character_set_database", "utf8mb4"), validateCharset("character_set_database", false)),
		validated(strVar(ScopeBoth, "character_set_filesystem", "binary"), validateCharset("character_set_filesystem", false)),
		validated(strVar(ScopeBoth, "collation_connection", DefaultCollation), validateCollation("collation_connection")),
		validated(strVar(ScopeBoth, "collation_server", DefaultCollation), validateCollation("collation_server")),
		validated(strVar(ScopeBoth, "collation_database", DefaultCollation), validateCollation("collation_database")),
		{Name: "time_zone", Scope: ScopeBoth, Type: TypeTimeZone, Default: "SYSTEM"},
		uintVar(ScopeBoth, "auto_increment_increment", "1", 1, 65535),
		uintVar(ScopeBoth, "auto_increment_offset", "1", 1, 65535),
		uintVar(ScopeBoth, "max_execution_time", "0", 0, maxUint32),
		uintVar(ScopeBoth, "innodb_lock_wait_timeout", "50", 1, 1073741824),
		uintVar(ScopeBoth, "wait_timeout", "28800", 1, 31536000),
		uintVar(ScopeBoth, "interactive_timeout", "28800", 1, 31536000),
		uintVar(ScopeBoth, "net_write_timeout", "60", 1, 31536000),
		uintVar(ScopeBoth, "net_read_timeout", "30", 1, 31536000),
		uintVar(ScopeBoth, "net_buffer_length", "16384", 1024, 1048576),
		uintVar(ScopeBoth, "sql_select_limit", "18446744073709551615", 0, math.MaxUint64),
		boolVar(ScopeBoth, "sql_safe_updates", false),
		// Foreign keys are enforced while ON (exec/fk.go; DDL: catalog).
		boolVar(ScopeBoth, "foreign_key_checks", true),
		noop(boolVar(ScopeBoth, "unique_checks", true)),
		uintVar(ScopeSession, "last_insert_id", "0", 0, math.MaxUint64),
		alias("identity", "last_insert_id"),
		{Name: "warning_count", Scope: ScopeSession, Type: TypeUint, Default: "0", MaxUint: math.MaxUint64, ReadOnly: true, Dynamic: true},
		{Name: "error_count", Scope: ScopeSession, Type: TypeUint, Default: "0", MaxUint: math.MaxUint64, ReadOnly: true, Dynamic: true},
		strVar(ScopeGlobal, "init_connect", ""),
		noop(enumVar(ScopeBoth, "query_cache_type", "OFF", "OFF", "ON", "DEMAND")),
		noop(uintVar(ScopeGlobal, "query_cache_size", "1048576", 0, math.MaxUint64)),
		validated(strVar(ScopeBoth, "default_storage_engine", "InnoDB"), storageEngine),
		noop(validated(strVar(ScopeBoth, "default_tmp_storage_engine", "InnoDB"), storageEngine)),
		uintVar(ScopeBoth, "div_precision_increment", "4", 0, 30),
		uintVar(ScopeBoth, "group_concat_max_len", "1024", 4, math.MaxUint64),
		// 0 = unlimited, as TiDB: sysbench runs 1000 threads against the
		// default configuration (MySQL's default is 151).
		uintVar(ScopeGlobal, "max_connections", "0", 0, 100000),
		uintVar(ScopeGlobal, "max_prepared_stmt_count", "16382", 0, 4194304),
		uintVar(ScopeBoth, "cte_max_recursion_depth", "1000", 0, maxUint32),
		boolVar(ScopeBoth, "sql_auto_is_null", false),
		boolVar(ScopeBoth, "explicit_defaults_for_timestamp", true),
		uintVar(ScopeBoth, "default_week_format", "0", 0, 7),
		validated(strVar(ScopeBoth, "block_encryption_mode", "aes-128-ecb"), blockEncryptionMode),
		{Name: "long_query_time", Scope: ScopeBoth, Type: TypeFloat, Default: "10", MinFloat: 0, MaxFloat: 31536000},
		noop(boolVar(ScopeBoth, "sql_log_bin", true)),
		boolVar(ScopeBoth, "sql_quote_show_create", true),
		noop(boolVar(ScopeBoth, "sql_big_selects", true)),
		noop(boolVar(ScopeBoth, "sql_buffer_result", false)),
		noop(boolVar(ScopeBoth, "big_tables", false)),
		boolVar(ScopeBoth, "sql_notes", true),
		boolVar(ScopeBoth, "sql_warnings", false),
		uintVar(ScopeBoth, "max_sort_length", "1024", 4, 8388608),
		noop(uintVar(ScopeBoth, "sort_buffer_size", "262144", 32768, math.MaxUint64)),
		noop(uintVar(ScopeBoth, "join_buffer_size", "262144", 128, math.MaxUint64)),
		noop(uintVar(ScopeBoth, "tmp_table_size", "16777216", 1024, math.MaxUint64)),
		noop(uintVar(ScopeBoth, "max_heap_table_size", "16777216", 16384, math.MaxUint64)),
		noop(uintVar(ScopeGlobal, "innodb_buffer_pool_size", "134217728", 5242880, math.MaxUint64)),
		noop(enumVar(ScopeBoth, "binlog_format", "ROW", "ROW", "STATEMENT", "MIXED")),
		uintVar(ScopeBoth, "information_schema_stats_expiry", "86400", 0, 31536000),
	}
}

// checkIsolation rejects the levels Strata does not implement unless
// tidb_skip_isolation_level_check is ON, as TiDB does.
func checkIsolation(get func(string) string, v string) ([]error, error) {
	if v == RepeatableRead || v == ReadCommitted {
		return nil, nil
	}
	e := &Error{Kind: ErrNotSupported, Name: "transaction_isolation", Value: v,
		Msg: "The isolation level '" + v + "' is not supported. Set tidb_skip_isolation_level_check=1 to skip this error"}
	if get("tidb_skip_isolation_level_check") == "ON" {
		return []error{e}, nil
	}
	return nil, e
}

func storageEngine(v string) (string, []error, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "innodb":
		return "InnoDB", nil, nil
	case "memory", "myisam", "csv", "archive", "blackhole", "merge", "federated":
		return strings.ToUpper(strings.TrimSpace(v)), []error{&Error{Kind: WarnNoEffect, Name: "default_storage_engine", Value: v,
			Detail: "every table is stored in Strata's own engine"}}, nil
	}
	return "", nil, errWrongValue("default_storage_engine", v)
}

func blockEncryptionMode(v string) (string, []error, error) {
	l := strings.ToLower(strings.TrimSpace(v))
	bits, mode, ok := strings.Cut(strings.TrimPrefix(l, "aes-"), "-")
	if ok && strings.HasPrefix(l, "aes-") {
		if n, err := strconv.Atoi(bits); err == nil && (n == 128 || n == 192 || n == 256) {
			switch mode {
			case "ecb", "cbc", "cfb1", "cfb8", "cfb128", "ofb":
				return l, nil, nil
			}
		}
	}
	return "", nil, errWrongValue("block_encryption_mode", v)
}
