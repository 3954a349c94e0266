package build

import "testing"

func TestCheckTextLength(t *testing.T) {
	if err := checkTextLength(0, "/text", "héllo", 5); err != nil {
		t.Errorf("5 characters under a limit of 5: %v", err)
	}
	if err := checkTextLength(0, "/text", "héllo!", 5); err == nil {
		t.Error("6 characters over a limit of 5 accepted")
	}
	if err := checkTextLength(0, "/text", "anything", 0); err != nil {
		t.Errorf("no limit: %v", err)
	}
}

func TestArrowMayOmitXYOnlyWhenRouted(t *testing.T) {
	a, b := "a", "b"
	if err := checkArrowEnds(0, &input{Type: "arrow", StartElementID: &a, EndElementID: &b}); err != nil {
		t.Errorf("routed arrow without x/y: %v", err)
	}
	if err := checkArrowEnds(0, &input{Type: "arrow", StartElementID: &a, EndElementID: &b, Width: ptr(5.0)}); err == nil {
		t.Error("sized arrow without x/y accepted")
	}
	if err := checkArrowEnds(0, &input{Type: "arrow", X: ptr(1.0), StartElementID: &a, EndElementID: &b}); err == nil {
		t.Error("x without y accepted")
	}
}
