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
	for st := StatePending; st <= StateDisposed; st++ {
		b, _ := st.MarshalText()
		var back State
		if err := back.UnmarshalText(b); err != nil || back != st {
			t.Errorf("%s does not round-trip: %v", st, err)
		}
	}
	var s State
	if err := s.UnmarshalText([]byte("sleeping")); err == nil {
		t.Error("unknown name accepted")
	}
}
