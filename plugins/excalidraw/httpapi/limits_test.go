package httpapi

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// newEnvAt is newEnv on dir (which may hold scenes already) under lim.
// close ends the service and the server early, so the same directory can
// be opened again under other limits.
func newEnvAt(t *testing.T, dir string, lim scene.Limits) (e *env, close func()) {
	t.Helper()
	svc, err := service.New(service.Config{DrawingsDir: dir, Limits: lim, LockTimeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	srv := webserver.New(webserver.Config{Listen: "127.0.0.1:0", MaxBodyBytes: 1 << 20}, nil,
		func() connection.Admitter { return admitAll{} })
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Mount("excalidraw", Routes(Options{Service: svc, Limits: lim.Effective()})...); err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	done := false
	close = func() {
		if done {
			return
		}
		done = true
		tr.CloseIdleConnections()
		if err := srv.Shutdown(context.Background()); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		_ = svc.Close()
	}
	t.Cleanup(close)
	return &env{t: t, base: srv.URL(), client: &http.Client{Transport: tr}, dir: dir}, close
}

// TestLoweredLimitInTheBrowser: the browser opens a scene written under a
// higher maxElements after the limit was lowered. GET and the listing
// work; a save that adds an element is 422 too_many_elements with details
// naming the limit; a save that deletes enough (as the editor does, with
// tombstones) is accepted.
func TestLoweredLimitInTheBrowser(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drawings")
	hi, closeHi := newEnvAt(t, dir, scene.Limits{MaxElements: 10})
	expect(t, hi.do(http.MethodPost, api+"/scenes", map[string]any{"name": "big"}), http.StatusCreated, "")
	doc := hi.do(http.MethodGet, api+"/scenes/big", nil).body["scene"].(map[string]any)
	doc["elements"] = []any{rectangle("r0"), rectangle("r1"), rectangle("r2"), rectangle("r3"), rectangle("r4")}
	for i, el := range doc["elements"].([]any) {
		el.(map[string]any)["index"] = "a" + string(rune('0'+i))
	}
	expect(t, hi.do(http.MethodPut, api+"/scenes/big", map[string]any{"scene": doc, "expected_revision": 1}), http.StatusOK, "")
	closeHi()
	stored, err := os.ReadFile(filepath.Join(dir, "big.excalidraw"))
	if err != nil {
		t.Fatal(err)
	}

	e, closeE := newEnvAt(t, dir, scene.Limits{MaxElements: 3})
	r := e.do(http.MethodGet, api+"/scenes/big", nil)
	expect(t, r, http.StatusOK, "")
	if num(t, r.body, "revision") != 2 || len(r.body["scene"].(map[string]any)["elements"].([]any)) != 5 {
		t.Fatalf("read over the lowered limit: %s", r.raw)
	}
	doc = r.body["scene"].(map[string]any)
	r = e.do(http.MethodGet, api+"/scenes", nil)
	expect(t, r, http.StatusOK, "")
	if row := r.body["scenes"].([]any)[0].(map[string]any); row["valid"] != true || num(t, row, "elementCount") != 5 {
		t.Fatalf("list: %s", r.raw)
	}

	more := rectangle("r5")
	more["index"] = "a5"
	grown := map[string]any{}
	for k, v := range doc {
		grown[k] = v
	}
	grown["elements"] = append(append([]any{}, doc["elements"].([]any)...), more)
	r = e.do(http.MethodPut, api+"/scenes/big", map[string]any{"scene": grown, "expected_revision": 2})
	expect(t, r, http.StatusUnprocessableEntity, "too_many_elements")
	if d := r.details(); d["limit"] != "maxElements" || num(t, d, "max") != 3 || num(t, d, "actual") != 6 {
		t.Fatalf("details: %s", r.raw)
	}
	if msg := r.body["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "(maxElements)") {
		t.Fatalf("message: %s", r.raw)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "big.excalidraw")); !bytes.Equal(now, stored) {
		t.Fatal("the refused save changed the file")
	}

	// The editor deletes by tombstoning; three live elements are within the limit.
	for _, el := range doc["elements"].([]any)[3:] {
		el.(map[string]any)["isDeleted"] = true
	}
	r = e.do(http.MethodPut, api+"/scenes/big", map[string]any{"scene": doc, "expected_revision": 2})
	expect(t, r, http.StatusOK, "")
	if num(t, r.body, "revision") != 3 || num(t, r.body, "elementCount") != 5 {
		t.Fatalf("save within the limit: %s", r.raw)
	}

	closeE()

	// maxSceneBytes lowered below the file: still served to the editor.
	small, _ := newEnvAt(t, dir, scene.Limits{MaxSceneBytes: 1024})
	r = small.do(http.MethodGet, api+"/scenes/big", nil)
	expect(t, r, http.StatusOK, "")
	if num(t, r.body, "byteLength") <= 1024 {
		t.Fatalf("the scene is not over the lowered limit: %s", r.raw)
	}
	r = small.do(http.MethodGet, api+"/scenes", nil)
	if row := r.body["scenes"].([]any)[0].(map[string]any); row["valid"] != true {
		t.Fatalf("list: %s", r.raw)
	}
}
