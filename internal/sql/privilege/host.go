package privilege

import (
	"strings"
)

// MatchHost reports whether the client host matches the account's host
// pattern: '%' matches any run of characters, '_' any one character,
// case-insensitively (host names are not case-sensitive). The pattern
// 'localhost' also matches the loopback addresses, since a TCP client on
// this machine arrives as 127.0.0.1 or ::1.
func MatchHost(pattern, host string) bool {
	if strings.EqualFold(pattern, "localhost") && (host == "127.0.0.1" || host == "::1") {
		return true
	}
	return like(strings.ToLower(pattern), strings.ToLower(host))
}

// like matches s against a LIKE pattern of '%' and '_' (no escapes).
func like(p, s string) bool {
	// Iterative matching with backtracking to the last '%'.
	pi, si := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		switch {
		case pi < len(p) && (p[pi] == '_' || p[pi] == s[si]):
			pi++
			si++
		case pi < len(p) && p[pi] == '%':
			star, mark = pi, si
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			si = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '%' {
		pi++
	}
	return pi == len(p)
}

// hostRank orders host patterns as MySQL sorts the user table before
// matching: literal hosts first, then patterns by how much they fix
// before their first wildcard (longer prefix first), and '%' alone last.
// A lower rank is tried first.
func hostRank(pattern string) int {
	i := strings.IndexAny(pattern, "%_")
	if i < 0 {
		return 0
	}
	if pattern == "%" {
		return 1 << 20
	}
	return 1<<10 - i // more literal characters before the wildcard: tried earlier
}
