package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func create(t *testing.T, s *stored, inputs ...string) CreateResult {
	t.Helper()
	var res CreateResult
	s.mustEdit(func(tx *Txn) (err error) { res, err = tx.Create(raws(inputs...), "/elements"); return err })
	return res
}

// Refs name elements of the call for arrows and placements; a placed
// element's box goes on the named side of the other's box, gap away,
// centred on the other axis unless aligned; ids come back in input
// order, refs mapped to them.
func TestCreateRefsAndPlacement(t *testing.T) {
	s := newStored(t)
	res := create(t, s,
		`{"type":"rectangle","ref":"api","x":100,"y":100,"width":160,"height":80,"label":{"text":"API"}}`,
		`{"type":"ellipse","ref":"db","id":"db1","place":{"rightOf":"api","gap":60},"width":120,"height":60}`,
		`{"type":"arrow","ref":"call","startElementId":"api","endElementId":"db","label":{"text":"SQL"}}`,
		`{"type":"diamond","ref":"q","place":{"below":"api","align":"start"}}`,
		`{"type":"text","place":{"above":"db1","align":"end","gap":10},"text":"storage"}`,
		`{"type":"rectangle","place":{"leftOf":"q","gap":0,"align":"end"},"width":50,"height":30}`)
	if len(res.IDs) != 6 || res.IDs[1] != "db1" || res.Refs["db"] != "db1" || res.Refs["api"] != res.IDs[0] ||
		res.Refs["call"] != res.IDs[2] || res.Refs["q"] != res.IDs[3] || len(res.Refs) != 4 {
		t.Fatalf("result %+v", res)
	}
	doc := s.doc()
	api, db, q := element(t, doc, res.IDs[0]), element(t, doc, "db1"), element(t, doc, res.IDs[3])
	txt, small := element(t, doc, res.IDs[4]), element(t, doc, res.IDs[5])
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	near("db.x", scene.NumberOf(db, "x"), 100+160+60)
	near("db.y", scene.NumberOf(db, "y"), 100+40-30)
	near("q.x", scene.NumberOf(q, "x"), 100)
	near("q.y", scene.NumberOf(q, "y"), 100+80+DefaultPlaceGap)
	near("text right", scene.NumberOf(txt, "x")+scene.NumberOf(txt, "width"), scene.NumberOf(db, "x")+120)
	near("text bottom", scene.NumberOf(txt, "y")+scene.NumberOf(txt, "height"), scene.NumberOf(db, "y")-10)
	near("small.x", scene.NumberOf(small, "x"), 100-50)
	near("small bottom", scene.NumberOf(small, "y")+30, scene.NumberOf(q, "y")+scene.NumberOf(q, "height"))
	arrow := element(t, doc, res.IDs[2])
	checkBinding(t, arrow, "startBinding", api)
	checkBinding(t, arrow, "endBinding", db)
	if !hasBound(api, res.IDs[2]) || !hasBound(db, res.IDs[2]) {
		t.Fatalf("targets do not list the arrow: %v %v", api, db)
	}
	pts := globalPoints(arrow)
	checkOnOutline(t, "start", pts[0], api)
	checkOnOutline(t, "end", pts[len(pts)-1], db)
	// The label moved with its placed container.
	if l := element(t, doc, labelID(t, doc, res.IDs[0])); scene.NumberOf(l, "x") < 100 || scene.NumberOf(l, "x")+scene.NumberOf(l, "width") > 260 {
		t.Fatalf("label outside its box: %v", l)
	}
}

// A box whose label makes it grow is placed against by its grown size,
// and placed itself by it; elements of the scene can be named by id.
func TestCreatePlacesByBuiltSize(t *testing.T) {
	s := newStored(t)
	s.create(`{"type":"rectangle","id":"old","x":0,"y":0,"width":100,"height":100}`)
	res := create(t, s,
		`{"type":"rectangle","ref":"big","place":{"leftOf":"old","gap":20},"label":{"text":"`+longText+`"}}`,
		`{"type":"rectangle","place":{"leftOf":"big","gap":20},"width":10,"height":10}`)
	doc := s.doc()
	big, tiny := element(t, doc, res.IDs[0]), element(t, doc, res.IDs[1])
	if scene.NumberOf(big, "width") <= 100 {
		t.Fatalf("the label did not grow its box: %v", big)
	}
	if r := scene.NumberOf(big, "x") + scene.NumberOf(big, "width"); math.Abs(r-(-20)) > 1e-9 {
		t.Fatalf("big ends at %v, want -20", r)
	}
	if r := scene.NumberOf(tiny, "x") + 10; math.Abs(r-(scene.NumberOf(big, "x")-20)) > 1e-9 {
		t.Fatalf("tiny ends at %v, want %v", r, scene.NumberOf(big, "x")-20)
	}
}

