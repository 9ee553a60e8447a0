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
		switch name {
		case "regexp_like":
			f.ft = intType(false)
		case "regexp_instr":
			f.ft, f.nNum = intType(false), 3
		default:
			f.ft, f.nNum = stringType(coll, bin, c.args[0].Type().Flen), 2
		}
		// A constant pattern and match type are compiled once (a bad one
		// is left to evaluation, which reports it).
		pat, ok := constValue(c.args[1])
		var mt *types.Datum
		if i := f.matchTypeArg(len(c.args)); ok && i > 0 {
			mt, ok = constValue(c.args[i])
		}
		if ok {
			matchType := ""
			if mt != nil {
				matchType = string(toBytes(mt))
			}
			f.fixed, _ = f.compile(string(toBytes(pat)), matchType)
		}
		return b.newFunc(name, c.args, f.ft, f), nil
	}
}

type regexpFn struct {
	name string
	ci   bool
	ft   *types.FieldType
	// nNum is the number of numeric arguments (pos, occurrence,
	// return_option) that may come before match_type.
	nNum int
	// fixed is the compiled constant pattern, nil if not constant.
	fixed *regexp.Regexp
}

// matchTypeArg returns the position of the match_type argument among n
// arguments, 0 when there is none.
func (f *regexpFn) matchTypeArg(n int) int {
	first := 2 // expr, pattern
	if f.name == "regexp_replace" {
		first++ // replacement
	}
	if n > first+f.nNum {
		return first + f.nNum
	}
	return 0
}

// compile compiles pat under match_type letters and the collation's case
// sensitivity.
func (f *regexpFn) compile(pat, matchType string) (*regexp.Regexp, error) {
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
			return nil, sqlerr.New(mysql.ErrWrongArguments, f.name)
		}
	}
	if ci {
		flags += "i"
	}
	if flags != "" {
		pat = "(?" + flags + ")" + pat
	}
	return compileRegexp(pat, false)
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
	s := v[0]
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
	for i := range rest {
		if i >= f.nNum {
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
	re := f.fixed
	if re == nil {
		if re, err = f.compile(string(v[1]), matchType); err != nil {
			return types.NewNullDatum(), err
		}
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
