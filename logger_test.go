package dsh

import "testing"

func TestNewLogger(t *testing.T) {
	for _, f := range []string{"auto", "console", "json", ""} {
		l, err := NewLogger(LogConfig{Level: "debug", Format: f})
		if err != nil || l == nil {
			t.Fatalf("format %q: %v", f, err)
		}
		if !l.Core().Enabled(-1) {
			t.Fatalf("format %q: debug not enabled", f)
		}
	}
	if _, err := NewLogger(LogConfig{Level: "loud"}); err == nil {
		t.Fatal("unknown level must be an error")
	}
}
