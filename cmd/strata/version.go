package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// version is set at link time: -ldflags "-X main.version=v0.1.0".
var version = "dev"

func runVersion(_ []string, stdout, _ io.Writer) int {
	rev := "unknown"
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" {
				rev = s.Value
			}
		}
	}
	fmt.Fprintf(stdout, "strata version %s (revision %s, %s %s/%s)\n",
		version, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return 0
}
