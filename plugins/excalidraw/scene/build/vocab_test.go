package build

import (
	"slices"
	"testing"
)

func TestVocabularies(t *testing.T) {
	if len(elementTypes) != 8 {
		t.Fatalf("%d creatable types", len(elementTypes))
	}
	for _, typ := range elementTypes {
		if knownButNotCreatable[typ] {
			t.Errorf("%s is both creatable and not", typ)
		}
	}
	if slices.Contains(arrowheads, "dot") {
		t.Error("the legacy dot arrowhead must not be offered")
	}
	for typ := range newBindable {
		if !bindableTypes[typ] {
			t.Errorf("%s bindable when new but not in Excalidraw's list", typ)
		}
	}
}
