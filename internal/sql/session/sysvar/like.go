package sysvar

import "unicode/utf8"

// MatchLike reports whether s matches the SQL LIKE pattern (% any run, _
// one character, escape quoting the next character; escape 0 disables
// it), comparing ASCII letters case-insensitively as SHOW VARIABLES does.
func MatchLike(pattern, s string, escape rune) bool {
	// Iterative matcher with backtracking to the last %.
	p, i := 0, 0
	starP, starI := -1, 0
	for i < len(s) {
		if p < len(pattern) {
			pc, pw := utf8.DecodeRuneInString(pattern[p:])
			switch {
			case pc == '%':
				starP, starI = p+pw, i
				p += pw
				continue
			case pc == '_':
				_, sw := utf8.DecodeRuneInString(s[i:])
				p += pw
				i += sw
				continue
			default:
				lit, lw := pc, pw
				if escape != 0 && pc == escape && p+pw < len(pattern) {
					lit, lw = utf8.DecodeRuneInString(pattern[p+pw:])
					lw += pw
				}
				sc, sw := utf8.DecodeRuneInString(s[i:])
				if foldEq(lit, sc) {
					p += lw
					i += sw
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		_, sw := utf8.DecodeRuneInString(s[starI:])
		starI += sw
		p, i = starP, starI
	}
	for p < len(pattern) && pattern[p] == '%' {
		p++
	}
	return p == len(pattern)
}

func foldEq(a, b rune) bool {
	if a == b {
		return true
	}
	if 'A' <= a && a <= 'Z' {
		a += 'a' - 'A'
	}
	if 'A' <= b && b <= 'Z' {
		b += 'a' - 'A'
	}
	return a == b
}
