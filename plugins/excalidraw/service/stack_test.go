package service

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// stackBoard is a board with a column of three labelled boxes stacked by
// create_stack (gap 20), and the stack's id.
func stackBoard(t *testing.T) (*Service, string, string) {
	t.Helper()
	s, dir := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "st", Elements: raws(
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":200,"height":60,"label":{"text":"One"}}`,
		`{"type":"rectangle","id":"b","x":300,"y":300,"width":200,"height":60,"label":{"text":"Two"}}`,
		`{"type":"rectangle","id":"c","x":-50,"y":900,"width":100,"height":40}`,
		`{"type":"arrow","id":"bc","startElementId":"b","endElementId":"c"}`)}); err != nil {
		t.Fatal(err)
	}
	env, err := s.Edit(ctx, WriteRequest{Name: "st"}, CreateStack{Selection: engine.Selection{IDs: []string{"a", "b", "c"}}, Align: "center"})
	if err != nil {
		t.Fatal(err)
	}
	return s, dir, env.Extra["stack"].(string)
}

func tops(t *testing.T, doc *scene.Document, ids ...string) []float64 {
	t.Helper()
	var out []float64
	for _, id := range ids {
		out = append(out, scene.NumberOf(element(t, doc, id), "y"))
	}
	return out
}

// TestCreateStackLaysOut: the items are laid out in the order given from
// the first item's place, centred on its centre line, the profile's
// spacing apart; the arrow between two items follows.
func TestCreateStackLaysOut(t *testing.T) {
	_, dir, id := stackBoard(t)
	doc := checkStored(t, dir, "st")
	if got := tops(t, doc, "a", "b", "c"); got[0] != 0 || got[1] != 80 || got[2] != 160 {
		t.Errorf("tops %v, want 0 80 160", got)
	}
	for _, el := range []string{"a", "b", "c"} {
		e := element(t, doc, el)
		if mid := scene.NumberOf(e, "x") + scene.NumberOf(e, "width")/2; mid != 100 {
			t.Errorf("%s centred at %v, want 100", el, mid)
		}
		if str(e, "customData", "dsh", "id") != id || str(e, "customData", "dsh", "slot") != "item" {
			t.Errorf("%s is not tagged as an item of %s", el, id)
		}
	}
	arrow := element(t, doc, "bc")
	if y := scene.NumberOf(arrow, "y"); y < 140 || y > 160 {
		t.Errorf("the arrow b→c starts at y=%v: it did not follow b", y)
	}
}

// TestCreateStackGapFromProfile: without gap the stack takes the board
// profile's spacing.
func TestCreateStackGapFromProfile(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "p", Elements: raws(
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":100,"height":50}`,
		`{"type":"rectangle","id":"b","x":0,"y":0,"width":100,"height":50}`)}); err != nil {
		t.Fatal(err)
	}
	e := CreateStack{Selection: engine.Selection{IDs: []string{"a", "b"}}}.WithProfile(profile.Profile{Spacing: 48})
	// Write, not Edit: the board has no profile of its own here.
	if _, err := s.Write(ctx, WriteRequest{Name: "p"}, e.Plan("")); err != nil {
		t.Fatal(err)
	}
	if got := tops(t, checkStored(t, dir, "p"), "a", "b"); got[1] != 98 {
		t.Errorf("tops %v, want b at 98 (50 + the profile's 48)", got)
	}
}

