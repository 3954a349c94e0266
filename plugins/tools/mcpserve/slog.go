package mcpserve

import (
	"context"
	"log/slog"
	"strings"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// zapSlogHandler lets the MCP SDK, which logs through log/slog, write into
// the host's zap logger so its diagnostics are not silently discarded.
//
// The SDK logs every session connect/disconnect at Info; those are routine
// for a server, so Info and below map to zap Debug while Warn and Error
// keep their level.
type zapSlogHandler struct {
	log    *zap.Logger
	fields []zap.Field
	groups []string
}

var _ slog.Handler = (*zapSlogHandler)(nil)

// newSlogLogger returns a *slog.Logger that writes to log.
func newSlogLogger(log *zap.Logger) *slog.Logger {
	return slog.New(&zapSlogHandler{log: log})
}

func zapLevel(l slog.Level) zapcore.Level {
	switch {
	case l >= slog.LevelError:
		return zapcore.ErrorLevel
	case l >= slog.LevelWarn:
		return zapcore.WarnLevel
	default:
		return zapcore.DebugLevel
	}
}

func (h *zapSlogHandler) Enabled(_ context.Context, l slog.Level) bool {
	return h.log.Core().Enabled(zapLevel(l))
}

func (h *zapSlogHandler) Handle(_ context.Context, rec slog.Record) error {
	ce := h.log.Check(zapLevel(rec.Level), rec.Message)
	if ce == nil {
		return nil
	}
	fields := append([]zap.Field(nil), h.fields...)
	rec.Attrs(func(a slog.Attr) bool {
		fields = appendAttr(fields, h.groups, a)
		return true
	})
	ce.Write(fields...)
	return nil
}

func (h *zapSlogHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.fields = append([]zap.Field(nil), h.fields...)
	for _, a := range attrs {
		c.fields = appendAttr(c.fields, h.groups, a)
	}
	return &c
}

func (h *zapSlogHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.groups = append(append([]string(nil), h.groups...), name)
	return &c
}

// appendAttr flattens a (possibly grouped) attribute into dotted zap
// fields, e.g. group "req" and key "id" become "req.id".
func appendAttr(fields []zap.Field, groups []string, a slog.Attr) []zap.Field {
	a.Value = a.Value.Resolve()
	if a.Equal(slog.Attr{}) {
		return fields
	}
	if a.Value.Kind() == slog.KindGroup {
		inner := groups
		if a.Key != "" {
			inner = append(append([]string(nil), groups...), a.Key)
		}
		for _, ga := range a.Value.Group() {
			fields = appendAttr(fields, inner, ga)
		}
		return fields
	}
	key := a.Key
	if len(groups) > 0 {
		key = strings.Join(groups, ".") + "." + key
	}
	if err, ok := a.Value.Any().(error); ok {
		return append(fields, zap.NamedError(key, err))
	}
	return append(fields, zap.Any(key, a.Value.Any()))
}
