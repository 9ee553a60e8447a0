package sysvar

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// likeRegexp is a slow reference for MatchLike.
func likeRegexp(pattern string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("(?is)^")
	for i := 0; i < len(pattern); {
		r, w := utf8.DecodeRuneInString(pattern[i:])
		switch {
		case r == '\\' && i+w < len(pattern):
			r2, w2 := utf8.DecodeRuneInString(pattern[i+w:])
			b.WriteString(regexp.QuoteMeta(string(r2)))
			i += w + w2
			continue
		case r == '%':
			b.WriteString(".*")
		case r == '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
		i += w
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

func FuzzMatchLike(f *testing.F) {
	for _, s := range [][2]string{{"a%b_c", "axxbyc"}, {`%\%%`, "50%"}, {"_%_", "ab"}, {"%a%a%", "banana"}, {`x\`, `x\`}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		if !utf8.ValidString(pattern) || !utf8.ValidString(s) || strings.ContainsAny(pattern+s, "\x00") {
			return
		}
		// The reference folds all cases; MatchLike folds ASCII only.
		if strings.ToLower(pattern) != strings.ToUpper(pattern) && !isASCII(pattern+s) {
			return
		}
		want := likeRegexp(pattern).MatchString(s)
		if got := MatchLike(pattern, s, '\\'); got != want {
			t.Fatalf("MatchLike(%q, %q) = %v, regexp says %v", pattern, s, got, want)
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// FuzzNormalizeIdempotent: a normalized value is a fixed point of
// Normalize, for every variable; so what SELECT @@x shows can be SET back.
func FuzzNormalizeIdempotent(f *testing.F) {
	for _, s := range []string{"", "0", "1", "on", "Off", "-1", "18446744073709551616", "ansi,traditional", "+5:30",
		"Europe/Paris", "SYSTEM", "utf8MB4", "READ-COMMITTED", "2", "1.5", "abc", "INT_ONLY", "aes-256-cbc", "2026-01-02"} {
		f.Add(s)
	}
	reg := testRegistry()
	f.Fuzz(func(t *testing.T, in string) {
		for _, sv := range reg.All() {
			if sv.Alias != "" {
				continue
			}
			n1, _, err := sv.Normalize(in)
			if err != nil {
				continue
			}
			n2, _, err := sv.Normalize(n1)
			if err != nil || n2 != n1 {
				t.Fatalf("%s: %q -> %q -> %q, %v", sv.Name, in, n1, n2, err)
			}
		}
	})
}
