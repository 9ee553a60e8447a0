package server

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// etcdLogger is a zap logger (etcd's) that writes through slog, so a PD
// process has one log format. Below min nothing is logged, and the
// errors etcd logs on every clean stop (its listeners closing) are demoted
// to debug.
func etcdLogger(log *slog.Logger, min zapcore.Level) *zap.Logger {
	return zap.New(&slogCore{log: log.With("component", "etcd"), min: min})
}

type slogCore struct {
	log    *slog.Logger
	min    zapcore.Level
	fields []zapcore.Field
}

func (c *slogCore) Enabled(l zapcore.Level) bool { return l >= c.min }

func (c *slogCore) With(fs []zapcore.Field) zapcore.Core {
	return &slogCore{log: c.log, min: c.min, fields: append(append([]zapcore.Field(nil), c.fields...), fs...)}
}

func (c *slogCore) Check(e zapcore.Entry, ce *zapcore.CheckedEntry) *zapcore.CheckedEntry {
	if c.Enabled(e.Level) {
		return ce.AddCore(e, c)
	}
	return ce
}

func (c *slogCore) Write(e zapcore.Entry, fs []zapcore.Field) error {
	enc := zapcore.NewMapObjectEncoder()
	for _, f := range c.fields {
		f.AddTo(enc)
	}
	for _, f := range fs {
		f.AddTo(enc)
	}
	level := slogLevel(e.Level)
	if stopNoise(e.Message, enc.Fields) {
		level = slog.LevelDebug
	}
	if !c.log.Enabled(context.Background(), level) {
		return nil
	}
	attrs := make([]slog.Attr, 0, len(enc.Fields))
	for k, v := range enc.Fields {
		if k == "stacktrace" {
			continue
		}
		attrs = append(attrs, slog.Any(k, v))
	}
	c.log.LogAttrs(context.Background(), level, e.Message, attrs...)
	return nil
}

func (c *slogCore) Sync() error { return nil }

func slogLevel(l zapcore.Level) slog.Level {
	switch {
	case l >= zapcore.ErrorLevel:
		return slog.LevelError
	case l >= zapcore.WarnLevel:
		return slog.LevelWarn
	case l >= zapcore.InfoLevel:
		return slog.LevelInfo
	}
	return slog.LevelDebug
}

// stopNoise recognizes what etcd logs when it closes its own listeners,
// its warning about serving gRPC and HTTP on one port (which PD does on
// purpose), and its complaint that a new member's storage has no schema
// version yet (it has not applied an entry yet; it goes away by itself).
func stopNoise(msg string, fields map[string]any) bool {
	if strings.Contains(msg, "single port") || strings.Contains(msg, "not cryptographically signed") {
		return true
	}
	err := fmt.Sprint(fields["error"])
	if strings.Contains(err, "missing term information") {
		return true
	}
	return strings.Contains(err, "closed") &&
		(strings.Contains(msg, "serving from embedded etcd failed") || strings.Contains(msg, "grpc server due to error"))
}
