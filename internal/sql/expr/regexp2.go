package expr

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/chunk"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// REGEXP_LIKE, REGEXP_INSTR, REGEXP_REPLACE and REGEXP_SUBSTR with MySQL
// 8's arguments: positions in characters from 1, occurrences from 1
// (REGEXP_REPLACE's 0: all), match_type letters c (case-sensitive), i
// (insensitive), m (multi-line), n ('.' matches newlines), u (ignored);
// the default case sensitivity is the collation's. Go's RE2 stands in
// for ICU, as for REGEXP.

func init() {
	register("regexp_like", 2, 3, buildRegexpFn("regexp_like"))
	register("regexp_instr", 2, 6, buildRegexpFn("regexp_instr"))
	register("regexp_replace", 3, 6, buildRegexpFn("regexp_replace"))
	register("regexp_substr", 2, 5, buildRegexpFn("regexp_substr"))
}

func buildRegexpFn(name string) func(b *builder, c *call) (Expression, error) {
	return func(b *builder, c *call) (Expression, error) {
		coll, bin := deriveCollation(c.args[:2])
		f := &regexpFn{name: name, ci: !bin && getCollator(coll).ci}
		var ft *types.FieldType
		switch name {
		case "regexp_like", "regexp_instr":
			ft = intType(false)
		default:
			ft = stringType(coll, bin, c.args[0].Type().Flen)
		}
		f.ft = ft
		return b.newFunc(name, c.args, ft, f), nil
	}
}

type regexpFn struct {
	name string
	ci   bool
	ft   *types.FieldType
}

// errRegexpIndex is MySQL 8's error 3685.
func errRegexpIndex() error {
	return sqlerr.Newf(3685, "Index out of bounds in regular expression search.")
}

func (f *regexpFn) eval(ctx EvalContext, row chunk.Row, args []Expression) (types.Datum, error) {
	v, ds, null, err := evalStrArgs(ctx, row, args)
	if err != nil || null {
		return types.NewNullDatum(), err
	}
	s, pat := v[0], string(v[1])
	// Argument positions after expr and pattern.
	rest := v[2:]
	restD := ds[2:]
	var repl []byte
	if f.name == "regexp_replace" {
		repl, rest, restD = rest[0], rest[1:], restD[1:]
	}
	pos, occ, retOpt := int64(1), int64(1), int64(0)
	if f.name == "regexp_replace" {
		occ = 0
	}
	matchType := ""
	nNum := map[string]int{"regexp_like": 0, "regexp_instr": 3, "regexp_replace": 2, "regexp_substr": 2}[f.name]
	for i := range rest {
		if i >= nNum {
			matchType = string(rest[i])
			break
		}
		n := toInt(ctx, &restD[i]).v
		switch i {
		case 0:
			pos = n
		case 1:
			occ = n
		case 2:
			retOpt = n
		}
	}
	ci, flags := f.ci, ""
	for _, c := range matchType {
		switch c {
		case 'c':
			ci = false
		case 'i':
			ci = true
		case 'm':
			flags += "m"
		case 'n':
			flags += "s"
		case 'u':
		default:
			return types.NewNullDatum(), sqlerr.New(mysql.ErrWrongArguments, f.name)
		}
	}
	if ci {
		flags += "i"
	}
	if flags != "" {
		pat = "(?" + flags + ")" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return types.NewNullDatum(), sqlerr.New(mysql.ErrRegexp, err.Error())
	}
	binary := args[0].Type().IsBinaryString()
	nchars := int64(len(s))
	if !binary {
		nchars = int64(utf8.RuneCount(s))
	}
	if pos < 1 || pos > nchars+1 {
		if f.name == "regexp_like" {
			return boolDatum(re.Match(s)), nil
		}
		return types.NewNullDatum(), errRegexpIndex()
	}
	if f.name == "regexp_instr" && retOpt != 0 && retOpt != 1 {
		return types.NewNullDatum(), sqlerr.Newf(mysql.ErrWrongArguments,
			"Incorrect arguments to regexp_instr: return_option must be 1 or 0.")
	}
	off := int(pos - 1)
	if !binary {
		off = len(runeSlice(s, 0, int(pos-1)))
	}
	charPos := func(byteOff int) int64 {
		if binary {
			return int64(byteOff) + 1
		}
		return int64(utf8.RuneCount(s[:byteOff])) + 1
	}
	switch f.name {
	case "regexp_like":
		return boolDatum(re.Match(s)), nil
	case "regexp_instr", "regexp_substr":
		if occ < 1 {
			occ = 1
		}
		ms := re.FindAllIndex(s[off:], int(min(occ, 1<<20)))
		if int64(len(ms)) < occ {
			if f.name == "regexp_substr" {
				return types.NewNullDatum(), nil
			}
			return types.NewIntDatum(0), nil
		}
		m := ms[occ-1]
		if f.name == "regexp_substr" {
			return strResult(append([]byte{}, s[off+m[0]:off+m[1]]...), f.ft), nil
		}
		if retOpt == 1 {
			return types.NewIntDatum(charPos(off + m[1])), nil
		}
		return types.NewIntDatum(charPos(off + m[0])), nil
	}
	// regexp_replace: $n and ${n} refer to groups, as ICU's $n.
	tpl := strings.ReplaceAll(string(repl), "\\$", "$$")
	out := append([]byte{}, s[:off]...)
	tail := s[off:]
	n := int64(0)
	last := 0
	for _, m := range re.FindAllSubmatchIndex(tail, -1) {
		n++
		if occ != 0 && n != occ {
			continue
		}
		out = append(out, tail[last:m[0]]...)
		out = re.Expand(out, []byte(tpl), tail, m)
		last = m[1]
		if occ != 0 {
			break
		}
	}
	out = append(out, tail[last:]...)
	return strResult(out, f.ft), nil
}
