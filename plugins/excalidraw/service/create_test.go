package service

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestCreateBindsInSameCall(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	res := createFlow(t, s, "flow")
	if res.Revision != 1 || !res.Verified || res.Duplicate || res.ElementCount != 4 || len(res.SHA256) != 64 {
		t.Fatalf("evidence %+v", res)
	}
	if len(res.Summary.Elements) != 4 {
		t.Fatalf("summary %+v", res.Summary)
	}
	doc := checkStored(t, dir, "flow")
	arrow := element(t, doc, "ab")
	if str(arrow, "startBinding", "elementId") != "a" || str(arrow, "endBinding", "elementId") != "b" {
		t.Fatalf("arrow not bound: %v", arrow)
	}
	if e := element(t, doc, "a"); e.Len() == 0 || !hasBound(e, "ab") {
		t.Fatalf("a does not list the arrow: %v", e)
	}
}

func hasBound(el interface {
	Array(string) ([]any, bool)
}, id string) bool {
	list, _ := el.Array("boundElements")
	for _, x := range list {
		if o, ok := x.(interface{ String(string) (string, bool) }); ok {
			if got, _ := o.String("id"); got == id {
				return true
			}
		}
	}
	return false
}

func TestCreateTwiceAlreadyExists(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	_, err := s.Create(ctx, CreateRequest{Name: "flow", Elements: flowInputs()})
	wantCode(t, err, sceneerr.AlreadyExists)
}

func TestCreateInvalidNames(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	for _, name := range []string{"", "../x", "a..b", "Upper", "-x", "a/b", ".hidden"} {
		_, err := s.Create(ctx, CreateRequest{Name: name})
		wantCode(t, err, sceneerr.InvalidName)
		_, err = s.Read(ctx, ReadRequest{Name: name})
		wantCode(t, err, sceneerr.InvalidName)
		_, err = s.Apply(ctx, ApplyRequest{Name: name, Operations: raws(`{"op":"delete","id":"x"}`)})
		wantCode(t, err, sceneerr.InvalidName)
	}
}

func TestCreateTooManyElements(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{MaxElements: 3})
	_, err := s.Create(ctx, CreateRequest{Name: "flow", Elements: flowInputs()})
	wantCode(t, err, sceneerr.TooManyElements)
}

func TestCreateTooLarge(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{MaxSceneBytes: 1500})
	_, err := s.Create(ctx, CreateRequest{Name: "flow", Elements: flowInputs()})
	wantCode(t, err, sceneerr.TooLarge)
}

func TestCreateBadElementPointer(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	_, err := s.Create(ctx, CreateRequest{Name: "x", Elements: raws(`{"type":"rectangle","x":0,"y":0}`, `{"type":"ellipse","x":0,"y":0,"radius":5}`)})
	se := wantCode(t, err, sceneerr.InvalidOperation)
	if se.Details["pointer"] != "/elements/1/radius" {
		t.Fatalf("pointer %v", se.Details)
	}
}

func TestCreateAppStateAndFiles(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	files := `{"f1":{"id":"f1","mimeType":"image/png","dataURL":"data:image/png;base64,iVBORw0KGgo=","created":1}}`
	_, err := s.Create(ctx, CreateRequest{Name: "img",
		Elements: raws(`{"type":"image","id":"i","x":0,"y":0,"width":10,"height":10,"fileId":"f1"}`),
		Files:    []byte(files), AppState: []byte(`{"viewBackgroundColor":"#000000"}`)})
	if err != nil {
		t.Fatal(err)
	}
	doc := checkStored(t, dir, "img")
	if v, _ := doc.AppState().String("viewBackgroundColor"); v != "#000000" {
		t.Fatalf("appState %v", doc.AppState())
	}
	_, err = s.Create(ctx, CreateRequest{Name: "img2", AppState: []byte(`{"zoom":2}`)})
	if se := wantCode(t, err, sceneerr.InvalidOperation); se.Details["pointer"] != "/app_state/zoom" {
		t.Fatal(se.Details)
	}
	_, err = s.Create(ctx, CreateRequest{Name: "img3", Elements: raws(`{"type":"image","x":0,"y":0,"width":10,"height":10,"fileId":"nope"}`)})
	if err == nil {
		t.Fatal("image with a missing file accepted")
	}
}