// TestCreateStackRefuses: bad arguments are refused at their place and
// change nothing.
func TestCreateStackRefuses(t *testing.T) {
	s, _, _ := stackBoard(t)
	for _, c := range []struct {
		e       CreateStack
		code    sceneerr.Code
		pointer string
	}{
		{CreateStack{}, sceneerr.InvalidOperation, "/ids"},
		{CreateStack{Selection: engine.Selection{IDs: []string{"a"}}, Direction: "diagonal"}, sceneerr.InvalidOperation, "/direction"},
		{CreateStack{Selection: engine.Selection{IDs: []string{"a"}}, Align: "left"}, sceneerr.InvalidOperation, "/align"},
		{CreateStack{Stack: "stk_nope", Selection: engine.Selection{IDs: []string{"a"}}}, sceneerr.NotFound, "/stack"},
		{CreateStack{Selection: engine.Selection{IDs: []string{"nope"}}}, sceneerr.NotFound, "/ids/0"},
	} {
		_, err := s.Edit(ctx, WriteRequest{Name: "st"}, c.e)
		se := wantCode(t, err, c.code)
		if se.Details["pointer"] != c.pointer {
			t.Errorf("%+v: pointer %v, want %s", c.e, se.Details["pointer"], c.pointer)
		}
	}
	h, _ := s.Read(ctx, ReadRequest{Name: "st"})
	if h.Revision != 2 {
		t.Errorf("a refused call wrote: revision %d", h.Revision)
	}
}

// TestSaveKeepsStack: a person's save that makes an item taller (as the
// editor sends it: the whole scene, the item's version stepped) is stored
// with the items after it moved down, the gaps kept, and the result says
// which elements were laid out again; a save that leaves the stack as it
// is re-lays nothing.
func TestSaveKeepsStack(t *testing.T) {
	s, dir, _ := stackBoard(t)
	doc := checkStored(t, dir, "st")
	a := element(t, doc, "a")
	a.Set("height", 160.0)
	a.Set("version", scene.NumberOf(a, "version")+1)
	data, err := doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Save(ctx, SaveRequest{Name: "st", Scene: data, ExpectedRevision: 2})
	if err != nil {
		t.Fatal(err)
	}
	stored := checkStored(t, dir, "st")
	if got := tops(t, stored, "a", "b", "c"); got[1] != 180 || got[2] != 260 {
		t.Errorf("after a grew to 160, tops %v, want 0 180 260", got)
	}
	if len(res.RelaidOut) == 0 || res.Unchanged {
		t.Errorf("save result %+v: relaidOut should name b and c", res)
	}
	// The stored scene saved back as it is: nothing to keep.
	res, err = s.Save(ctx, SaveRequest{Name: "st", Scene: fileBytes(t, dir, "st"), ExpectedRevision: res.Revision})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.RelaidOut) != 0 || !res.Unchanged {
		t.Errorf("saving the kept scene again: %+v", res)
	}
}

// TestSaveKeepsWhatCannotBeKept: a person's save that a keeper cannot
// keep (the items after a grown one would go beyond the coordinates) is
// stored as sent, not refused.
func TestSaveKeepsWhatCannotBeKept(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	if _, err := s.Create(ctx, CreateRequest{Name: "edge", Elements: raws(
		`{"type":"rectangle","id":"a","x":0,"y":999800,"width":100,"height":60}`,
		`{"type":"rectangle","id":"b","x":0,"y":0,"width":100,"height":60}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Edit(ctx, WriteRequest{Name: "edge"}, CreateStack{Selection: engine.Selection{IDs: []string{"a", "b"}}}); err != nil {
		t.Fatal(err)
	}
	doc := checkStored(t, dir, "edge")
	a := element(t, doc, "a")
	a.Set("height", 400.0)
	a.Set("version", scene.NumberOf(a, "version")+1)
	data, _ := doc.Marshal()
	res, err := s.Save(ctx, SaveRequest{Name: "edge", Scene: data, ExpectedRevision: 2})
	if err != nil {
		t.Fatalf("the save was refused: %v", err)
	}
	stored := checkStored(t, dir, "edge")
	if h := scene.NumberOf(element(t, stored, "a"), "height"); h != 400 || len(res.RelaidOut) != 0 {
		t.Errorf("stored a's height %v, relaidOut %v: want the save as sent", h, res.RelaidOut)
	}
}
