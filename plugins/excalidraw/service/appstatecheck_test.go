package service

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// badAppStates are app states every write must refuse, with the member
// at fault. longColor is a million characters; the cap is
// scene.MaxColorLength, as for an element's colours.
var badAppStates = []struct {
	what, json, member string
}{
	{"negative grid", `{"gridSize":-5}`, "gridSize"},
	{"zero grid", `{"gridSize":0}`, "gridSize"},
	{"fractional grid", `{"gridSize":20.5}`, "gridSize"},
	{"huge grid", `{"gridSize":1000}`, "gridSize"},
	{"grid a string", `{"gridSize":"20"}`, "gridSize"},
	{"long colour", `{"viewBackgroundColor":"` + strings.Repeat("a", 1000000) + `"}`, "viewBackgroundColor"},
	{"empty colour", `{"viewBackgroundColor":""}`, "viewBackgroundColor"},
	{"colour a number", `{"viewBackgroundColor":7}`, "viewBackgroundColor"},
	{"grid mode a string", `{"gridModeEnabled":"yes"}`, "gridModeEnabled"},
}

// TestCreateRefusesBadAppState: create refuses each bad app state with
// invalid_operation at /app_state/<member>, and no scene is created.
func TestCreateRefusesBadAppState(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	for _, c := range badAppStates {
		t.Run(c.what, func(t *testing.T) {
			_, err := s.Create(ctx, CreateRequest{Name: "new", AppState: []byte(c.json), Elements: flowInputs()})
			se := wantCode(t, err, sceneerr.InvalidOperation)
			if se.Details["pointer"] != "/app_state/"+c.member {
				t.Fatalf("pointer %v: %v", se.Details["pointer"], err)
			}
			if _, err := os.Stat(filepath.Join(dir, "new.excalidraw")); !os.IsNotExist(err) {
				t.Fatalf("a scene was created: %v", err)
			}
		})
	}
	res, err := s.Create(ctx, CreateRequest{Name: "new", AppState: []byte(`{"gridSize":20,"viewBackgroundColor":"#f8f9fa","gridModeEnabled":true}`)})
	if err != nil || res.Revision != 1 {
		t.Fatalf("good app state: %+v %v", res, err)
	}
	if _, err := s.Create(ctx, CreateRequest{Name: "nogrid", AppState: []byte(`{"gridSize":null}`)}); err != nil {
		t.Fatalf("gridSize null: %v", err)
	}
}

// TestApplyRefusesBadAppState: apply refuses each bad app state with
// invalid_operation at /app_state/<member> and leaves the file as it was.
func TestApplyRefusesBadAppState(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	before := fileBytes(t, dir, "flow")
	for _, c := range badAppStates {
		t.Run(c.what, func(t *testing.T) {
			_, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, AppState: []byte(c.json),
				Operations: raws(`{"op":"update","id":"b","patch":{"x":450}}`)})
			se := wantCode(t, err, sceneerr.InvalidOperation)
			if se.Details["pointer"] != "/app_state/"+c.member {
				t.Fatalf("pointer %v: %v", se.Details["pointer"], err)
			}
			if !bytes.Equal(fileBytes(t, dir, "flow"), before) {
				t.Fatal("the file changed")
			}
		})
	}
	res, err := s.Apply(ctx, ApplyRequest{Name: "flow", ExpectedRevision: 1, AppState: []byte(`{"gridSize":100}`),
		Operations: raws(`{"op":"update","id":"b","patch":{"x":450}}`)})
	if err != nil || res.Revision != 2 {
		t.Fatalf("good app state: %+v %v", res, err)
	}
}

// TestSaveRefusesBadAppState: the browser's save refuses each bad app
// state with invalid_scene at /appState/<member> and leaves the file as
// it was.
func TestSaveRefusesBadAppState(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	before := fileBytes(t, dir, "flow")
	for _, c := range badAppStates {
		t.Run(c.what, func(t *testing.T) {
			doc := `{"type":"excalidraw","version":2,"elements":[],"appState":` + c.json + `}`
			_, err := s.Save(ctx, SaveRequest{Name: "flow", Scene: []byte(doc), ExpectedRevision: 1})
			se := wantCode(t, err, sceneerr.InvalidScene)
			if se.Details["pointer"] != "/appState/"+c.member {
				t.Fatalf("pointer %v: %v", se.Details["pointer"], err)
			}
			if !bytes.Equal(fileBytes(t, dir, "flow"), before) {
				t.Fatal("the file changed")
			}
		})
	}
	// Members the contract does not keep are per-viewer state, dropped, not checked.
	doc := `{"type":"excalidraw","version":2,"elements":[],"appState":{"gridSize":20,"viewBackgroundColor":"#ffffff","zoom":{"value":-1}}}`
	if _, err := s.Save(ctx, SaveRequest{Name: "flow", Scene: []byte(doc), ExpectedRevision: 1}); err != nil {
		t.Fatalf("good app state: %v", err)
	}
}
