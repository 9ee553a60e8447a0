package catalog

import (
	"strings"

	"github.com/pingcap/tidb/pkg/parser/charset"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/sqlerr"
)

// resolveCharset completes a CHARACTER SET / COLLATE pair as MySQL does:
// both empty take the defaults (the enclosing database's or table's); a
// charset alone takes its default collation (1115 if unknown); a
// collation alone takes its charset (1273 if unknown); a mismatched pair
// is 1253.
func resolveCharset(cs, co, defCs, defCo string) (string, string, error) {
	cs, co = strings.ToLower(cs), strings.ToLower(co)
	switch {
	case cs == "" && co == "":
		return defCs, defCo, nil
	case co == "":
		def, err := charset.GetDefaultCollation(cs)
		if err != nil {
			return "", "", sqlerr.New(mysql.ErrUnknownCharacterSet, cs)
		}
		return cs, def, nil
	case cs == "":
		c, err := charset.GetCollationByName(co)
		if err != nil {
			return "", "", sqlerr.New(mysql.ErrUnknownCollation, co)
		}
		return c.CharsetName, c.Name, nil
	}
	if _, err := charset.GetCharsetInfo(cs); err != nil {
		return "", "", sqlerr.New(mysql.ErrUnknownCharacterSet, cs)
	}
	if _, err := charset.GetCollationByName(co); err != nil {
		return "", "", sqlerr.New(mysql.ErrUnknownCollation, co)
	}
	if !charset.ValidCharsetAndCollation(cs, co) {
		return "", "", sqlerr.New(mysql.ErrCollationCharsetMismatch, co, cs)
	}
	return cs, co, nil
}
