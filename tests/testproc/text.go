package testproc

import (
	"regexp"
	"strconv"
	"strings"
)

// MatchInt is re's first group in s as a number, or -1 when re does not
// match (e.g. a count in a tool's report).
func MatchInt(re *regexp.Regexp, s string) int {
	m := re.FindStringSubmatch(s)
	if m == nil {
		return -1
	}
	v, err := strconv.Atoi(m[1])
	if err != nil {
		return -1
	}
	return v
}

// LastLines is the last n lines of s.
func LastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
