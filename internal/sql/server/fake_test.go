package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cockroachdb/apd/v3"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// fakeBackend is a canned Backend for protocol tests: accounts with
// passwords, sessions that answer a few fixed "statements".
type fakeBackend struct {
	passwords map[string]string // user -> password

	mu       sync.Mutex
	closed   int           // sessions closed
	resClose chan string   // names of closed results ("big")
	running  chan struct{} // signalled when "sleep" starts
	lastInfo ConnInfo
}

func newFakeBackend() *fakeBackend {
	return &fakeBackend{
		passwords: map[string]string{"root": "", "alice": "secret"},
		resClose:  make(chan string, 16),
		running:   make(chan struct{}, 16),
	}
}

func (b *fakeBackend) Authenticate(user, host, plugin string, salt, response []byte) error {
	pw, ok := b.passwords[user]
	using := "NO"
	if len(response) > 0 {
		using = "YES"
	}
	denied := sqlerr.New(sqlerr.ErrAccessDenied, user, host, using)
	if !ok {
		return denied
	}
	switch plugin {
	case PluginNativePassword:
		if !CheckNativePassword(salt, response, NativePasswordHash(pw)) {
			return denied
		}
	case PluginCachingSHA2Password:
		if !CheckSHA2Password(salt, response, SHA2PasswordHash(pw)) {
			return denied
		}
	default:
		return denied
	}
	return nil
}

func (b *fakeBackend) Open(ctx context.Context, c ConnInfo) (Session, error) {
	if c.DB == "nodb" {
		return nil, sqlerr.New(sqlerr.ErrBadDB, c.DB)
	}
	b.mu.Lock()
	b.lastInfo = c
	b.mu.Unlock()
	return &fakeSession{b: b, db: c.DB, stmts: map[uint32]string{}}, nil
}

type fakeSession struct {
	b      *fakeBackend
	db     string
	inTxn  bool
	warns  uint16
	nextID uint32
	stmts  map[uint32]string
}

func (s *fakeSession) ExecuteText(ctx context.Context, sql string, emit func(Result) error) error {
	if strings.HasPrefix(sql, "checked ") {
		sql = strings.TrimPrefix(sql, "checked ")
		if strings.Contains(sql, ";") && !MultiStatementsAllowed(ctx) {
			return sqlerr.New(sqlerr.ErrMultiStatementDisabled)
		}
	}
	for _, stmt := range strings.Split(sql, ";") {
		stmt = strings.TrimSpace(stmt)
		if stmt == "" {
			continue
		}
		r, err := s.run(ctx, stmt, nil)
		if err != nil {
			return err
		}
		if err := emit(r); err != nil {
			return err
		}
	}
	return nil
}

