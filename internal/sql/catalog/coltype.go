package catalog

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// checkColumnType checks what MySQL checks of a column's type when the
// column is defined: BIT(1..64) (1439), ENUM and SET members distinct by
// the column's collation (1291), at most 64 SET members (1097).
func checkColumnType(col *ColumnInfo) error {
	ft := &col.FieldType
	switch ft.Tp {
	case mysql.TypeBit:
		if ft.Flen > 64 {
			return sqlerr.New(mysql.ErrTooBigDisplaywidth, col.Name, 64)
		}
		if ft.Flen < 1 {
			ft.Flen = 1
		}
	case mysql.TypeEnum, mysql.TypeSet:
		what := "ENUM"
		if ft.Tp == mysql.TypeSet {
			what = "SET"
			if len(ft.Elems) > 64 {
				return sqlerr.New(mysql.ErrTooBigSet, col.Name)
			}
			for _, e := range ft.Elems {
				if strings.Contains(e, ",") {
					return sqlerr.New(mysql.ErrIllegalValueForType, "set", e)
				}
			}
		}
		ci := !strings.HasSuffix(ft.Collate, "_bin") && ft.Collate != "binary"
		for i, e := range ft.Elems {
			for _, o := range ft.Elems[:i] {
				if o == e || (ci && strings.EqualFold(o, e)) {
					return sqlerr.New(mysql.ErrDuplicatedValueInType, col.Name, e, what)
				}
			}
		}
	}
	return nil
}
