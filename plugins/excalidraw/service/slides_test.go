package service

import (
	"encoding/json"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func decodeFrames(t *testing.T, raw string) LayoutFrames {
	t.Helper()
	var e LayoutFrames
	if err := json.Unmarshal([]byte(raw), &e); err != nil {
		t.Fatal(err)
	}
	return e
}

// TestLayoutFramesGridAndTypeScale: four 4:3 slides in a grid of two
// columns, gap 50; texts sized by their level from the profile's type
// scale, a text without a level as body text.
func TestLayoutFramesGridAndTypeScale(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "d"}); err != nil {
		t.Fatal(err)
	}
	e := decodeFrames(t, `{"size":"4:3","layout":"grid","columns":2,"gap":50,"at":{"x":10,"y":20},"slides":[
		{"name":"A","elements":[{"type":"text","id":"t","x":40,"y":30,"text":"Title","level":"title"},{"type":"text","id":"b","x":40,"y":200,"text":"body"}]},
		{"name":"B"},{"name":"C"},{"name":"D","elements":[{"type":"rectangle","id":"r","x":0,"y":0,"width":100,"height":100}]}]}`)
	p := profile.Profile{TypeScale: map[string]float64{"title": 72, "body": 28}}
	env, err := s.Write(ctx, WriteRequest{Name: "d"}, e.WithProfile(p).Plan(""))
	if err != nil {
		t.Fatal(err)
	}
	frames := env.Extra["frames"].([]string)
	doc := checkStored(t, dir, "d")
	want := [][2]float64{{10, 20}, {1660, 20}, {10, 1270}, {1660, 1270}}
	for i, id := range frames {
		f := element(t, doc, id)
		if scene.NumberOf(f, "x") != want[i][0] || scene.NumberOf(f, "y") != want[i][1] || scene.NumberOf(f, "width") != 1600 || scene.NumberOf(f, "height") != 1200 {
			t.Errorf("frame %d at %v,%v", i, scene.NumberOf(f, "x"), scene.NumberOf(f, "y"))
		}
	}
	if fs := scene.NumberOf(element(t, doc, "t"), "fontSize"); fs != 72 {
		t.Errorf("the title's size %v, want the profile's 72", fs)
	}
	if fs := scene.NumberOf(element(t, doc, "b"), "fontSize"); fs != 28 {
		t.Errorf("the body text's size %v, want the profile's 28", fs)
	}
	r := element(t, doc, "r")
	if str(r, "frameId") != frames[3] || scene.NumberOf(r, "x") != 1660 || scene.NumberOf(r, "y") != 1270 {
		t.Errorf("r in %q at %v,%v: want in the last slide at its top-left", str(r, "frameId"), scene.NumberOf(r, "x"), scene.NumberOf(r, "y"))
	}
	if str(element(t, doc, "t"), "frameId") != frames[0] {
		t.Errorf("the title is not in the first slide")
	}
}

// TestLayoutFramesRefuses: bad arguments and content that does not fit
// are refused at their place, and nothing is written.
func TestLayoutFramesRefuses(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	createFlow(t, s, "d")
	for _, c := range []struct {
		args    string
		code    sceneerr.Code
		pointer string
	}{
		{`{}`, sceneerr.InvalidOperation, "/slides"},
		{`{"slides":[{}],"ids":["a"]}`, sceneerr.InvalidOperation, "/slides"},
		{`{"slides":[{}],"size":"a3"}`, sceneerr.InvalidOperation, "/size"},
		{`{"slides":[{}],"size":{"width":10,"height":900}}`, sceneerr.InvalidOperation, "/size"},
		{`{"slides":[{}],"layout":"stack"}`, sceneerr.InvalidOperation, "/layout"},
		{`{"slides":[{}],"layout":"row","columns":2}`, sceneerr.InvalidOperation, "/columns"},
		{`{"slides":[{},{"elements":[{"type":"text","x":10,"y":10,"text":"x","level":"huge"}]}]}`, sceneerr.InvalidOperation, "/slides/1/elements/0/level"},
		{`{"slides":[{"elements":[{"type":"rectangle","x":10,"y":850,"width":100,"height":100}]}]}`, sceneerr.InvalidOperation, "/slides/0/elements/0"},
		{`{"ids":["a"]}`, sceneerr.InvalidOperation, "/ids/0"},
		{`{"ids":["nope"]}`, sceneerr.NotFound, "/ids/0"},
	} {
		_, err := s.Write(ctx, WriteRequest{Name: "d"}, decodeFrames(t, c.args).Plan(""))
		se := wantCode(t, err, c.code)
		if se.Details["pointer"] != c.pointer {
			t.Errorf("%s: pointer %v, want %s (%v)", c.args, se.Details["pointer"], c.pointer, err)
		}
	}
	if h, _ := s.Read(ctx, ReadRequest{Name: "d"}); h.Revision != 1 {
		t.Errorf("a refused call wrote: revision %d", h.Revision)
	}
}

// TestLayoutFramesExisting: existing frames are laid out from the first
// one's place in the order given, resized, their children with them; a
// frame whose children would not fit is refused.
func TestLayoutFramesExisting(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "d")
	var f1, f2 string
	if _, err := s.Write(ctx, WriteRequest{Name: "d"}, func(tx *engine.Txn, _ *scene.Document) (PlanResult, error) {
		var err error
		if f1, err = tx.CreateFrame("one", nil, []string{"a"}, 10, ""); err != nil {
			return PlanResult{}, err
		}
		f2, err = tx.CreateFrame("two", &engine.Box{X: -900, Y: 400, Width: 100, Height: 100}, nil, 0, "")
		return PlanResult{}, err
	}); err != nil {
		t.Fatal(err)
	}
	before := checkStored(t, dir, "d")
	ax, ay := scene.NumberOf(element(t, before, "a"), "x"), scene.NumberOf(element(t, before, "a"), "y")
	fx, fy := scene.NumberOf(element(t, before, f1), "x"), scene.NumberOf(element(t, before, f1), "y")
	e := LayoutFrames{Selection: engine.Selection{IDs: []string{f2, f1}}, Size: &SlideSize{Preset: "a4-landscape"}}
	if _, err := s.Write(ctx, WriteRequest{Name: "d"}, e.Plan("")); err != nil {
		t.Fatal(err)
	}
	doc := checkStored(t, dir, "d")
	two, one := element(t, doc, f2), element(t, doc, f1)
	if scene.NumberOf(two, "x") != -900 || scene.NumberOf(two, "y") != 400 || scene.NumberOf(two, "width") != 1123 {
		t.Errorf("the first frame given moved or kept its size: %v,%v %v", scene.NumberOf(two, "x"), scene.NumberOf(two, "y"), scene.NumberOf(two, "width"))
	}
	nx, ny := scene.NumberOf(one, "x"), scene.NumberOf(one, "y")
	if nx != -900+1123+100 || ny != 400 {
		t.Errorf("the second frame at %v,%v, want %v,400", nx, ny, -900+1123+100)
	}
	a := element(t, doc, "a")
	if scene.NumberOf(a, "x")-nx != ax-fx || scene.NumberOf(a, "y")-ny != ay-fy {
		t.Errorf("a child did not move with its frame")
	}
	small := LayoutFrames{Selection: engine.Selection{IDs: []string{f1}}, Size: &SlideSize{Width: 60, Height: 60}}
	_, err := s.Write(ctx, WriteRequest{Name: "d"}, small.Plan(""))
	if se := wantCode(t, err, sceneerr.InvalidOperation); se.Details["pointer"] != "/ids/0" {
		t.Errorf("a frame too small for its children: %v", err)
	}
}
