package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRunDispatch(t *testing.T) {
	cases := []struct {
		args           []string
		code           int
		stdout, stderr string // substrings expected
	}{
		{nil, 2, "", "Usage: strata"},
		{[]string{"help"}, 0, "Usage: strata", ""},
		{[]string{"version"}, 0, "strata version", ""},
		{[]string{"bogus"}, 2, "", `unknown command "bogus"`},
		{[]string{"kv", "--no-such-flag"}, 2, "", "flag provided but not defined"},
		{[]string{"kv", "extra"}, 2, "", "unexpected arguments"},
		{[]string{"kv", "-h"}, 0, "", "-data-dir"},
	}
	for name := range notBuilt {
		cases = append(cases, struct {
			args           []string
			code           int
			stdout, stderr string
		}{[]string{name, "--whatever"}, 2, "", "strata " + name + ": not built yet"})
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		if code != c.code || !strings.Contains(out.String(), c.stdout) || !strings.Contains(errb.String(), c.stderr) {
			t.Errorf("strata %v: code %d stdout %q stderr %q; want code %d, stdout ~%q, stderr ~%q",
				c.args, code, out.String(), errb.String(), c.code, c.stdout, c.stderr)
		}
	}
}
