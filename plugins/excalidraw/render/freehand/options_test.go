package freehand

import "testing"

func TestDefaultOptions(t *testing.T) {
	o := DefaultOptions()
	if o.Size != 16 || o.Thinning != 0.5 || o.Smoothing != 0.5 || o.Streamline != 0.5 || !o.SimulatePressure || o.Last || o.Easing != nil {
		t.Errorf("DefaultOptions() = %+v", o)
	}
}

func TestTaperEasings(t *testing.T) {
	for _, c := range []struct {
		name    string
		f       func(float64) float64
		x, want float64
	}{
		{"quad 0", easeOutQuad, 0, 0}, {"quad ½", easeOutQuad, 0.5, 0.75}, {"quad 1", easeOutQuad, 1, 1},
		{"cubic 0", easeOutCubic, 0, 0}, {"cubic ½", easeOutCubic, 0.5, 0.875}, {"cubic 1", easeOutCubic, 1, 1},
	} {
		if got := c.f(c.x); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestTaperLength(t *testing.T) {
	if l := (Tip{Taper: 7}).taperLength(16, 100); l != 7 {
		t.Errorf("taper 7: %v", l)
	}
	if l := (Tip{Taper: 7, TaperAll: true}).taperLength(16, 100); l != 100 {
		t.Errorf("whole stroke: %v", l)
	}
	if l := (Tip{TaperAll: true}).taperLength(16, 3); l != 16 {
		t.Errorf("whole short stroke: %v", l)
	}
	if truthy(0) || truthy(0/zero()) || !truthy(-1) {
		t.Error("truthy")
	}
}

func zero() float64 { return 0 }
