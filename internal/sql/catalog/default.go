package catalog

import (
	"fmt"
	"strconv"
	"time"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/types"
)

// init fills the cached default datums of every column from their stored
// text. It runs once when a TableInfo is built or loaded, before the info
// is shared.
func (t *TableInfo) init() error {
	for _, c := range t.Columns {
		if err := c.init(); err != nil {
			return fmt.Errorf("table %s column %s: %w", t.Name, c.Name, err)
		}
	}
	t.colInfos = t.buildColInfos()
	t.storedIDs = t.storedIDs[:0]
	for _, c := range t.Columns {
		if !(t.PKIsHandle && c.InPrimaryKey()) {
			t.storedIDs = append(t.storedIDs, c.ID)
		}
	}
	return t.initExprs()
}

func (c *ColumnInfo) init() error {
	c.defaultDatum, c.originDatum = types.NewNullDatum(), types.NewNullDatum()
	if c.HasDefault && !c.DefaultNull && c.DefaultExpr == "" {
		d, err := parseStoredDefault(c.DefaultValue, &c.FieldType)
		if err != nil {
			return err
		}
		c.defaultDatum = d
	}
	if c.HasOriginDefault {
		d, err := parseStoredDefault(c.OriginDefault, &c.FieldType)
		if err != nil {
			return err
		}
		c.originDatum = d
	}
	return nil
}

// parseStoredDefault converts stored default text to a datum of ft.
func parseStoredDefault(s string, ft *types.FieldType) (types.Datum, error) {
	var d types.Datum
	if ft.Tp == mysql.TypeBit {
		// storeText wrote the number: b'101' is stored as "5".
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return types.Datum{}, err
		}
		return types.NewUintDatum(v), nil
	}
	if ft.IsBinaryString() {
		d = types.NewBytesDatum([]byte(s))
	} else {
		d = types.NewStringDatum(s)
	}
	v, err := types.ConvertDatum(d, ft)
	if err != nil {
		return types.Datum{}, err
	}
	return v, nil
}

// GetDefault returns the value an INSERT that omits the column stores:
// the DEFAULT literal, CURRENT_TIMESTAMP evaluated at now, or NULL for a
// nullable column without a default. ok is false for a NOT NULL column
// without a default (MySQL's 1364 in strict mode; ZeroValue otherwise) and
// for AUTO_INCREMENT columns, whose value the caller allocates.
func (c *ColumnInfo) GetDefault(now time.Time) (d types.Datum, ok bool) {
	switch {
	case c.AutoIncrement:
		return types.NewNullDatum(), false
	case c.DefaultExpr == DefaultCurrentTimestamp:
		return types.NewTimeDatum(types.FromGoTime(now, c.FieldType.Tp, c.FieldType.Fsp())), true
	case c.HasDefault:
		return c.defaultDatum, true
	case c.NotNull():
		return types.NewNullDatum(), false
	}
	return types.NewNullDatum(), true
}

// OriginDefaultDatum returns the value rows stored before the column existed
// decode to (NULL for columns created with the table).
func (c *ColumnInfo) OriginDefaultDatum() types.Datum { return c.originDatum }

// ZeroValue returns the implicit default of the column's type (0, "",
// the zero date) that MySQL stores for a missing NOT NULL value outside
// strict mode and for existing rows when a NOT NULL column without a
// default is added.
func (c *ColumnInfo) ZeroValue() types.Datum {
	ft := &c.FieldType
	switch ft.Tp {
	case mysql.TypeEnum:
		// MySQL's implicit default of an ENUM NOT NULL is its first member.
		return ft.EnumDatum(1)
	case mysql.TypeSet:
		return ft.SetDatum(0)
	case mysql.TypeJSON:
		return types.NewJSONDatum(types.JSONNullValue())
	}
	switch ft.EvalType() {
	case types.ETInt:
		if ft.IsUnsigned() {
			return types.NewUintDatum(0)
		}
		return types.NewIntDatum(0)
	case types.ETReal:
		if ft.Tp == mysql.TypeFloat {
			return types.NewFloat32Datum(0)
		}
		return types.NewFloat64Datum(0)
	case types.ETDecimal:
		d, _ := types.ConvertDatum(types.NewIntDatum(0), ft)
		return d
	case types.ETDatetime:
		return types.NewTimeDatum(types.ZeroTime(ft.Tp, ft.Fsp()))
	case types.ETDuration:
		return types.NewDurationDatum(types.Duration{Fsp: ft.Fsp()})
	}
	if ft.IsBinaryString() {
		if ft.Tp == mysql.TypeString && ft.Flen > 0 {
			return types.NewBytesDatum(make([]byte, ft.Flen))
		}
		return types.NewBytesDatum([]byte{})
	}
	return types.NewStringDatum("")
}

// storeText renders a datum of the column's type as the text
// parseStoredDefault reads back.
func storeText(d types.Datum) string { return d.String() }
