package httpapi

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestSaveSaysWhatItRepaired: a PUT of a scene with three elements sharing
// one id and an arrow bound to nothing answers 200 and lists the repairs
// (the two renamed ids, the dropped binding); a clean PUT has no repairs.
func TestSaveSaysWhatItRepaired(t *testing.T) {
	e := newEnv(t, nil)
	expect(t, e.do(http.MethodPost, api+"/scenes", map[string]any{"name": "dup"}), http.StatusCreated, "")
	a1, a2, a3 := rectangle("a"), rectangle("a"), rectangle("a")
	a2["index"], a3["index"] = "a1", "a2"
	var arrow map[string]any
	_ = json.Unmarshal([]byte(`{"id":"arr","type":"arrow","x":0,"y":0,"width":50,"height":0,"index":"a3",
		"points":[[0,0],[50,0]],"startBinding":null,"endBinding":{"elementId":"gone","focus":0,"gap":1}}`), &arrow)
	doc := map[string]any{"type": "excalidraw", "version": 2, "elements": []any{a1, a2, a3, arrow}}
	r := e.do(http.MethodPut, api+"/scenes/dup", map[string]any{"scene": doc, "expected_revision": 1, "request_id": "r1"})
	expect(t, r, http.StatusOK, "")
	repairs, _ := r.body["repairs"].([]any)
	seen := map[string]int{}
	for _, x := range repairs {
		rep := x.(map[string]any)
		code, _ := rep["code"].(string)
		seen[code]++
		switch code {
		case "duplicate_id_renamed":
			if rep["id"] != "a" || rep["newId"] == nil || rep["newId"] == "a" || (rep["pointer"] != "/elements/1/id" && rep["pointer"] != "/elements/2/id") {
				t.Errorf("rename %v", rep)
			}
		case "binding_dropped":
			if rep["id"] != "arr" || rep["pointer"] != "/elements/3/endBinding" || rep["ref"] != "gone" {
				t.Errorf("binding %v", rep)
			}
		}
	}
	if seen["duplicate_id_renamed"] != 2 || seen["binding_dropped"] != 1 {
		t.Fatalf("repairs: %s", r.raw)
	}

	read := e.do(http.MethodGet, api+"/scenes/dup", nil)
	r = e.do(http.MethodPut, api+"/scenes/dup", map[string]any{"scene": read.body["scene"], "expected_revision": num(t, read.body, "revision"), "request_id": "r2"})
	expect(t, r, http.StatusOK, "")
	if _, has := r.body["repairs"]; has {
		t.Fatalf("clean save: %s", r.raw)
	}
}
