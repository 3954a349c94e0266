package loader

import (
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

func TestModuleLoggerNilIsNop(t *testing.T) {
	log := moduleLogger(nil)
	if log == nil {
		t.Fatal("moduleLogger(nil) returned nil")
	}
	log.Warn("must not panic")
}

func TestModuleLoggerIsNamed(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	moduleLogger(zap.New(core)).Info("hello")
	entries := logs.All()
	if len(entries) != 1 {
		t.Fatalf("got %d log entries, want 1", len(entries))
	}
	if got := entries[0].LoggerName; got != "loader" {
		t.Fatalf("logger name = %q, want %q", got, "loader")
	}
}
