package httpapi

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSceneLifecycle walks the editor's path: create, list, read, save
// on the read revision, a stale save (conflict with the details the
// conflict dialog needs), the explicit overwrite, and the next revision.
func TestSceneLifecycle(t *testing.T) {
	e := newEnv(t, nil)

	r := e.do(http.MethodPost, api+"/scenes", map[string]any{"name": "plan"})
	expect(t, r, http.StatusCreated, "")
	if num(t, r.body, "revision") != 1 || r.body["name"] != "plan" {
		t.Fatalf("create: %s", r.raw)
	}

	r = e.do(http.MethodGet, api+"/scenes", nil)
	expect(t, r, http.StatusOK, "")
	list, _ := r.body["scenes"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["name"] != "plan" {
		t.Fatalf("list: %s", r.raw)
	}

	r = e.do(http.MethodGet, api+"/scenes/plan", nil)
	expect(t, r, http.StatusOK, "")
	if num(t, r.body, "revision") != 1 || len(r.body["sha256"].(string)) != 64 {
		t.Fatalf("read: %s", r.raw)
	}
	doc, ok := r.body["scene"].(map[string]any)
	if !ok || doc["type"] != "excalidraw" {
		t.Fatalf("read scene: %s", r.raw)
	}
	if r.body["updatedBy"] != "ui" {
		t.Fatalf("created by %v, want ui", r.body["updatedBy"])
	}

	doc["elements"] = []any{rectangle("r1")}
	r = e.do(http.MethodPut, api+"/scenes/plan", map[string]any{"scene": doc, "expected_revision": 1, "request_id": "req-1"})
	expect(t, r, http.StatusOK, "")
	if num(t, r.body, "revision") != 2 || num(t, r.body, "elementCount") != 1 || r.body["verified"] != true {
		t.Fatalf("save: %s", r.raw)
	}

	// Same base revision again, another edit, new request id: someone
	// else saved first. (The same bytes again would lose nothing, and be
	// unchanged rather than a conflict.)
	doc["elements"] = []any{rectangle("r1"), rectangle("r2")}
	r = e.do(http.MethodPut, api+"/scenes/plan", map[string]any{"scene": doc, "expected_revision": 1, "request_id": "req-2"})
	expect(t, r, http.StatusConflict, "revision_conflict")
	if d := r.details(); d == nil || num(t, d, "currentRevision") != 2 || num(t, d, "expectedRevision") != 1 {
		t.Fatalf("conflict details: %s", r.raw)
	}

	r = e.do(http.MethodPut, api+"/scenes/plan", map[string]any{"scene": doc, "expected_revision": 1, "request_id": "req-3", "force": true})
	expect(t, r, http.StatusOK, "")
	if num(t, r.body, "revision") != 3 {
		t.Fatalf("force save: %s", r.raw)
	}

	r = e.do(http.MethodGet, api+"/scenes/plan", nil)
	if num(t, r.body, "revision") != 3 {
		t.Fatalf("after force: %s", r.raw)
	}
}

// TestSaveRetryIsDuplicate: a retried save (lost response) with the same
// request id returns the original commit instead of a conflict.
func TestSaveRetryIsDuplicate(t *testing.T) {
	e := newEnv(t, nil)
	expect(t, e.do(http.MethodPost, api+"/scenes", map[string]any{"name": "retry"}), http.StatusCreated, "")
	doc := e.do(http.MethodGet, api+"/scenes/retry", nil).body["scene"]
	body := map[string]any{"scene": doc, "expected_revision": 1, "request_id": "same"}
	first := e.do(http.MethodPut, api+"/scenes/retry", body)
	expect(t, first, http.StatusOK, "")
	again := e.do(http.MethodPut, api+"/scenes/retry", body)
	expect(t, again, http.StatusOK, "")
	if again.body["duplicate"] != true || num(t, again.body, "revision") != 2 {
		t.Fatalf("retry: %s", again.raw)
	}
}

func TestCreateWithElements(t *testing.T) {
	e := newEnv(t, nil)
	r := e.do(http.MethodPost, api+"/scenes", map[string]any{
		"name":     "boxes",
		"elements": []any{map[string]any{"type": "rectangle", "x": 0, "y": 0, "width": 50, "height": 40}},
	})
	expect(t, r, http.StatusCreated, "")
	if num(t, r.body, "elementCount") != 1 {
		t.Fatalf("create with elements: %s", r.raw)
	}
	expect(t, e.do(http.MethodPost, api+"/scenes", map[string]any{"name": "boxes"}), http.StatusConflict, "already_exists")
}

func TestSceneErrors(t *testing.T) {
	e := newEnv(t, nil)
	expect(t, e.do(http.MethodPost, api+"/scenes", map[string]any{"name": "here"}), http.StatusCreated, "")
	doc := e.do(http.MethodGet, api+"/scenes/here", nil).body["scene"]

	cases := []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"create bad name", http.MethodPost, api + "/scenes", map[string]any{"name": "../evil"}, 400, "invalid_name"},
		{"create empty name", http.MethodPost, api + "/scenes", map[string]any{"name": ""}, 400, "invalid_name"},
		{"read bad name", http.MethodGet, api + "/scenes/..%2fetc", nil, 400, "invalid_name"},
		{"read missing", http.MethodGet, api + "/scenes/nothing", nil, 404, "not_found"},
		{"save missing", http.MethodPut, api + "/scenes/nothing", map[string]any{"scene": doc, "expected_revision": 1, "request_id": "x"}, 404, "not_found"},
		{"save bad name", http.MethodPut, api + "/scenes/.hidden", map[string]any{"scene": doc, "expected_revision": 1, "request_id": "x"}, 400, "invalid_name"},
		{"malformed json", http.MethodPost, api + "/scenes", `{"name":`, 422, "invalid_operation"},
		{"empty body", http.MethodPost, api + "/scenes", "", 422, "invalid_operation"},
		{"trailing data", http.MethodPost, api + "/scenes", `{"name":"a"} {}`, 422, "invalid_operation"},
		{"wrong type", http.MethodPost, api + "/scenes", `{"name":7}`, 422, "invalid_operation"},
		{"unknown field", http.MethodPost, api + "/scenes", `{"name":"a","colour":"red"}`, 422, "invalid_operation"},
		{"no expected revision", http.MethodPut, api + "/scenes/here", map[string]any{"scene": doc, "request_id": "x"}, 422, "invalid_operation"},
		{"no scene", http.MethodPut, api + "/scenes/here", map[string]any{"expected_revision": 1, "request_id": "x"}, 422, "invalid_scene"},
		{"not a scene", http.MethodPut, api + "/scenes/here", map[string]any{"scene": []int{1}, "expected_revision": 1, "request_id": "x"}, 422, "invalid_scene"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.with(t).do(tc.method, tc.path, tc.body)
			expect(t, r, tc.status, tc.code)
			if msg, _ := r.body["error"].(map[string]any)["message"].(string); msg == "" {
				t.Fatalf("no message: %s", r.raw)
			}
			if !strings.HasPrefix(r.header.Get("Content-Type"), "application/json") {
				t.Fatalf("content type %q", r.header.Get("Content-Type"))
			}
		})
	}
}

