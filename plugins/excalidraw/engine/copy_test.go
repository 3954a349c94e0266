package engine

import (
	"math"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func copyIDs(t *testing.T, s *stored, dx, dy float64, ids ...string) map[string]string {
	t.Helper()
	var m map[string]string
	s.mustEdit(func(tx *Txn) (err error) { m, err = tx.Copy(ids, dx, dy, "/ids"); return err })
	return m
}

// A copied block is the same drawing, offset, with fresh ids, seeds and
// groups, its internal references pointing at the copies, after the
// scene's last index; the originals are untouched.
func TestCopyBlock(t *testing.T) {
	s := newStored(t)
	before := s.create(
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":160,"height":80,"label":{"text":"Start"},"groupIds":["g1"]}`,
		`{"type":"ellipse","id":"b","x":400,"y":0,"width":120,"height":80,"groupIds":["g1","g2"]}`,
		`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b","label":{"text":"next"}}`)
	m := copyIDs(t, s, 10, 300, "a", "b", "ab")
	if len(m) != 5 {
		t.Fatalf("copied %v, want the three elements and two labels", m)
	}
	doc := s.doc()
	for id, nid := range m {
		o, c := element(t, before, id), element(t, doc, nid)
		if !ojson.Equal(o, element(t, doc, id), true) {
			t.Errorf("original %s changed", id)
		}
		if math.Abs(scene.NumberOf(c, "x")-scene.NumberOf(o, "x")-10) > 1e-9 || math.Abs(scene.NumberOf(c, "y")-scene.NumberOf(o, "y")-300) > 1e-9 {
			t.Errorf("%s copied to %v,%v from %v,%v", id, scene.NumberOf(c, "x"), scene.NumberOf(c, "y"), scene.NumberOf(o, "x"), scene.NumberOf(o, "y"))
		}
		if scene.NumberOf(c, "seed") == scene.NumberOf(o, "seed") || scene.NumberOf(c, "version") != 1 {
			t.Errorf("%s: seed %v (was %v), version %v", id, scene.NumberOf(c, "seed"), scene.NumberOf(o, "seed"), scene.NumberOf(c, "version"))
		}
	}
	a, b, ab := element(t, doc, m["a"]), element(t, doc, m["b"]), element(t, doc, m["ab"])
	if bindingTarget(ab, "startBinding") != m["a"] || bindingTarget(ab, "endBinding") != m["b"] {
		t.Fatalf("copied arrow binds %v", ab)
	}
	if !slices.Equal(boundIDs(a), []string{m[labelID(t, before, "a")], m["ab"]}) || !slices.Equal(boundIDs(b), []string{m["ab"]}) {
		t.Fatalf("copied targets list %v and %v", boundIDs(a), boundIDs(b))
	}
	if l := element(t, doc, m[labelID(t, before, "ab")]); scene.StringOf(l, "containerId") != m["ab"] {
		t.Fatalf("arrow label's container %q", scene.StringOf(l, "containerId"))
	}
	ga, gb := groupIDsOf(a), groupIDsOf(b)
	if len(ga) != 1 || len(gb) != 2 || ga[0] != gb[0] || ga[0] == "g1" || gb[1] == "g2" {
		t.Fatalf("groups %v, %v", ga, gb)
	}
	var keys []string
	for _, el := range doc.Elements() {
		keys = append(keys, scene.StringOf(el, "index"))
	}
	if bad := findex.CheckOrder(keys); len(bad) > 0 {
		t.Fatalf("indices out of order: %v", keys)
	}
}

// Copied alone, an arrow loses its bindings, and a box its arrows: only
// references inside the copy are kept. A label brings its container.
func TestCopyDropsOutsideReferences(t *testing.T) {
	s := newStored(t)
	before := s.create(flowInputs...)
	m := copyIDs(t, s, 0, 200, "ab")
	ab := element(t, s.doc(), m["ab"])
	if !ab.IsNull("startBinding") || !ab.IsNull("endBinding") {
		t.Fatalf("a lone copied arrow stays bound: %v", ab)
	}
	m = copyIDs(t, s, 0, 200, labelID(t, before, "a"))
	a := element(t, s.doc(), m["a"])
	if len(m) != 2 || !slices.Equal(boundIDs(a), []string{m[labelID(t, before, "a")]}) {
		t.Fatalf("copy %v lists %v", m, boundIDs(a))
	}
}

// A copied frame brings its children, which join the copy; a child
// copied alone stays in the frame it was in.
func TestCopyFrame(t *testing.T) {
	s := newStored(t)
	framed(t, s)
	before := s.doc()
	m := copyIDs(t, s, 500, 0, "f")
	doc := s.doc()
	if len(m) != 3 || scene.StringOf(element(t, doc, m["in"]), "frameId") != m["f"] {
		t.Fatalf("copy %v", m)
	}
	if l := element(t, doc, m[labelID(t, before, "in")]); scene.StringOf(l, "containerId") != m["in"] {
		t.Fatalf("label %v", l)
	}
	m = copyIDs(t, s, 5, 5, "in")
	if scene.StringOf(element(t, s.doc(), m["in"]), "frameId") != "f" {
		t.Fatal("a child copied alone left its frame")
	}
}

// CopyOut and Paste carry a block to another scene with the attachments
// its images show; a frame the other scene lacks is dropped.
func TestPasteIntoAnotherScene(t *testing.T) {
	src := newStored(t)
	src.save([]byte(`{"type":"excalidraw","version":2,"elements":[
	 {"type":"frame","id":"f","x":0,"y":0,"width":400,"height":300,"name":"F"}],
	 "files":{"file1":{"id":"file1","mimeType":"image/png","dataURL":"data:image/png;base64,iVBORw0KGgo=","created":1}}}`))
	if _, err := src.apply(
		`{"op":"add","element":{"type":"image","id":"img","x":10,"y":10,"width":50,"height":50,"fileId":"file1","frameId":"f"}}`,
		`{"op":"add","element":{"type":"rectangle","id":"r","x":100,"y":10,"label":{"text":"pic"}}}`); err != nil {
		t.Fatal(err)
	}
	var clip *Clip
	src.mustEdit(func(tx *Txn) (err error) { clip, err = tx.CopyOut([]string{"img", "r"}, "/ids"); return err })
	if len(clip.Elements) != 3 || clip.Files["file1"] == nil {
		t.Fatalf("clip %+v", clip)
	}
	dst := newStored(t)
	dst.create(`{"type":"rectangle","id":"here","x":0,"y":0}`)
	var p Pasted
	dst.mustEdit(func(tx *Txn) (err error) { p, err = tx.Paste(clip, 0, 500, "/offset"); return err })
	doc := dst.doc()
	if !slices.Equal(p.Files, []string{"file1"}) || !doc.Files().Has("file1") || len(p.IDs) != 3 {
		t.Fatalf("pasted %+v", p)
	}
	img := element(t, doc, p.IDs["img"])
	if !img.IsNull("frameId") || scene.StringOf(img, "fileId") != "file1" || scene.NumberOf(img, "y") != 510 {
		t.Fatalf("image %v", img)
	}
	// Pasting the same clip again reuses the attachment.
	dst.mustEdit(func(tx *Txn) (err error) { p, err = tx.Paste(clip, 0, 900, "/offset"); return err })
	if len(p.Files) != 0 || len(dst.doc().Files().Keys()) != 1 {
		t.Fatalf("second paste %+v", p)
	}
}

func TestCopyErrors(t *testing.T) {
	s := newStored(t)
	s.create(flowInputs...)
	_, err := s.edit(func(tx *Txn) error { _, err := tx.Copy([]string{"a", "nope"}, 0, 0, "/ids"); return err })
	wantErrAt(t, err, sceneerr.NotFound, "/ids/1")
	_, err = s.edit(func(tx *Txn) error { _, err := tx.Copy([]string{"a"}, 0, 5e6, "/ids"); return err })
	wantErrAt(t, err, sceneerr.InvalidOperation, "/ids")
	_, err = s.edit(func(tx *Txn) error { _, err := tx.CopyOut([]string{}, "/ids"); return err })
	wantErrAt(t, err, sceneerr.InvalidOperation, "/ids")
	if got := liveIDs(s.doc()); len(got) != 4 {
		t.Fatalf("failed copies stored %v", got)
	}
}

func groupIDsOf(el *ojson.Object) []string {
	var out []string
	list, _ := el.Array("groupIds")
	for _, g := range list {
		s, _ := g.(string)
		out = append(out, s)
	}
	return out
}
