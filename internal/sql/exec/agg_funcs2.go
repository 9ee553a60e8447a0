package exec

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/strata-db/strata/internal/sql/expr"
	"github.com/strata-db/strata/internal/sql/planner"
	"github.com/strata-db/strata/internal/sql/sqlerr"
	"github.com/strata-db/strata/internal/types"
)

// addBits folds one value into BIT_AND/BIT_OR/BIT_XOR (the planner casts
// the argument to BIGINT UNSIGNED).
func (s *aggState) addBits(name string, d types.Datum) {
	v := d.GetUint64()
	if d.Kind() == types.KindInt64 {
		v = uint64(d.GetInt64())
	}
	switch name {
	case planner.AggBitAnd:
		if s.count == 1 {
			s.bits = v
		} else {
			s.bits &= v
		}
	case planner.AggBitOr:
		s.bits |= v
	default:
		s.bits ^= v
	}
}

// varianceAcc is MySQL's running variance (variance_fp_recurrence_next:
// Welford's method), so results match MySQL's to the last digit.
type varianceAcc struct {
	n    int64
	m, s float64
}

func (a *varianceAcc) add(x float64) {
	a.n++
	if a.n == 1 {
		a.m, a.s = x, 0
		return
	}
	prev := a.m
	a.m = prev + (x-prev)/float64(a.n)
	a.s += (x - prev) * (x - a.m)
}

// result is the population or sample variance or standard deviation:
// NULL without rows (sample: with fewer than two).
func (a *varianceAcc) result(name string) types.Datum {
	sample := name == planner.AggStddevSamp || name == planner.AggVarSamp
	if a.n == 0 || (sample && a.n == 1) {
		return types.NewNullDatum()
	}
	var v float64
	switch {
	case a.n == 1:
		v = 0
	case sample:
		v = a.s / float64(a.n-1)
	default:
		v = a.s / float64(a.n)
	}
	if name == planner.AggStddevPop || name == planner.AggStddevSamp {
		v = math.Sqrt(v)
	}
	return types.NewFloat64Datum(v)
}

// concatRow is one GROUP_CONCAT row: its text and ORDER BY keys.
type concatRow struct {
	text []byte
	keys []types.Datum
}

// addConcat keeps one row of GROUP_CONCAT (args are the values then the
// ORDER BY keys; DISTINCT compares the values only).
func (s *aggState) addConcat(f *planner.AggFunc, args []types.Datum) error {
	nvals := len(f.ValueArgs())
	if f.Distinct {
		s.keyBuf = expr.AppendGroupKey(s.keyBuf[:0], s.argOrders(f), args[:nvals])
		if s.seen == nil {
			s.seen = make(map[string]struct{})
		}
		if _, dup := s.seen[string(s.keyBuf)]; dup {
			return nil
		}
		s.seen[string(s.keyBuf)] = struct{}{}
	}
	var text []byte
	for _, d := range args[:nvals] {
		text = append(text, datumText(&d)...)
	}
	r := concatRow{text: text}
	for _, d := range args[nvals:] {
		r.keys = append(r.keys, d.Clone())
	}
	s.count++
	s.gc = append(s.gc, r)
	return nil
}

// datumText is a value's text as CONCAT renders it.
func datumText(d *types.Datum) []byte {
	switch d.Kind() {
	case types.KindString, types.KindBytes:
		return d.GetBytes()
	case types.KindFloat32:
		return types.AppendFloat(nil, d.GetFloat64(), 32, -1)
	case types.KindFloat64:
		return types.AppendFloat(nil, d.GetFloat64(), 64, -1)
	}
	return []byte(d.String())
}

// concatResult joins the group's rows in ORDER BY order with the
// separator, cut to group_concat_max_len bytes (on a character boundary)
// with warning 1260.
func (s *aggState) concatResult(ctx expr.EvalContext, f *planner.AggFunc) types.Datum {
	if len(s.gc) == 0 {
		return types.NewNullDatum()
	}
	rows := s.gc
	if len(f.OrderDesc) > 0 {
		ords, nvals := s.argOrders(f), len(f.ValueArgs())
		slices.SortStableFunc(rows, func(a, b concatRow) int {
			for i, desc := range f.OrderDesc {
				c := ords[nvals+i].CompareNullsFirst(&a.keys[i], &b.keys[i])
				if desc {
					c = -c
				}
				if c != 0 {
					return c
				}
			}
			return 0
		})
	}
	maxLen := 1024
	if ctx != nil {
		if v, err := ctx.GetSysVar("group_concat_max_len", false); err == nil {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				maxLen = n
			}
		}
	}
	var out []byte
	for i, r := range rows {
		if i > 0 {
			out = append(out, f.Separator...)
		}
		out = append(out, r.text...)
		if len(out) > maxLen {
			cut := maxLen
			if !f.Ft.IsBinaryString() {
				for cut > 0 && !utf8.RuneStart(out[cut]) {
					cut--
				}
			}
			out = out[:cut]
			if ctx != nil {
				ctx.AppendWarning(sqlerr.Newf(mysql.ErrCutValueGroupConcat, "Row %d was cut by GROUP_CONCAT()", i+1))
			}
			break
		}
	}
	if out == nil {
		out = []byte{}
	}
	if f.Ft.IsBinaryString() {
		return types.NewBytesDatum(bytes.Clone(out))
	}
	return types.NewStringDatumBytes(out)
}
