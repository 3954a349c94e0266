package profile

import (
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestCheckPointsAtTheFault(t *testing.T) {
	good := Profile{TypeScale: map[string]float64{"title": 36, "body": 16}, FontFamily: 5, Spacing: 24,
		Roles:   map[string]Role{"database": {Fill: "#b2f2bb", Stroke: "darkgreen", Meaning: "stores data"}, "x/y": {Fill: "transparent"}},
		Strokes: map[string]string{"dashed": "async call"}, NoWrap: []string{"PostgreSQL"}}
	if err := good.Check("/profile"); err != nil {
		t.Fatalf("a good profile is refused: %v", err)
	}
	many := make([]string, MaxNoWrap+1)
	for i := range many {
		many[i] = "w"
	}
	for _, c := range []struct {
		p       Profile
		pointer string
	}{
		{Profile{TypeScale: map[string]float64{"body": 7}}, "/profile/typeScale/body"},
		{Profile{TypeScale: map[string]float64{"body": 201}}, "/profile/typeScale/body"},
		{Profile{TypeScale: map[string]float64{"huge": 40}}, "/profile/typeScale/huge"},
		{Profile{FontFamily: 4}, "/profile/fontFamily"},
		{Profile{Spacing: 401}, "/profile/spacing"},
		{Profile{Spacing: -1}, "/profile/spacing"},
		{Profile{Roles: map[string]Role{"db": {Fill: "#12345"}}}, "/profile/roles/db/fill"},
		{Profile{Roles: map[string]Role{"a/b": {Stroke: "bleu"}}}, "/profile/roles/a~1b/stroke"},
		{Profile{Roles: map[string]Role{"db": {Meaning: "two\nlines"}}}, "/profile/roles/db/meaning"},
		{Profile{Strokes: map[string]string{"wavy": "x"}}, "/profile/strokes/wavy"},
		{Profile{NoWrap: many}, "/profile/noWrap"},
		{Profile{NoWrap: []string{"ok", ""}}, "/profile/noWrap/1"},
	} {
		err := c.p.Check("/profile")
		se, ok := err.(*sceneerr.Error)
		if !ok || se.Code != sceneerr.InvalidOperation || se.Details["pointer"] != c.pointer {
			t.Errorf("%+v: got %v, want invalid_operation at %s", c.p, err, c.pointer)
		}
	}
}

func TestNearestAndOnScale(t *testing.T) {
	p := Profile{TypeScale: map[string]float64{"title": 36, "heading": 28, "body": 16, "caption": 12}}
	for size, want := range map[float64]float64{15: 16, 14: 12, 30: 28, 100: 36, 16: 16} {
		if got := p.Nearest(size); got != want {
			t.Errorf("Nearest(%v) = %v, want %v", size, got, want)
		}
	}
	if !p.OnScale(28) || p.OnScale(20) {
		t.Error("OnScale disagrees with the scale")
	}
	if got := p.Sizes(); !slices.Equal(got, []float64{12, 16, 28, 36}) {
		t.Errorf("Sizes = %v", p.Sizes())
	}
	c := p.Clone()
	c.TypeScale["body"] = 99
	if p.TypeScale["body"] != 16 {
		t.Error("Clone shares its type scale")
	}
}
