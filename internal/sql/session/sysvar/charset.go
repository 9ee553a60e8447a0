package sysvar

import "strings"

// Charsets maps each character set Strata accepts to its default
// collation. Strata stores and compares strings as utf8mb4; the others are
// accepted so that clients that announce them connect.
var Charsets = map[string]string{
	"utf8mb4": "utf8mb4_bin",
	"utf8":    "utf8_bin",
	"utf8mb3": "utf8mb3_bin",
	"latin1":  "latin1_bin",
	"ascii":   "ascii_bin",
	"binary":  "binary",
	"gbk":     "gbk_bin",
}

// collations are the accepted collation names, mapped to their charset.
var collations = map[string]string{
	"utf8mb4_bin": "utf8mb4", "utf8mb4_general_ci": "utf8mb4", "utf8mb4_unicode_ci": "utf8mb4",
	"utf8mb4_0900_ai_ci": "utf8mb4", "utf8mb4_0900_bin": "utf8mb4",
	"utf8_bin": "utf8", "utf8_general_ci": "utf8", "utf8_unicode_ci": "utf8",
	"utf8mb3_bin": "utf8mb3", "utf8mb3_general_ci": "utf8mb3", "utf8mb3_unicode_ci": "utf8mb3",
	"latin1_bin": "latin1", "latin1_swedish_ci": "latin1",
	"ascii_bin": "ascii", "ascii_general_ci": "ascii",
	"binary": "binary", "gbk_bin": "gbk", "gbk_chinese_ci": "gbk",
}

// CollationCharset returns the charset of a collation name.
func CollationCharset(collation string) (string, bool) {
	cs, ok := collations[strings.ToLower(collation)]
	return cs, ok
}

func validateCharset(name string, allowEmpty bool) func(string) (string, []error, error) {
	return func(v string) (string, []error, error) {
		l := strings.ToLower(strings.TrimSpace(v))
		if l == "" && allowEmpty {
			return "", nil, nil
		}
		if _, ok := Charsets[l]; ok {
			return l, nil, nil
		}
		return "", nil, &Error{Kind: ErrWrongValueForVar, Name: name, Value: v, Detail: "unknown character set"}
	}
}

func validateCollation(name string) func(string) (string, []error, error) {
	return func(v string) (string, []error, error) {
		l := strings.ToLower(strings.TrimSpace(v))
		if _, ok := collations[l]; ok {
			return l, nil, nil
		}
		return "", nil, &Error{Kind: ErrWrongValueForVar, Name: name, Value: v, Detail: "unknown collation"}
	}
}
