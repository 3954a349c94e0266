package scene

import (
	"strconv"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestRefsOfTombstonesAreNotChecked(t *testing.T) {
	a := arrow("a", "gone", "gone2").Set("isDeleted", true)
	tx := textEl("t", "gone").Set("isDeleted", true).Set("frameId", "gone")
	only(t, Validate(docOf(a, tx), Limits{}))
}

func TestRefsLegacyBoundElementIds(t *testing.T) {
	r := rect("r").Set("boundElementIds", []any{"a", "gone"})
	r.Delete("boundElements")
	a := arrow("a", "r", "")
	rep := Validate(docOf(r, a), Limits{})
	only(t, rep, CodeDanglingBinding) // "gone"; "a" counts as listing the arrow
	if d := rep.Diagnostics[0]; d.Severity != SeverityWarning || d.Pointer != "/elements/0/boundElementIds/1" {
		t.Errorf("%s", d)
	}
}

func TestRefsDeletedTargets(t *testing.T) {
	box := rect("box").Set("isDeleted", true)
	label := textEl("t", "box")
	bind(box, "t", "text")
	rep := Validate(docOf(box, label), Limits{})
	only(t, rep, CodeDanglingBinding)
	if rep.Diagnostics[0].Severity != SeverityWarning {
		t.Errorf("a text in a deleted container is a warning: %s", rep.Diagnostics[0])
	}
}

func TestRefsArrowLabelAndTextTarget(t *testing.T) {
	// Arrows hold labels; arrows may bind to free text.
	free := textEl("free", "")
	a := arrow("a", "free", "")
	label := textEl("lbl", "a")
	bind(free, "a", "arrow")
	bind(a, "lbl", "text")
	only(t, Validate(docOf(free, a, label), Limits{}))
}

func TestRefsBoundEntryKinds(t *testing.T) {
	r := rect("r")
	other := rect("o")
	tx := textEl("t", "o")
	bind(other, "t", "text")
	bind(r, "t", "text")  // the text is bound to o, not r
	bind(r, "o", "arrow") // o is not an arrow
	rep := Validate(docOf(r, other, tx), Limits{})
	only(t, rep, CodeOneSidedBinding, CodeOneSidedBinding)
}

func TestRefsDuplicateIDsResolveToFirst(t *testing.T) {
	first := rect("r")
	second := baseElement("r", "ellipse", 0, 0, 1, 1)
	a := arrow("a", "r", "")
	bind(first, "a", "arrow")
	rep := Validate(docOf(first, second, a), Limits{})
	only(t, rep, CodeDuplicateID)
}

// TestRefsManyArrowsOnOneShape: a shape with a long boundElements list and
// as many arrows must not cost quadratic time (a validate request is a
// cheap way to make a server work).
func TestRefsManyArrowsOnOneShape(t *testing.T) {
	const n = 3000
	hub := rect("hub")
	els := []*ojson.Object{hub}
	for i := range n {
		id := "a" + strconv.Itoa(i)
		els = append(els, arrow(id, "hub", ""))
		if i%2 == 0 {
			bind(hub, id, "arrow")
		}
	}
	rep := Validate(docOf(els...), Limits{MaxDiagnostics: n})
	if got := rep.Count(CodeOneSidedBinding); got != n/2 {
		t.Fatalf("%d one-sided bindings, want %d", got, n/2)
	}
}