// A new shape an arrow of the call binds to is created once (version 1);
// an existing target takes one step.
func TestCreateBumpsOnce(t *testing.T) {
	s := newStored(t)
	s.create(`{"type":"rectangle","id":"old","x":0,"y":0}`)
	res := create(t, s,
		`{"type":"rectangle","ref":"n","place":{"rightOf":"old","gap":100}}`,
		`{"type":"arrow","startElementId":"old","endElementId":"n"}`)
	doc := s.doc()
	if v := scene.NumberOf(element(t, doc, res.IDs[0]), "version"); v != 1 {
		t.Fatalf("new target at version %v", v)
	}
	if v := scene.NumberOf(element(t, doc, "old"), "version"); v != 2 {
		t.Fatalf("existing target at version %v", v)
	}
}

func TestCreateErrors(t *testing.T) {
	s := newStored(t)
	s.create(`{"type":"rectangle","id":"old","x":0,"y":0}`)
	for _, c := range []struct {
		name    string
		inputs  []string
		code    sceneerr.Code
		pointer string
	}{
		{"bad ref", []string{`{"type":"rectangle","x":0,"y":0,"ref":"a b"}`}, sceneerr.InvalidOperation, "/elements/0/ref"},
		{"ref not a string", []string{`{"type":"rectangle","x":0,"y":0,"ref":3}`}, sceneerr.InvalidOperation, "/elements/0/ref"},
		{"repeated ref", []string{`{"type":"rectangle","x":0,"y":0,"ref":"a"}`, `{"type":"rectangle","x":0,"y":0,"ref":"a"}`},
			sceneerr.InvalidOperation, "/elements/1/ref"},
		{"ref is another's id", []string{`{"type":"rectangle","x":0,"y":0,"ref":"k"}`, `{"type":"rectangle","x":0,"y":0,"id":"k"}`},
			sceneerr.InvalidOperation, "/elements/0/ref"},
		{"ref is a scene id", []string{`{"type":"rectangle","x":0,"y":0,"ref":"old"}`}, sceneerr.InvalidOperation, "/elements/0/ref"},
		{"later reference", []string{`{"type":"rectangle","place":{"rightOf":"b"}}`, `{"type":"rectangle","ref":"b","x":0,"y":0}`},
			sceneerr.InvalidReference, "/elements/0/place/rightOf"},
		{"self reference", []string{`{"type":"rectangle","ref":"b","place":{"below":"b"}}`}, sceneerr.InvalidReference, "/elements/0/place/below"},
		{"unknown reference", []string{`{"type":"rectangle","place":{"above":"nope"}}`}, sceneerr.InvalidReference, "/elements/0/place/above"},
		{"arrow reference", []string{`{"type":"arrow","ref":"r","x":0,"y":0,"points":[[0,0],[50,0]]}`, `{"type":"rectangle","place":{"above":"r"}}`},
			sceneerr.InvalidReference, "/elements/1/place/above"},
		{"place and x", []string{`{"type":"rectangle","x":0,"place":{"rightOf":"old"}}`}, sceneerr.InvalidOperation, "/elements/0/place"},
		{"placed arrow", []string{`{"type":"arrow","place":{"rightOf":"old"}}`}, sceneerr.InvalidOperation, "/elements/0/place"},
		{"two sides", []string{`{"type":"rectangle","place":{"rightOf":"old","below":"old"}}`}, sceneerr.InvalidOperation, "/elements/0/place/below"},
		{"no side", []string{`{"type":"rectangle","place":{"gap":3}}`}, sceneerr.InvalidOperation, "/elements/0/place"},
		{"bad gap", []string{`{"type":"rectangle","place":{"rightOf":"old","gap":-1}}`}, sceneerr.InvalidOperation, "/elements/0/place/gap"},
		{"bad align", []string{`{"type":"rectangle","place":{"rightOf":"old","align":"middle"}}`}, sceneerr.InvalidOperation, "/elements/0/place/align"},
		{"unknown member", []string{`{"type":"rectangle","place":{"rightOf":"old","offset":1}}`}, sceneerr.InvalidOperation, "/elements/0/place/offset"},
		{"off the canvas", []string{`{"type":"rectangle","place":{"rightOf":"old","gap":999990}}`}, sceneerr.InvalidOperation, "/elements/0/place"},
		{"arrow binds an arrow ref", []string{`{"type":"arrow","ref":"r","x":0,"y":0,"points":[[0,0],[50,0]]}`,
			`{"type":"arrow","x":0,"y":100,"points":[[0,0],[50,0]],"startElementId":"r"}`}, sceneerr.InvalidReference, "/elements/1/startElementId"},
		{"id repeated across shapes and arrows", []string{`{"type":"rectangle","id":"x1","x":0,"y":0}`,
			`{"type":"arrow","id":"x1","x":0,"y":0,"points":[[0,0],[50,0]]}`}, sceneerr.DuplicateID, "/elements/1/id"},
		{"builder error in an arrow", []string{`{"type":"rectangle","x":0,"y":0}`,
			`{"type":"arrow","startElementId":"nope","endElementId":"old"}`}, sceneerr.InvalidReference, "/elements/1/startElementId"},
		{"builder error after an arrow", []string{`{"type":"arrow","x":0,"y":0,"points":[[0,0],[50,0]]}`,
			`{"type":"rectangle","x":0,"y":0,"colour":"red"}`}, sceneerr.InvalidOperation, "/elements/1/colour"},
		{"builder error in a placed input", []string{`{"type":"rectangle","place":{"rightOf":"old"},"width":-5}`},
			sceneerr.InvalidOperation, "/elements/0/width"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := s.edit(func(tx *Txn) error { _, err := tx.Create(raws(c.inputs...), "/elements"); return err })
			wantErrAt(t, err, c.code, c.pointer)
		})
	}
	if got := liveIDs(s.doc()); !slices.Equal(got, []string{"old"}) {
		t.Fatalf("failed calls stored %v", got)
	}
	// The builder's message names the input by its place in the call,
	// not in the batch it was built in.
	_, err := s.edit(func(tx *Txn) error {
		_, err := tx.Create(raws(`{"type":"arrow","x":0,"y":0,"points":[[0,0],[50,0]]}`, `{"type":"rectangle","x":0,"y":0,"colour":"red"}`), "/elements")
		return err
	})
	if se := wantCode(t, err, sceneerr.InvalidOperation); !strings.HasPrefix(se.Message, "element 1 ") || se.Details["index"] != 1 {
		t.Fatalf("message %q, details %v", se.Message, se.Details)
	}
}

// BenchmarkCreate1000 creates 1,000 elements in one call: 500 labelled
// boxes, each placed below the one before by ref, and 500 arrows binding
// each box to the first.
func BenchmarkCreate1000(b *testing.B) {
	inputs := make([]string, 0, 1000)
	for i := range 500 {
		box := fmt.Sprintf(`{"type":"rectangle","ref":"b%d","label":{"text":"box %d"}`, i, i)
		if i == 0 {
			box += `,"x":0,"y":0}`
		} else {
			box += fmt.Sprintf(`,"place":{"below":"b%d","gap":20}}`, i-1)
		}
		inputs = append(inputs, box)
	}
	for i := 1; i <= 500; i++ {
		inputs = append(inputs, fmt.Sprintf(`{"type":"arrow","x":-100,"y":%d,"points":[[0,0],[90,0]],"endElementId":"b%d"}`, i*140, i%500))
	}
	in := raws(inputs...)
	s := newStored(b)
	b.ResetTimer()
	for range b.N {
		tx := s.begin(scene.NewDocument())
		if _, err := tx.Create(in, "/elements"); err != nil {
			b.Fatal(err)
		}
	}
}
