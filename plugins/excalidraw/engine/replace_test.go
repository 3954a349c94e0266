package engine

import (
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func replaceText(t *testing.T, s *stored, ids []string, r Replacement) ([]string, *Txn) {
	t.Helper()
	var changed []string
	tx := s.mustEdit(func(tx *Txn) (err error) { changed, err = tx.ReplaceText(ids, r, "/ids"); return err })
	return changed, tx
}

// A replacement in a label is laid out as an update of its text: wrapped
// to the container, which grows to fit, and the arrows bound to the
// container follow its new outline.
func TestReplaceTextRelaysLabel(t *testing.T) {
	s := newStored(t)
	before := s.create(flowInputs...)
	lid := labelID(t, before, "a")
	changed, tx := replaceText(t, s, []string{"a"}, Replacement{Find: "start", Replace: longText})
	if !slices.Equal(changed, []string{lid}) {
		t.Fatalf("changed %v", changed)
	}
	doc := s.doc()
	a, l := element(t, doc, "a"), element(t, doc, lid)
	if build.OriginalText(l) != longText || !strings.Contains(scene.StringOf(l, "text"), "\n") {
		t.Fatalf("label %q / %q", scene.StringOf(l, "originalText"), scene.StringOf(l, "text"))
	}
	if scene.NumberOf(a, "height") <= 80 {
		t.Fatalf("container did not grow: %v", a)
	}
	pts := globalPoints(element(t, doc, "ab"))
	checkOnOutline(t, "start", pts[0], a)
	if got := tx.Touched(); !slices.Equal(got, []string{"a", lid, "ab"}) {
		t.Fatalf("touched %v", got)
	}
}

// Without ids every live text is searched, labels of arrows included;
// regex groups expand; case is ignored unless asked.
func TestReplaceTextEverywhere(t *testing.T) {
	s := newStored(t)
	before := s.create(
		`{"type":"rectangle","id":"a","x":0,"y":0,"label":{"text":"Order Service"}}`,
		`{"type":"rectangle","id":"b","x":400,"y":0,"label":{"text":"order db"}}`,
		`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b","label":{"text":"writes ORDER rows"}}`,
		`{"type":"text","id":"t","x":0,"y":300,"text":"nothing here"}`)
	changed, _ := replaceText(t, s, nil, Replacement{Find: `(?i)order (\w+)`, Replace: "${1} of orders", Regex: true})
	want := []string{labelID(t, before, "a"), labelID(t, before, "b"), labelID(t, before, "ab")}
	if !slices.Equal(changed, want) {
		t.Fatalf("changed %v, want %v", changed, want)
	}
	doc := s.doc()
	for i, text := range []string{"Service of orders", "db of orders", "writes rows of orders"} {
		if got := build.OriginalText(element(t, doc, want[i])); got != text {
			t.Errorf("%s: %q, want %q", want[i], got, text)
		}
	}
	changed, _ = replaceText(t, s, nil, Replacement{Find: "here", Replace: "there now"})
	tt := element(t, s.doc(), "t")
	if !slices.Equal(changed, []string{"t"}) || scene.NumberOf(tt, "width") <= scene.NumberOf(element(t, doc, "t"), "width") {
		t.Fatalf("free text not re-measured: %v", tt)
	}
}

// A replace that matches nothing, or changes nothing, changes nothing;
// an element without text among ids is passed over.
func TestReplaceTextNoChange(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	for _, r := range []Replacement{
		{Find: "start", Replace: "x", CaseSensitive: true},
		{Find: "Start", Replace: "Start"},
		{Find: "S(t)art", Replace: "S${1}art", Regex: true},
	} {
		changed, tx := replaceText(t, s, []string{"a", "b", "ab"}, r)
		if len(changed) != 0 || len(tx.Touched()) != 0 {
			t.Fatalf("%+v changed %v, touched %v", r, changed, tx.Touched())
		}
	}
}

func TestReplaceTextErrors(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	for _, c := range []struct {
		name    string
		ids     []string
		r       Replacement
		code    sceneerr.Code
		pointer string
	}{
		{"unknown id", []string{"a", "zz"}, Replacement{Find: "x"}, sceneerr.NotFound, "/ids/1"},
		{"bad pattern", nil, Replacement{Find: "(", Regex: true}, sceneerr.InvalidOperation, "/find"},
		{"empty find", nil, Replacement{}, sceneerr.InvalidOperation, "/find"},
		{"long find", nil, Replacement{Find: strings.Repeat("a", MaxFindLength+1)}, sceneerr.InvalidOperation, "/find"},
		{"emptied text", nil, Replacement{Find: "start"}, sceneerr.InvalidOperation, "/find"},
		{"too long text", nil, Replacement{Find: "start", Replace: strings.Repeat("x", limits.MaxTextLength+1)}, sceneerr.TooLarge, "/find"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.r.Pointer = "/find"
			_, err := s.edit(func(tx *Txn) error { _, err := tx.ReplaceText(c.ids, c.r, "/ids"); return err })
			wantErrAt(t, err, c.code, c.pointer)
		})
	}
}
