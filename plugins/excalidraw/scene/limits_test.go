package scene

import "testing"

func TestDefaultLimits(t *testing.T) {
	l := DefaultLimits()
	want := Limits{MaxSceneBytes: 32 << 20, MaxElements: 10000, MaxFiles: 64, MaxFileBytes: 8 << 20, MaxTextLength: 100000, MaxDepth: 64, MaxDiagnostics: 1000}
	if l != want {
		t.Fatalf("DefaultLimits() = %+v, want %+v", l, want)
	}
	if (Limits{}).Effective() != want {
		t.Fatal("zero Limits must mean the defaults")
	}
}

func TestLimitsEffective(t *testing.T) {
	got := Limits{MaxSceneBytes: 10, MaxElements: -1, MaxFiles: 1000, MaxFileBytes: 1 << 40, MaxTextLength: 5}.Effective()
	if got.MaxSceneBytes != 10 || got.MaxTextLength != 5 {
		t.Errorf("explicit limits must be kept: %+v", got)
	}
	if got.MaxElements != DefaultMaxElements {
		t.Errorf("negative MaxElements must take the default, got %d", got.MaxElements)
	}
	if got.MaxFiles != DefaultMaxFiles || got.MaxFileBytes != DefaultMaxFileBytes {
		t.Errorf("attachment limits can only be lowered: %+v", got)
	}
	if low := (Limits{MaxFiles: 2, MaxFileBytes: 100}).Effective(); low.MaxFiles != 2 || low.MaxFileBytes != 100 {
		t.Errorf("lowered attachment limits must be kept: %+v", low)
	}
}

// TestForReading: stored scenes are read under the ceilings, whatever the
// configured limits (and a configured limit above a ceiling is kept).
func TestForReading(t *testing.T) {
	got := Limits{MaxSceneBytes: 2048, MaxElements: 10, MaxFiles: 1, MaxFileBytes: 100, MaxTextLength: 5}.ForReading()
	want := DefaultLimits()
	want.MaxSceneBytes, want.MaxElements, want.MaxTextLength = CeilingSceneBytes, CeilingElements, CeilingTextLength
	if got != want {
		t.Fatalf("ForReading = %+v, want %+v", got, want)
	}
	if big := (Limits{MaxElements: 2 * CeilingElements}).ForReading(); big.MaxElements != 2*CeilingElements {
		t.Fatalf("a limit above the ceiling must be kept: %+v", big)
	}
}
