package expr

import (
	"math"
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

func init() {
	register("format", 2, 3, func(b *builder, c *call) (Expression, error) {
		c.args[0] = numArg(c.args[0])
		return b.newFunc(c.name, c.args, textType(64)(), &formatFunc{cls: numClass(c.args[0].Type())}), nil
	})
}

// numberLocale is a locale's decimal point and thousands separator.
type numberLocale struct{ point, sep string }

// numberLocales are the locales FORMAT knows (others: en_US, warning 1649).
var numberLocales = map[string]numberLocale{
	"en_us": {".", ","}, "en_gb": {".", ","}, "en_au": {".", ","}, "en_ca": {".", ","},
	"de_de": {",", "."}, "de_at": {",", "."}, "es_es": {",", "."}, "it_it": {",", "."},
	"nl_nl": {",", "."}, "pt_br": {",", "."}, "id_id": {",", "."},
	"de_ch": {".", "'"}, "fr_fr": {",", "\u202f"}, "ru_ru": {",", "\u00a0"},
	"ja_jp": {".", ","}, "zh_cn": {".", ","}, "ko_kr": {".", ","}, "hi_in": {".", ","},
}

// formatFunc is FORMAT(x, d[, locale]): x rounded to d decimals (0..30;
// decimals half away from zero, doubles half to even as MySQL's rint)
// with thousands separators.
type formatFunc struct{ cls types.EvalType }

func (f *formatFunc) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	var ds [2]types.Datum
	if null, err := evalArgs(ctx, row, args[:2], ds[:]); err != nil || null {
		return types.NewNullDatum(), err
	}
	d := &ds[0]
	p := toInt(ctx, &ds[1])
	places := int(max(min(p.v, 30), 0))
	if p.unsigned {
		places = 30
	}
	loc := numberLocale{".", ","}
	if len(args) == 3 {
		ld, err := args[2].Eval(ctx, row)
		if err != nil {
			return ld, err
		}
		if !ld.IsNull() {
			name := string(toBytes(&ld))
			if l, ok := numberLocales[strings.ToLower(name)]; ok {
				loc = l
			} else {
				ctx.AppendWarning(sqlerr.New(mysql.ErrUnknownLocale, name))
			}
		}
	}
	var s string
	if f.cls == types.ETReal {
		v := toFloat(ctx, d)
		sc := math.Pow10(places)
		if r := math.RoundToEven(v*sc) / sc; !math.IsInf(v*sc, 0) {
			v = r
		}
		s = strconv.FormatFloat(v, 'f', places, 64)
	} else {
		dec := toDecimal(ctx, d)
		r := new(types.Decimal)
		_ = r.Round(dec, places)
		s = r.StringScale(places)
	}
	return types.NewStringDatum(groupDigits(s, loc)), nil
}

// groupDigits inserts the locale's separators into a plain number.
func groupDigits(s string, loc numberLocale) string {
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	intPart, frac := s, ""
	if i := strings.IndexByte(s, '.'); i >= 0 {
		intPart, frac = s[:i], s[i+1:]
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteString(loc.sep)
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteString(loc.point)
		b.WriteString(frac)
	}
	return b.String()
}
