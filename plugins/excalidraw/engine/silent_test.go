package engine

import (
	"math"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/lint"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// TestLabelPatchGivesALabel: a label patch gives an arrow and a shape
// without one a bound label the editor would have made (checkEdited:
// nothing to repair, one version step each), just above its container,
// and relabels one that has it in place.
func TestLabelPatchGivesALabel(t *testing.T) {
	s := newStored(t)
	s.create(threeShapes...)
	s.mustEdit(func(tx *Txn) error {
		return tx.Update([]Update{
			{ID: "ab", Patch: []byte(`{"label":{"text":"calls"}}`)},
			{ID: "c", Patch: []byte(`{"label":{"text":"Cache","strokeColor":"#e03131","fontSize":16}}`)},
		}, "/updates")
	})
	doc := s.doc()
	for _, id := range []string{"ab", "c"} {
		lid := labelID(t, doc, id)
		l := element(t, doc, lid)
		if !hasBound(element(t, doc, id), lid) || scene.StringOf(l, "containerId") != id {
			t.Fatalf("%s: label %v not bound", id, l)
		}
		i, _ := doc.Find(id)
		if j, _ := doc.Find(lid); j != i+1 {
			t.Errorf("%s: label at %d, container at %d: not just above it", id, j, i)
		}
	}
	c := element(t, doc, labelID(t, doc, "c"))
	if scene.StringOf(c, "strokeColor") != "#e03131" || scene.NumberOf(c, "fontSize") != 16 || scene.StringOf(c, "textAlign") != "center" {
		t.Errorf("the diamond's label %v", c)
	}
	la := labelID(t, doc, "a")
	s.mustEdit(func(tx *Txn) error {
		return tx.Update([]Update{{ID: "a", Patch: []byte(`{"label":{"text":"Gateway","strokeColor":"blue"}}`)}}, "/updates")
	})
	if l := element(t, s.doc(), la); scene.StringOf(l, "text") != "Gateway" || scene.StringOf(l, "strokeColor") != "blue" {
		t.Errorf("relabelled in place: %v", l)
	}
	for patch, ptr := range map[string]string{
		`{"label":"x"}`:                       "/updates/0/patch/label",
		`{"label":{"fontSize":30}}`:           "/updates/0/patch/label/text",
		`{"label":{"text":"x","angle":1}}`:    "/updates/0/patch/label/angle",
		`{"label":{"text":"x","fontSize":0}}`: "/updates/0/patch/label/fontSize",
	} {
		_, err := s.edit(func(tx *Txn) error { return tx.Update([]Update{{ID: "b", Patch: []byte(patch)}}, "/updates") })
		wantErrAt(t, err, sceneerr.InvalidOperation, ptr)
	}
	_, err := s.edit(func(tx *Txn) error {
		return tx.Update([]Update{{ID: la, Patch: []byte(`{"label":{"text":"x"}}`)}}, "/updates")
	})
	wantErrAt(t, err, sceneerr.InvalidOperation, "/updates/0/patch/label")
}

// TestUpdateCarriesFrameChildren: an update that moves a frame moves its
// children as Move does (labels, the arrow between them), leaves a child
// the call places itself to its patch, and a Move of the frame (which
// moves the children itself) does not move them twice.
func TestUpdateCarriesFrameChildren(t *testing.T) {
	s := newStored(t)
	s.create(threeShapes...)
	var f string
	s.mustEdit(func(tx *Txn) (err error) {
		f, err = tx.CreateFrame("F", nil, []string{"a", "b", "c"}, 0, "/args")
		return err
	})
	before := s.doc()
	at := func(doc *scene.Document, id string) (float64, float64) {
		el := element(t, doc, id)
		return scene.NumberOf(el, "x"), scene.NumberOf(el, "y")
	}
	fx, fy := at(before, f)
	s.mustEdit(func(tx *Txn) error {
		return tx.Update([]Update{
			{ID: "c", Patch: []byte(`{"x":900}`)},
			{ID: f, Patch: []byte(`{"x":` + fmtNum(fx+100) + `,"y":` + fmtNum(fy+50) + `}`)},
		}, "/updates")
	})
	after := s.doc()
	for _, id := range []string{"a", labelID(t, after, "a"), "b", "ab"} {
		x0, y0 := at(before, id)
		if x, y := at(after, id); math.Abs(x-x0-100) > 1e-9 || math.Abs(y-y0-50) > 1e-9 {
			t.Errorf("%s moved by %v, %v; want 100, 50", id, x-x0, y-y0)
		}
	}
	if x, y := at(after, "c"); x != 900 || y != 300 {
		t.Errorf("c at %v, %v; want its own 900, 300", x, y)
	}
	s.mustEdit(func(tx *Txn) error { _, err := tx.Move([]string{f}, 10, 0, "/ids"); return err })
	if x0, _ := at(after, "b"); func() float64 { x, _ := at(s.doc(), "b"); return x - x0 }() != 10 {
		t.Errorf("Move of the frame moved b other than by 10")
	}
}

// TestColoursChecked: a colour the editor would not draw is refused at
// its field in an add, a patch (a label's too) and the app state, and
// the ones it draws pass.
func TestColoursChecked(t *testing.T) {
	s := newStored(t)
	s.create(threeShapes...)
	for _, c := range []struct {
		edit func(tx *Txn) error
		ptr  string
	}{
		{func(tx *Txn) error {
			_, err := tx.Add(raws(`{"type":"rectangle","x":0,"y":0,"label":{"text":"x","strokeColor":"#12345"}}`), "/elements")
			return err
		}, "/elements/0/label/strokeColor"},
		{func(tx *Txn) error {
			return tx.Update([]Update{{ID: "a", Patch: []byte(`{"backgroundColor":"bleu"}`)}}, "/updates")
		}, "/updates/0/patch/backgroundColor"},
		{func(tx *Txn) error {
			return tx.Update([]Update{{ID: "a", Patch: []byte(`{"strokeColor":7}`)}}, "/updates")
		}, "/updates/0/patch/strokeColor"},
		{func(tx *Txn) error { return tx.MergeAppState([]byte(`{"viewBackgroundColor":"#12"}`), "/app_state") }, "/app_state/viewBackgroundColor"},
	} {
		_, err := s.edit(c.edit)
		wantErrAt(t, err, sceneerr.InvalidOperation, c.ptr)
	}
	s.mustEdit(func(tx *Txn) error {
		if err := tx.MergeAppState([]byte(`{"viewBackgroundColor":"Transparent"}`), "/app_state"); err != nil {
			return err
		}
		return tx.Update([]Update{{ID: "a", Patch: []byte(`{"backgroundColor":"#a5d8ff80","strokeColor":"DarkSlateGray"}`)}}, "/updates")
	})
}

// TestRepairMendsWordsBrokenMidWord: a person's label that the editor
// broke mid-word (a box too narrow for "PostgreSQL") is mended by
// Repair: the box widens and the label is fitted again, words whole.
func TestRepairMendsWordsBrokenMidWord(t *testing.T) {
	s := newStored(t)
	s.save([]byte(`{"type":"excalidraw","version":2,"source":"test","elements":[
		{"id":"r","type":"rectangle","x":0,"y":0,"width":60,"height":80,"angle":0,"strokeColor":"#1e1e1e","backgroundColor":"transparent","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"groupIds":[],"frameId":null,"index":"a0","roundness":null,"seed":1,"version":1,"versionNonce":1,"isDeleted":false,"boundElements":[{"type":"text","id":"t"}],"updated":1,"link":null,"locked":false},
		{"id":"t","type":"text","x":5,"y":15,"width":50,"height":50,"angle":0,"strokeColor":"#1e1e1e","backgroundColor":"transparent","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"groupIds":[],"frameId":null,"index":"a1","roundness":null,"seed":2,"version":1,"versionNonce":2,"isDeleted":false,"boundElements":null,"updated":1,"link":null,"locked":false,"text":"Postg\nreSQL","fontSize":20,"fontFamily":5,"textAlign":"center","verticalAlign":"middle","containerId":"r","originalText":"PostgreSQL","autoResize":true,"lineHeight":1.25}],
		"appState":{"viewBackgroundColor":"#ffffff"},"files":{}}`))
	var rep RepairReport
	s.mustEdit(func(tx *Txn) (err error) { rep, err = tx.Repair(); return err })
	if !slices.ContainsFunc(rep.Fixed, func(f RepairFix) bool { return f.Code == lint.CodeLabelBrokenMidWord }) {
		t.Fatalf("repair: %+v", rep)
	}
	doc := s.doc()
	if l := element(t, doc, "t"); scene.StringOf(l, "text") != "PostgreSQL" || scene.NumberOf(element(t, doc, "r"), "width") <= 60 {
		t.Errorf("after repair the label is %q in a box %v wide", scene.StringOf(l, "text"), scene.NumberOf(element(t, doc, "r"), "width"))
	}
}

// TestFixedWidthTextKeepsWordsWhole: a fixed-width free text given a
// word wider than its width widens to the word rather than break it.
func TestFixedWidthTextKeepsWordsWhole(t *testing.T) {
	s := newStored(t)
	s.create(`{"type":"text","id":"t","x":0,"y":0,"width":60,"text":"a b"}`)
	s.mustEdit(func(tx *Txn) error {
		return tx.Update([]Update{{ID: "t", Patch: []byte(`{"text":"Observability"}`)}}, "/updates")
	})
	if el := element(t, s.doc(), "t"); scene.StringOf(el, "text") != "Observability" || scene.NumberOf(el, "width") <= 60 {
		t.Errorf("fixed-width text %q, %v wide", scene.StringOf(el, "text"), scene.NumberOf(el, "width"))
	}
}
