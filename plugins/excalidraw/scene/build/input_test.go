package build

import (
	"encoding/json"
	"testing"
)

func TestArrowhead(t *testing.T) {
	if arrowhead(nil, "arrow") != "arrow" {
		t.Error("absent should give the default")
	}
	if arrowhead(json.RawMessage(`null`), "arrow") != nil {
		t.Error("null should give no arrowhead")
	}
	if arrowhead(json.RawMessage(`"triangle"`), nil) != "triangle" {
		t.Error("a name should be kept")
	}
}

func TestOrHelpers(t *testing.T) {
	s, f, b := "x", 2.5, true
	if orString(nil, "d") != "d" || orString(&s, "d") != "x" || orFloat(nil, 1) != 1 || orFloat(&f, 1) != 2.5 ||
		orBool(nil, false) || !orBool(&b, false) {
		t.Fatal("or helpers")
	}
}
