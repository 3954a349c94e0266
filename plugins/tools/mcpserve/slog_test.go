package mcpserve

import (
	"errors"
	"log/slog"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

func TestSlogBridgeLevelsAndFields(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	l := newSlogLogger(zap.New(core)).With("session", "s1").WithGroup("req")
	l.Info("connected", "id", 7, slog.Group("peer", "addr", "127.0.0.1"))
	l.Warn("slow")
	l.Error("failed", "error", errors.New("bad"))

	all := logs.All()
	if len(all) != 3 {
		t.Fatalf("got %d entries", len(all))
	}
	if all[0].Level != zapcore.DebugLevel || all[1].Level != zapcore.WarnLevel || all[2].Level != zapcore.ErrorLevel {
		t.Fatalf("levels = %v %v %v", all[0].Level, all[1].Level, all[2].Level)
	}
	ctx := all[0].ContextMap()
	if ctx["session"] != "s1" || ctx["req.id"] != int64(7) || ctx["req.peer.addr"] != "127.0.0.1" {
		t.Fatalf("fields = %v", ctx)
	}
	if all[2].ContextMap()["req.error"] != "bad" {
		t.Fatalf("error field = %v", all[2].ContextMap())
	}
}

func TestSlogBridgeRespectsLevel(t *testing.T) {
	core, logs := observer.New(zap.WarnLevel)
	l := newSlogLogger(zap.New(core))
	l.Info("chatty")
	if logs.Len() != 0 {
		t.Fatal("info leaked through a warn-level logger")
	}
	if l.Enabled(t.Context(), slog.LevelInfo) || !l.Enabled(t.Context(), slog.LevelError) {
		t.Fatal("Enabled does not follow the zap core")
	}
	if h := l.Handler().WithGroup(""); h != l.Handler() {
		t.Fatal("empty group must be a no-op")
	}
}