// run answers one canned statement.
func (s *fakeSession) run(ctx context.Context, stmt string, args []Arg) (Result, error) {
	word, rest, _ := strings.Cut(stmt, " ")
	switch strings.ToLower(word) {
	case "select_all":
		return &fakeResult{cols: allColumns(), rows: allRows()}, nil
	case "ok":
		n, _ := strconv.ParseUint(rest, 10, 64)
		s.warns = uint16(n % 3)
		return &fakeResult{affected: n, lastID: n + 100}, nil
	case "begin":
		s.inTxn = true
		return &fakeResult{}, nil
	case "commit":
		s.inTxn = false
		return &fakeResult{}, nil
	case "error":
		n, _ := strconv.Atoi(rest)
		switch n {
		case 1062:
			return nil, sqlerr.New(sqlerr.ErrDupEntry, "1", "PRIMARY")
		case 9007:
			return nil, fmt.Errorf("commit: %w", &writeConflictForTest{})
		}
		return nil, sqlerr.New(uint16(n))
	case "echo":
		return &fakeResult{cols: []*Column{varcharCol("echo")}, rows: [][]any{{[]byte(rest)}}}, nil
	case "echolen":
		return &fakeResult{cols: []*Column{longCol("len")}, rows: [][]any{{int64(len(rest))}}}, nil
	case "big":
		n, _ := strconv.Atoi(rest)
		return &fakeResult{cols: []*Column{longCol("i"), varcharCol("pad")}, gen: n, name: "big", b: s.b}, nil
	case "midfail":
		return &fakeResult{cols: []*Column{longCol("i")}, rows: [][]any{{int64(1)}}, failAfter: true}, nil
	case "sleep":
		s.b.running <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	case "panic":
		panic("fake session panic")
	case "args":
		row := make([]any, len(args))
		cols := make([]*Column, len(args))
		for i, a := range args {
			cols[i] = varcharCol(fmt.Sprintf("a%d", i))
			row[i] = []byte(describeArg(a))
		}
		return &fakeResult{cols: cols, rows: [][]any{row}}, nil
	case "select":
		if rest == "DATABASE(), USER() limit 1" { // the mysql client's status
			return &fakeResult{cols: []*Column{varcharCol("DATABASE()"), varcharCol("USER()")},
				rows: [][]any{{[]byte(s.db), []byte("root@localhost")}}}, nil
		}
	case "db":
		return &fakeResult{cols: []*Column{varcharCol("db")}, rows: [][]any{{[]byte(s.db)}}}, nil
	}
	return nil, sqlerr.Newf(sqlerr.ErrParse, "You have an error in your SQL syntax near '%s'", stmt)
}

type writeConflictForTest struct{}

func (*writeConflictForTest) Error() string { return "conflict" }
func (*writeConflictForTest) Unwrap() error {
	return sqlerr.New(sqlerr.ErrWriteConflict, 1, 2, 3, "k", "Optimistic")
}

// describeArg renders an Arg with its Go type, for prepared-statement tests.
func describeArg(a Arg) string {
	if a.Null {
		return fmt.Sprintf("NULL/%d", a.Type)
	}
	switch v := a.Value.(type) {
	case []byte:
		return fmt.Sprintf("%d/[]byte:%s", a.Type, v)
	case types.Time:
		return fmt.Sprintf("%d/Time:%04d-%02d-%02d %02d:%02d:%02d.%06d", a.Type, v.Year, v.Month, v.Day, v.Hour, v.Minute, v.Second, v.Microsecond)
	case types.Duration:
		return fmt.Sprintf("%d/Duration:%v", a.Type, v.D)
	}
	return fmt.Sprintf("%d/%T:%v", a.Type, a.Value, a.Value)
}

func (s *fakeSession) Prepare(ctx context.Context, sql string) (*Prepared, error) {
	word, _, _ := strings.Cut(sql, " ")
	n := strings.Count(sql, "?")
	p := &Prepared{Params: make([]*Column, n)}
	switch word {
	case "select_all":
		p.Columns = allColumns()
	case "args":
		for i := 0; i < n; i++ {
			p.Columns = append(p.Columns, varcharCol(fmt.Sprintf("a%d", i)))
		}
	case "ok", "error", "big", "midfail", "sleep":
	default:
		return nil, sqlerr.Newf(sqlerr.ErrParse, "You have an error in your SQL syntax near '%s'", sql)
	}
	s.nextID++
	s.stmts[s.nextID] = sql
	p.ID = s.nextID
	return p, nil
}

func (s *fakeSession) ExecutePrepared(ctx context.Context, id uint32, args []Arg) (Result, error) {
	sql, ok := s.stmts[id]
	if !ok {
		return nil, sqlerr.New(sqlerr.ErrUnknownStmtHandler, strconv.Itoa(int(id)), "EXECUTE")
	}
	for _, a := range args {
		if !a.Null && a.Type == mysql.TypeGeometry {
			return nil, sqlerr.New(sqlerr.ErrWrongArguments, "EXECUTE")
		}
	}
	return s.run(ctx, sql, args)
}

