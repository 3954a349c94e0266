package build

import "testing"

func TestRoundnessFor(t *testing.T) {
	round, sharp := "round", "sharp"
	cases := []struct {
		typ   string
		asked *string
		want  int
	}{
		{"rectangle", nil, roundnessAdaptive},
		{"rectangle", &sharp, 0},
		{"ellipse", nil, roundnessProportional},
		{"diamond", &round, roundnessProportional},
		{"line", nil, roundnessProportional},
		{"arrow", &sharp, 0},
		{"image", nil, 0},
		{"image", &round, roundnessAdaptive},
		{"text", nil, 0},
		{"freedraw", nil, 0},
	}
	for _, c := range cases {
		if got := roundnessFor(c.typ, c.asked); got != c.want {
			t.Errorf("roundnessFor(%s, %v) = %d, want %d", c.typ, c.asked, got, c.want)
		}
	}
	if roundnessValue(0) != nil {
		t.Error("sharp roundness must be null")
	}
}

func TestResolveStyleDefaults(t *testing.T) {
	s := resolveStyle(&input{Type: "rectangle"}, nil)
	if s.strokeColor != "#1e1e1e" || s.backgroundColor != "transparent" || s.fillStyle != "solid" || s.strokeWidth != 2 ||
		s.strokeStyle != "solid" || s.roughness != 1 || s.opacity != 100 || s.locked || s.frameID != nil || s.link != nil {
		t.Fatalf("defaults %+v", s)
	}
	if s := resolveStyle(&input{Type: "image"}, nil); s.strokeColor != "transparent" {
		t.Fatalf("image stroke %q", s.strokeColor)
	}
}
