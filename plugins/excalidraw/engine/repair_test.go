package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/lint"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// nearMisses is a scene an agent might have left: an arrow whose start
// stops 10 px short of a box, a box too small for its label, an elbow
// arrow ending beside a box and a fixed-width text narrower than its
// lines.
const nearMisses = `{"type":"excalidraw","version":2,"elements":[
 {"type":"rectangle","id":"r","x":0,"y":0,"width":100,"height":100},
 {"type":"arrow","id":"n","x":110,"y":50,"width":190,"height":0,"points":[[0,0],[190,0]]},
 {"type":"rectangle","id":"small","x":0,"y":400,"width":40,"height":30,"boundElements":[{"type":"text","id":"sl"}]},
 {"type":"text","id":"sl","x":2,"y":402,"width":36,"height":25,"text":"A label too long","originalText":"A label too long",
  "fontSize":20,"fontFamily":5,"lineHeight":1.25,"textAlign":"center","verticalAlign":"middle","containerId":"small"},
 {"type":"rectangle","id":"eb","x":600,"y":0,"width":100,"height":100},
 {"type":"arrow","id":"el","x":500,"y":300,"width":95,"height":250,"elbowed":true,"points":[[0,0],[0,-250],[95,-250]]},
 {"type":"text","id":"ft","x":0,"y":800,"width":30,"height":25,"text":"Several words","originalText":"Several words",
  "fontSize":20,"fontFamily":5,"lineHeight":1.25,"autoResize":false}
]}`

func TestRepairFixesWhatIsSafe(t *testing.T) {
	s := newStored(t)
	before := s.save([]byte(nearMisses))
	var rep RepairReport
	s.mustEdit(func(tx *Txn) (err error) { rep, err = tx.Repair(); return err })
	doc := s.doc()
	var fixed, skipped []string
	for _, f := range rep.Fixed {
		fixed = append(fixed, f.Code+":"+strings.Join(f.IDs, ","))
	}
	for _, f := range rep.Skipped {
		skipped = append(skipped, f.Code+":"+strings.Join(f.IDs, ","))
		if f.Reason == "" {
			t.Errorf("skipped %v without a reason", f)
		}
	}
	if want := []string{"text_overflow:sl,small", "unbound_arrow_end:n,r"}; !slices.Equal(fixed, want) {
		t.Errorf("fixed %v, want %v", fixed, want)
	}
	if want := []string{"text_overflow:ft", "unbound_arrow_end:eb,el"}; !slices.Equal(skipped, want) {
		t.Errorf("skipped %v, want %v", skipped, want)
	}
	n, r := element(t, doc, "n"), element(t, doc, "r")
	if bindingTarget(n, "startBinding") != "r" || !hasBound(r, "n") {
		t.Fatalf("n not bound to r: %v", n)
	}
	checkOnOutline(t, "n's start", globalPoints(n)[0], r)
	if end := globalPoints(n)[1]; end != (point{300, 50}) {
		t.Errorf("n's end moved to %v", end)
	}
	small := element(t, doc, "small")
	if scene.NumberOf(small, "width") < 40 || scene.NumberOf(small, "height") <= 30 {
		t.Errorf("small is %v × %v", scene.NumberOf(small, "width"), scene.NumberOf(small, "height"))
	}
	bumpedOnce(t, before, doc, "n", "r", "small", "sl")
	for _, f := range lint.Run(doc.Elements(), lint.Options{}) {
		if f.Code == lint.CodeTextOverflow && slices.Contains(f.IDs, "small") || f.Code == lint.CodeUnboundArrowEnd && slices.Contains(f.IDs, "n") {
			t.Errorf("still found: %v", f)
		}
	}
}

// Repair normalizes first and reports it; an element Normalize stepped
// (re-indexed) and a fix then changes is stepped once.
func TestRepairNormalizesFirst(t *testing.T) {
	s := newStored(t)
	s.save([]byte(nearMisses))
	doc, err := scene.Parse(s.data, limits)
	if err != nil {
		t.Fatal(err)
	}
	n := element(t, doc, "n")
	v := scene.NumberOf(n, "version")
	n.Delete("index")
	n.Set("startBinding", ojson.New().Set("elementId", "gone").Set("focus", 0).Set("gap", 5))
	rep, err := s.begin(doc).Repair()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Normalize.Fixes[scene.FixIndex] != 1 || len(rep.Normalize.Repairs) == 0 || rep.Normalize.Repairs[0].Code != scene.RepairBindingDropped {
		t.Errorf("normalize report %+v", rep.Normalize)
	}
	if bindingTarget(n, "startBinding") != "r" || scene.NumberOf(n, "version") != v+1 {
		t.Errorf("n bound to %q at version %v (was %v)", bindingTarget(n, "startBinding"), scene.NumberOf(n, "version"), v)
	}
	checkIndices(t, doc)
}

// A fix that does not resolve its finding is undone, version steps
// included.
func TestRepairUndoesFailedFix(t *testing.T) {
	s := newStored(t)
	doc := s.save([]byte(nearMisses))
	tx := s.begin(doc)
	tx.index()
	var f lint.Finding
	for _, g := range lint.Run(doc.Elements(), lint.Options{}) {
		if g.Code == lint.CodeUnboundArrowEnd && slices.Contains(g.IDs, "n") {
			f = g
		}
	}
	n := element(t, doc, "n")
	was := n.Clone()
	why := tx.tryFix(f, []*ojson.Object{n}, func() error {
		n.Set("x", 120.0)
		tx.bump(n)
		return nil
	})
	if why == "" {
		t.Fatal("a fix that resolves nothing was kept")
	}
	if !ojson.Equal(n, was, false) || tx.bumped[n] {
		t.Errorf("n not put back: %v", changedKeys(was, n))
	}
}
