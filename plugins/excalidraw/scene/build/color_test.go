package build

import (
	"strings"
	"testing"

	"golang.org/x/image/colornames"
)

func TestValidColor(t *testing.T) {
	for _, s := range []string{
		"#fff", "#FFF", "#ffff", "#1e1e1e", "#1E1e1E", "#1e1e1e80", "transparent", "Transparent",
		"red", "RED", "rebeccapurple", "LightGoldenrodYellow", "grey",
	} {
		if !ValidColor(s) {
			t.Errorf("ValidColor(%q) = false, want true", s)
		}
	}
	for _, s := range []string{
		"", "#", "#12345", "#1234567", "#12", "#ggg", "#12345g", "fff", "1e1e1e", "bleu",
		" red", "red ", "#fff ", "rgb(0,0,0)", "none", "currentColor", "#1e1e1e8000",
	} {
		if ValidColor(s) {
			t.Errorf("ValidColor(%q) = true, want false", s)
		}
	}
}

// TestValidColorNames checks the list against an independent one: the SVG
// 1.1 names (CSS Color 4's, but for rebeccapurple) plus transparent.
func TestValidColorNames(t *testing.T) {
	for name := range colornames.Map {
		if !ValidColor(name) || !ValidColor(strings.ToUpper(name)) {
			t.Errorf("%q refused", name)
		}
	}
	if want := len(colornames.Map) + 2; len(cssColorNames) != want {
		t.Errorf("%d names, want %d", len(cssColorNames), want)
	}
}