// TestBodyTooLarge: the web server's body limit surfaces as too_large in
// the contract's error shape.
func TestBodyTooLarge(t *testing.T) {
	e := newEnv(t, nil)
	big := `{"name":"` + strings.Repeat("a", 2<<20) + `"}`
	r := e.do(http.MethodPost, api+"/scenes", big)
	if r.status != http.StatusRequestEntityTooLarge || r.code() != "too_large" {
		t.Fatalf("got %d %s", r.status, r.raw)
	}
}

// rectangle is a complete element as the editor would send it.
func rectangle(id string) map[string]any {
	var m map[string]any
	_ = json.Unmarshal([]byte(`{
		"id": "`+id+`", "type": "rectangle", "x": 10, "y": 20, "width": 100, "height": 50,
		"angle": 0, "strokeColor": "#1e1e1e", "backgroundColor": "transparent",
		"fillStyle": "solid", "strokeWidth": 2, "strokeStyle": "solid", "roughness": 1,
		"opacity": 100, "groupIds": [], "frameId": null, "index": "a0", "roundness": null,
		"seed": 1, "version": 1, "versionNonce": 1, "isDeleted": false,
		"boundElements": null, "updated": 1, "link": null, "locked": false
	}`), &m)
	return m
}

// TestSaveOfSameSceneIsUnchanged: the editor saves the scene it has, then
// saves it again without an edit (and once more forced, and once on a
// stale base). The repeats answer unchanged:true with the current
// revision and write nothing: no revision, no backup.
func TestSaveOfSameSceneIsUnchanged(t *testing.T) {
	e := newEnv(t, nil)
	expect(t, e.do(http.MethodPost, api+"/scenes", map[string]any{"name": "same"}), http.StatusCreated, "")
	doc := e.do(http.MethodGet, api+"/scenes/same", nil).body["scene"].(map[string]any)
	doc["elements"] = []any{rectangle("r1")}
	first := e.do(http.MethodPut, api+"/scenes/same", map[string]any{"scene": doc, "expected_revision": 1, "request_id": "a"})
	expect(t, first, http.StatusOK, "")
	if first.body["unchanged"] != false || num(t, first.body, "revision") != 2 {
		t.Fatalf("first save: %s", first.raw)
	}
	backupsDir := filepath.Join(e.dir, ".dsh-excalidraw", "backups")
	before, _ := os.ReadDir(backupsDir)
	for _, body := range []map[string]any{
		{"scene": doc, "expected_revision": 2, "request_id": "b"},
		{"scene": doc, "expected_revision": 1, "request_id": "c", "force": true},
		{"scene": doc, "expected_revision": 1, "request_id": "d"},
	} {
		r := e.do(http.MethodPut, api+"/scenes/same", body)
		expect(t, r, http.StatusOK, "")
		if r.body["unchanged"] != true || num(t, r.body, "revision") != 2 || r.body["sha256"] != first.body["sha256"] ||
			r.body["verified"] != true || num(t, r.body, "byteLength") != num(t, first.body, "byteLength") ||
			num(t, r.body, "elementCount") != 1 {
			t.Fatalf("repeat save %v: %s", body, r.raw)
		}
	}
	if after, _ := os.ReadDir(backupsDir); len(after) != len(before) {
		t.Fatalf("backups %d, were %d", len(after), len(before))
	}
	if r := e.do(http.MethodGet, api+"/scenes/same", nil); num(t, r.body, "revision") != 2 {
		t.Fatalf("head moved: %s", r.raw)
	}
}
