package app

import "testing"

func TestStateString(t *testing.T) {
	want := map[State]string{
		StatePending: "pending", StateLoading: "loading", StateActive: "active",
		StateFailed: "failed", StateUnloading: "unloading", StateDisposed: "disposed",
		State(42): "State(42)",
	}
	for s, name := range want {
		if got := s.String(); got != name {
			t.Errorf("%d.String() = %q, want %q", int32(s), got, name)
		}
	}
	b, _ := StateActive.MarshalText()
	if string(b) != "active" {
		t.Errorf("MarshalText = %q", b)
	}
}
