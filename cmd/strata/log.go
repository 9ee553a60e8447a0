package main

import (
	"fmt"
	"log/slog"
	"os"
)

// pebbleLogger sends the storage engine's log lines through slog, so a
// process has one log format.
type pebbleLogger struct{ log *slog.Logger }

func (l pebbleLogger) Infof(format string, args ...any) {
	l.log.Info(fmt.Sprintf(format, args...), "component", "pebble")
}

func (l pebbleLogger) Errorf(format string, args ...any) {
	l.log.Error(fmt.Sprintf(format, args...), "component", "pebble")
}

func (l pebbleLogger) Fatalf(format string, args ...any) {
	l.log.Error(fmt.Sprintf(format, args...), "component", "pebble", "fatal", true)
	os.Exit(1)
}
