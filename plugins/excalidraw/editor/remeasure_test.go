package editor_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEditorCorrectsHeadlessTextOnce: text dsh sized with its declared
// fallback (customData.dshMeasure "fallback") and that this browser
// measures differently is corrected by the first editor that opens the
// scene, in one revision whose request id says why; the mark goes, so no
// later open writes again. Text without the mark that measures
// differently (a file from another system) is left as it is on disk:
// opening never writes it.
func TestEditorCorrectsHeadlessTextOnce(t *testing.T) {
	w := newWorld(t)
	w.tool("excalidraw_scene_create", map[string]any{"name": "remeasure", "elements": []any{
		map[string]any{"type": "text", "id": "hindi", "x": 0, "y": 0, "text": "नमस्ते दुनिया", "fontSize": 20},
		map[string]any{"type": "text", "id": "latin", "x": 0, "y": 80, "text": "hello world", "fontSize": 20},
	}})
	// Make the file say what the test needs, as another writer could: the
	// Devanagari text marked as headless-measured with a width no browser
	// gives it, and the Latin one unmarked with a wrong width.
	var doc map[string]any
	if err := json.Unmarshal(w.sceneFile("remeasure"), &doc); err != nil {
		t.Fatal(err)
	}
	for _, e := range doc["elements"].([]any) {
		el := e.(map[string]any)
		switch el["id"] {
		case "hindi":
			el["width"] = 999.0
			el["customData"] = map[string]any{"dshMeasure": "fallback", "keep": "me"}
		case "latin":
			el["width"] = 500.0
			delete(el, "customData")
		}
	}
	w.put("remeasure", doc, 1)

	tab := w.browser
	w.openScene(tab, "remeasure")
	w.waitJS(tab, "the one correction", `window.dshEditor.state().revision === 3 && window.dshEditor.state().status === "saved"`)
	var after struct {
		Elements []map[string]any `json:"elements"`
	}
	if err := json.Unmarshal(w.sceneFile("remeasure"), &after); err != nil {
		t.Fatal(err)
	}
	measured := evalJS[float64](w, tab, `window.dshEditor.api.getSceneElements().find(e => e.id === "hindi").width`)
	for _, el := range after.Elements {
		switch el["id"] {
		case "hindi":
			if el["width"] != measured || el["width"] == 999.0 {
				t.Errorf("hindi width on disk %v, the browser measures %v", el["width"], measured)
			}
			if cd, _ := el["customData"].(map[string]any); cd["dshMeasure"] != nil || cd["keep"] != "me" {
				t.Errorf("hindi customData after the correction: %v", el["customData"])
			}
		case "latin":
			if el["width"] != 500.0 {
				t.Errorf("the unmarked text was rewritten: width %v", el["width"])
			}
		}
	}
	meta, err := os.ReadFile(filepath.Join(w.drawings, ".dsh-excalidraw", "remeasure.meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(meta), `"ui-remeasure-`) {
		t.Errorf("the correction is not attributed by its request id:\n%s", meta)
	}

	// Another open writes nothing.
	again := w.newTab()
	w.openScene(again, "remeasure")
	evalJS[bool](w, again, `document.fonts.ready.then(() => new Promise(r => setTimeout(() => r(true), 1500)))`)
	for _, r := range w.requests(again) {
		if strings.HasPrefix(r, "PUT ") {
			t.Errorf("a second open sent %s", r)
		}
	}
	if s := w.state(again); s.Revision != 3 {
		t.Errorf("a second open moved the scene to %+v", s)
	}
}

// put saves a whole scene over HTTP with the host's token, as the
// browser's save does.
func (w *world) put(name string, scene any, expected int64) {
	w.t.Helper()
	body, _ := json.Marshal(map[string]any{"scene": scene, "expected_revision": expected})
	req, _ := http.NewRequest(http.MethodPut, w.host.URL()+"/dsh-excalidraw/api/scenes/"+name, bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+w.host.Token())
	req.Header.Set("Content-Type", "application/json")
	resp, err := w.http.Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		w.t.Fatalf("PUT %s: %d", name, resp.StatusCode)
	}
}
