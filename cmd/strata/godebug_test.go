package main

import "testing"

func TestWithDefaultGODEBUG(t *testing.T) {
	for _, c := range []struct {
		cur, want string
		added     bool
	}{
		{cur: "", want: "schedtrace=2147483647,madvdontneed=0", added: true},
		{cur: "gctrace=1", want: "gctrace=1,schedtrace=2147483647,madvdontneed=0", added: true},
		{cur: "madvdontneed=1", want: "madvdontneed=1,schedtrace=2147483647", added: true},
		{cur: "schedtrace=0", want: "schedtrace=0,madvdontneed=0", added: true},
		{cur: "madvdontneed=1, schedtrace=0", want: "madvdontneed=1, schedtrace=0", added: false},
	} {
		got, added := withDefaultGODEBUG(c.cur)
		if got != c.want || added != c.added {
			t.Errorf("withDefaultGODEBUG(%q) = %q, %v; want %q, %v", c.cur, got, added, c.want, c.added)
		}
	}
}
