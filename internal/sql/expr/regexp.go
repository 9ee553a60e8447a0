package expr

import (
	"regexp"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// regexpFunc is expr REGEXP pattern (RLIKE): 1 if the pattern matches
// anywhere in expr. Go's RE2 syntax stands in for MySQL's ICU (the common
// subset agrees; backreferences and lookaround are errors). Matching is
// case-insensitive under *_ci collations. A constant pattern is compiled
// once; a bad pattern is error 1139.
type regexpFunc struct {
	ci    bool
	fixed *regexp.Regexp
}

func compileRegexp(p string, ci bool) (*regexp.Regexp, error) {
	if ci {
		p = "(?i)" + p
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, sqlerr.New(mysql.ErrRegexp, err.Error())
	}
	return re, nil
}

func (f *regexpFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	a, err := args[0].Eval(ctx, row)
	if err != nil || a.IsNull() {
		return types.NewNullDatum(), err
	}
	re := f.fixed
	if re == nil {
		p, err := args[1].Eval(ctx, row)
		if err != nil || p.IsNull() {
			return types.NewNullDatum(), err
		}
		if re, err = compileRegexp(string(toBytes(&p)), f.ci); err != nil {
			return types.NewNullDatum(), err
		}
	}
	return boolDatum(re.Match(toBytes(&a))), nil
}
