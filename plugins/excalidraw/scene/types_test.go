package scene

import "testing"

func TestTypes(t *testing.T) {
	if len(CreatableTypes()) != 8 || len(SupportedTypes()) != 12 {
		t.Fatalf("creatable %v supported %v", CreatableTypes(), SupportedTypes())
	}
	for _, ty := range []string{"rectangle", "ellipse", "diamond", "arrow", "line", "text", "freedraw", "image"} {
		if !IsCreatable(ty) || !IsSupported(ty) {
			t.Errorf("%s must be creatable and supported", ty)
		}
	}
	for _, ty := range []string{"frame", "magicframe", "embeddable", "iframe"} {
		if IsCreatable(ty) || !IsSupported(ty) {
			t.Errorf("%s must be supported but not creatable", ty)
		}
	}
	for _, ty := range []string{"draw", "selection", "", "Rectangle", "table"} {
		if IsSupported(ty) {
			t.Errorf("%q must not be supported", ty)
		}
	}
	CreatableTypes()[0] = "x"
	if !IsCreatable("rectangle") {
		t.Fatal("CreatableTypes must return a copy")
	}
}

func TestTypeFamilies(t *testing.T) {
	if !HasPoints("freedraw") || HasPoints("rectangle") || !IsLinear("line") || IsLinear("freedraw") {
		t.Error("point families")
	}
	if !isTextContainer("arrow") || isTextContainer("line") || isTextContainer("text") {
		t.Error("text containers")
	}
	if !isFrame("magicframe") || isFrame("rectangle") {
		t.Error("frames")
	}
}
