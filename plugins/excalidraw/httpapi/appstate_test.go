package httpapi

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSaveRefusesBadAppState: a PUT whose appState a write may not store
// (a negative gridSize, a colour of a million characters) is 422
// invalid_scene pointing at the member, and the file is left as it was.
func TestSaveRefusesBadAppState(t *testing.T) {
	e := newEnv(t, nil)
	expect(t, e.do(http.MethodPost, api+"/scenes", map[string]any{"name": "plan"}), http.StatusCreated, "")
	path := filepath.Join(e.dir, "plan.excalidraw")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]map[string]any{
		"gridSize":            {"gridSize": -5},
		"viewBackgroundColor": {"viewBackgroundColor": strings.Repeat("f", 1000000)},
	}
	for member, appState := range cases {
		t.Run(member, func(t *testing.T) {
			doc := map[string]any{"type": "excalidraw", "version": 2, "elements": []any{rectangle("r1")}, "appState": appState}
			r := e.with(t).do(http.MethodPut, api+"/scenes/plan", map[string]any{"scene": doc, "expected_revision": 1, "request_id": "bad-" + member})
			expect(t, r, http.StatusUnprocessableEntity, "invalid_scene")
			if p := r.details()["pointer"]; p != "/appState/"+member {
				t.Fatalf("pointer %v: %s", p, r.raw)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Fatal("the file changed")
			}
		})
	}
}

// TestSaveRefusesHugeElementColour: an element's colour is capped like
// appState's, so a PUT cannot store a colour of a million characters.
func TestSaveRefusesHugeElementColour(t *testing.T) {
	e := newEnv(t, nil)
	expect(t, e.do(http.MethodPost, api+"/scenes", map[string]any{"name": "plan"}), http.StatusCreated, "")
	path := filepath.Join(e.dir, "plan.excalidraw")
	before, _ := os.ReadFile(path)
	for _, field := range []string{"strokeColor", "backgroundColor"} {
		el := rectangle("r1")
		el[field] = strings.Repeat("f", 100000)
		doc := map[string]any{"type": "excalidraw", "version": 2, "elements": []any{el}, "appState": map[string]any{}}
		r := e.with(t).do(http.MethodPut, api+"/scenes/plan", map[string]any{"scene": doc, "expected_revision": 1})
		expect(t, r, http.StatusUnprocessableEntity, "invalid_scene")
		if p := r.details()["pointer"]; p != "/elements/0/"+field {
			t.Fatalf("%s: pointer %v: %s", field, p, r.raw)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
			t.Fatalf("%s: the file changed", field)
		}
	}
}