func (s *fakeSession) ClosePrepared(id uint32)       { delete(s.stmts, id) }
func (s *fakeSession) ResetPrepared(id uint32) error { return nil }

func (s *fakeSession) UseDB(ctx context.Context, db string) error {
	if db == "nodb" {
		return sqlerr.New(sqlerr.ErrBadDB, db)
	}
	s.db = db
	return nil
}

func (s *fakeSession) FieldList(ctx context.Context, table, wildcard string) ([]*Column, error) {
	if table != "t" {
		return nil, sqlerr.New(sqlerr.ErrNoSuchTable, s.db, table)
	}
	return []*Column{longCol("id"), varcharCol("name")}, nil
}

func (s *fakeSession) Status() uint16 {
	if s.inTxn {
		return StatusInTrans
	}
	return StatusAutocommit
}

func (s *fakeSession) WarningCount() uint16 { return s.warns }

func (s *fakeSession) Close() {
	s.b.mu.Lock()
	s.b.closed++
	s.b.mu.Unlock()
}

// fakeResult serves rows from a slice (or generates gen rows).
type fakeResult struct {
	cols      []*Column
	rows      [][]any
	affected  uint64
	lastID    uint64
	gen       int
	pos       int
	failAfter bool
	name      string
	b         *fakeBackend
}

func (r *fakeResult) Columns() []*Column   { return r.cols }
func (r *fakeResult) AffectedRows() uint64 { return r.affected }
func (r *fakeResult) LastInsertID() uint64 { return r.lastID }
func (r *fakeResult) Close() {
	if r.name != "" {
		r.b.resClose <- r.name
	}
}

func (r *fakeResult) Next(ctx context.Context) ([]Row, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if r.gen > 0 {
		var out []Row
		for ; r.pos < r.gen && len(out) < 256; r.pos++ {
			out = append(out, fakeRow{int64(r.pos), []byte(strings.Repeat("x", 100))})
		}
		return out, nil
	}
	if r.pos >= len(r.rows) {
		if r.failAfter {
			return nil, sqlerr.New(sqlerr.ErrDivisionByZero)
		}
		return nil, nil
	}
	out := make([]Row, 0, len(r.rows))
	for _, row := range r.rows[r.pos:] {
		out = append(out, fakeRow(row))
	}
	r.pos = len(r.rows)
	return out, nil
}

// fakeRow is a row of Go values: int64, uint64, float32, float64, []byte,
// *types.Decimal, types.Time, types.Duration, nil for NULL.
type fakeRow []any

func (r fakeRow) Len() int                         { return len(r) }
func (r fakeRow) IsNull(i int) bool                { return r[i] == nil }
func (r fakeRow) GetInt64(i int) int64             { return r[i].(int64) }
func (r fakeRow) GetUint64(i int) uint64           { return r[i].(uint64) }
func (r fakeRow) GetFloat32(i int) float32         { return r[i].(float32) }
func (r fakeRow) GetFloat64(i int) float64         { return r[i].(float64) }
func (r fakeRow) GetBytes(i int) []byte            { return r[i].([]byte) }
func (r fakeRow) GetDecimal(i int) *types.Decimal  { return r[i].(*types.Decimal) }
func (r fakeRow) GetTime(i int) types.Time         { return r[i].(types.Time) }
func (r fakeRow) GetDuration(i int) types.Duration { return r[i].(types.Duration) }

func col(name string, tp byte, flags uint, dec uint8, charset uint16) *Column {
	return &Column{Schema: "test", Table: "t", OrgTable: "t", Name: name, OrgName: name,
		Charset: charset, Length: 20, Type: tp, Flags: uint16(flags), Decimals: dec}
}

// bitCol is a BIT(n) column: its length is n.
func bitCol(name string, n uint32) *Column {
	c := col(name, mysql.TypeBit, mysql.UnsignedFlag, 0, 63)
	c.Length = n
	return c
}

