package expr

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// collator compares strings by one collation. Strata implements three
// families: binary (bytes, no padding), *_bin (code points with MySQL's
// PAD SPACE: trailing spaces ignored) and the case-insensitive ones
// (*_general_ci, *_unicode_ci, *_0900_ai_ci: simple case folding plus
// Latin-1 accent folding; the 0900 collations are NO PAD). This is what
// sysbench, TPC-C and ORMs rely on; full UCA weights are not implemented.
type collator struct {
	binary   bool // "binary": byte-wise
	ci       bool // case (and accent) insensitive
	padSpace bool // trailing spaces do not count
	uca      bool // *_0900_*: ASCII ordered as in UCA 9.0 (see weight)
	coll     string
}

// name returns the collation's name.
func (c collator) name() string {
	switch {
	case c.coll != "":
		return c.coll
	case c.binary:
		return "binary"
	case c.ci:
		return "utf8mb4_general_ci"
	}
	return "utf8mb4_bin"
}

// getCollator returns the collator of a collation name ("" is utf8mb4_bin).
func getCollator(name string) collator {
	n := strings.ToLower(name)
	switch {
	case n == "binary":
		return collator{binary: true, coll: n}
	case strings.HasSuffix(n, "_ci"):
		uca := strings.Contains(n, "_0900_")
		return collator{ci: true, padSpace: !uca, uca: uca, coll: n}
	}
	return collator{padSpace: true, coll: n}
}

// compare orders a and b.
func (c collator) compare(a, b []byte) int {
	if c.binary {
		return bytes.Compare(a, b)
	}
	if c.padSpace {
		a, b = bytes.TrimRight(a, " "), bytes.TrimRight(b, " ")
	}
	if !c.ci {
		return bytes.Compare(a, b)
	}
	for len(a) > 0 && len(b) > 0 {
		ra, na := decodeRune(a)
		rb, nb := decodeRune(b)
		fa, fb := c.weight(ra), c.weight(rb)
		if fa != fb {
			if fa < fb {
				return -1
			}
			return 1
		}
		a, b = a[na:], b[nb:]
	}
	switch {
	case len(a) > 0:
		return 1
	case len(b) > 0:
		return -1
	}
	return 0
}

func decodeRune(b []byte) (rune, int) {
	if b[0] < utf8.RuneSelf {
		return rune(b[0]), 1
	}
	return utf8.DecodeRune(b)
}

// foldRune maps a rune to its case-insensitive weight: upper case, with
// Latin-1 accented letters folded to their base letter (as general_ci
// and 0900_ai_ci do: 'é' = 'E').
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if r >= 'a' && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}
	if r >= 0xC0 && r <= 0xFF {
		if b, ok := latin1Base[r]; ok {
			return b
		}
	}
	return unicode.ToUpper(r)
}

var latin1Base = func() map[rune]rune {
	m := map[rune]rune{}
	add := func(base rune, accented string) {
		for _, r := range accented {
			m[r] = base
		}
	}
	add('A', "ÀÁÂÃÄÅàáâãäå")
	add('C', "Çç")
	add('E', "ÈÉÊËèéêë")
	add('I', "ÌÍÎÏìíîï")
	add('N', "Ññ")
	add('O', "ÒÓÔÕÖòóôõö")
	add('U', "ÙÚÛÜùúûü")
	add('Y', "Ýýÿ")
	return m
}()
