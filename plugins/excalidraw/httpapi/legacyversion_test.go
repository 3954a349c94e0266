package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// TestLegacyVersionSceneOverHTTP: the editor's path on a version-1 file
// from 2020: listed valid, GET 200 with the stored document, PUT of it
// back 200, after which the file is version 2 with the same elements. A
// file that is no scene is listed valid:false with a problem.
func TestLegacyVersionSceneOverHTTP(t *testing.T) {
	e := newEnv(t, nil)
	expect(t, e.do(http.MethodPost, api+"/scenes", map[string]any{"name": "fresh"}), http.StatusCreated, "")
	data, err := os.ReadFile("../scene/testdata/legacy-v1-2020.excalidraw")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.dir, "old.excalidraw"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.dir, "broken.excalidraw"), []byte(`{"type":"excalidraw","elements":"none"}`), 0o600); err != nil {
		t.Fatal(err)
	}

	r := e.do(http.MethodGet, api+"/scenes", nil)
	expect(t, r, http.StatusOK, "")
	rows := map[string]map[string]any{}
	for _, x := range r.body["scenes"].([]any) {
		row := x.(map[string]any)
		rows[row["name"].(string)] = row
	}
	if old := rows["old"]; old["valid"] != true || old["problem"] != nil || num(t, old, "elementCount") != 6 {
		t.Fatalf("old row: %v", old)
	}
	if fresh := rows["fresh"]; fresh["valid"] != true || fresh["problem"] != nil {
		t.Fatalf("fresh row: %v", fresh)
	}
	if broken := rows["broken"]; broken["valid"] != false || broken["problem"] != "elements is not an array" {
		t.Fatalf("broken row: %v", broken)
	}

	r = e.do(http.MethodGet, api+"/scenes/old", nil)
	expect(t, r, http.StatusOK, "")
	doc := r.body["scene"].(map[string]any)
	if doc["version"] != 1.0 || len(doc["elements"].([]any)) != 6 {
		t.Fatalf("read: %.300s", r.raw)
	}
	r = e.do(http.MethodPut, api+"/scenes/old", map[string]any{"scene": doc, "expected_revision": num(t, r.body, "revision"), "request_id": "up"})
	expect(t, r, http.StatusOK, "")
	if r.body["unchanged"] != false || num(t, r.body, "elementCount") != 6 {
		t.Fatalf("save: %s", r.raw)
	}
	written, err := os.ReadFile(filepath.Join(e.dir, "old.excalidraw"))
	if err != nil {
		t.Fatal(err)
	}
	var w map[string]any
	if err := json.Unmarshal(written, &w); err != nil {
		t.Fatal(err)
	}
	if w["version"] != 2.0 || w["type"] != "excalidraw" || w["source"] != "https://excalidraw.com" {
		t.Fatalf("written: type %v version %v source %v", w["type"], w["version"], w["source"])
	}
	we, oe := w["elements"].([]any), doc["elements"].([]any)
	for i := range oe {
		o, n := oe[i].(map[string]any), we[i].(map[string]any)
		for _, k := range []string{"id", "type", "x", "y", "width", "height", "strokeColor", "backgroundColor", "isDeleted", "seed", "text", "points", "startBinding", "endBinding"} {
			if a, b := mustJSON(t, o[k]), mustJSON(t, n[k]); !bytes.Equal(a, b) {
				t.Errorf("element %d %s: was %s, written %s", i, k, a, b)
			}
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