func longCol(name string) *Column    { return col(name, mysql.TypeLong, 0, 0, 63) }
func varcharCol(name string) *Column { return col(name, mysql.TypeVarString, 0, 0, 46) }

// allColumns covers every column type the SQL layer produces.
func allColumns() []*Column {
	u := mysql.UnsignedFlag
	return []*Column{
		col("c_tiny", mysql.TypeTiny, 0, 0, 63),
		col("c_utiny", mysql.TypeTiny, u, 0, 63),
		col("c_short", mysql.TypeShort, 0, 0, 63),
		col("c_ushort", mysql.TypeShort, u, 0, 63),
		col("c_int24", mysql.TypeInt24, 0, 0, 63),
		col("c_long", mysql.TypeLong, 0, 0, 63),
		col("c_ulong", mysql.TypeLong, u, 0, 63),
		col("c_longlong", mysql.TypeLonglong, 0, 0, 63),
		col("c_ulonglong", mysql.TypeLonglong, u, 0, 63),
		col("c_year", mysql.TypeYear, u, 0, 63),
		col("c_float", mysql.TypeFloat, 0, notFixedDec, 63),
		col("c_double", mysql.TypeDouble, 0, notFixedDec, 63),
		col("c_double_big", mysql.TypeDouble, 0, notFixedDec, 63),
		col("c_decimal", mysql.TypeNewDecimal, 0, 2, 63),
		col("c_varchar", mysql.TypeVarString, 0, 0, 46),
		col("c_char", mysql.TypeString, 0, 0, 46),
		col("c_blob", mysql.TypeBlob, mysql.BinaryFlag, 0, 63),
		col("c_json", mysql.TypeJSON, 0, 0, 63),
		bitCol("c_bit", 8),
		col("c_date", mysql.TypeDate, 0, 0, 63),
		col("c_datetime", mysql.TypeDatetime, 0, 6, 63),
		col("c_timestamp", mysql.TypeTimestamp, 0, 0, 63),
		col("c_time", mysql.TypeDuration, 0, 0, 63),
		col("c_time_frac", mysql.TypeDuration, 0, 3, 63),
		col("c_null", mysql.TypeNull, 0, 0, 63),
	}
}

func jsonBinary(s string) []byte {
	j, err := types.ParseJSON(s)
	if err != nil {
		panic(err)
	}
	return types.EncodeJSON(nil, &j)
}

func mustDecimal(s string) *types.Decimal {
	d, _, err := apd.NewFromString(s)
	if err != nil {
		panic(err)
	}
	return &types.Decimal{Decimal: *d}
}

// allRows is one row of values and one row of NULLs.
func allRows() [][]any {
	dur := -(838*time.Hour + 59*time.Minute + 59*time.Second)
	row := []any{
		int64(-5), uint64(250), int64(-300), uint64(65000), int64(-8000000),
		int64(-2000000000), uint64(4000000000), int64(-9000000000000000000), uint64(18446744073709551615),
		uint64(2024), float32(0.1), float64(3.141592653589793), float64(1e20),
		mustDecimal("12.5"), []byte("héllo"), []byte("c"), []byte{0, 1, 2, 255}, jsonBinary(`{"a": 1}`), uint64(5),
		types.Time{Year: 2024, Month: 2, Day: 29, Type: mysql.TypeDate},
		types.Time{Year: 2024, Month: 2, Day: 29, Hour: 13, Minute: 14, Second: 15, Microsecond: 123456, Type: mysql.TypeDatetime, Fsp: 6},
		types.Time{Year: 1999, Month: 12, Day: 31, Hour: 23, Minute: 59, Second: 58, Type: mysql.TypeTimestamp},
		types.Duration{D: dur},
		types.Duration{D: 1*time.Hour + 2*time.Minute + 3*time.Second + 450*time.Millisecond, Fsp: 3},
		nil,
	}
	nulls := make([]any, len(row))
	return [][]any{row, nulls}
}
