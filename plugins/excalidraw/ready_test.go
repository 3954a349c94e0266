package excalidraw_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/health"
)

// TestReadyzExcalidraw: on the file store the plugin's store check joins
// the host's; a drawings directory gone turns /readyz 503 naming it, and
// unloading the plugin removes its check and the host names the entry.
func TestReadyzExcalidraw(t *testing.T) {
	dataDir := t.TempDir()
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.ConfigYAML(dataDir, "", "  - {id: drawings, name: excalidraw}\n"))))
	if err := hosttest.Scope(t, h, "drawings").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	c := hosttest.Client(t)
	probe := func() (int, map[string]health.Result) {
		t.Helper()
		r := hosttest.Send(t, c, http.MethodGet, h.URL()+health.Path, "")
		var body struct {
			Checks []health.Result
			Error  struct {
				Details struct{ Checks []health.Result }
			}
		}
		if err := json.Unmarshal([]byte(r.Body), &body); err != nil {
			t.Fatalf("/readyz: %d %s", r.Status, r.Body)
		}
		checks := map[string]health.Result{}
		for _, c := range append(body.Checks, body.Error.Details.Checks...) {
			checks[c.Name] = c
		}
		return r.Status, checks
	}

	status, checks := probe()
	if status != http.StatusOK || !checks["excalidraw.store"].OK || !checks["plugins"].OK || !checks["storage"].OK {
		t.Fatalf("ready: %d %+v", status, checks)
	}
	if _, on := checks["excalidraw.migrations"]; on {
		t.Fatalf("the file store has no migrations to check: %+v", checks)
	}

	drawings := filepath.Join(dataDir, "excalidraw", "drawings")
	if err := os.Rename(drawings, drawings+".away"); err != nil {
		t.Fatal(err)
	}
	status, checks = probe()
	if status != http.StatusServiceUnavailable || len(checks) != 1 || !strings.Contains(checks["excalidraw.store"].Reason, "no such file") {
		t.Fatalf("the drawings directory gone: %d %+v", status, checks)
	}
	if strings.Contains(checks["excalidraw.store"].Reason, dataDir) {
		t.Fatalf("the reason names a path: %q", checks["excalidraw.store"].Reason)
	}
	if err := os.Rename(drawings+".away", drawings); err != nil {
		t.Fatal(err)
	}

	if err := h.UnloadPlugin(hosttest.Context(t), "drawings"); err != nil {
		t.Fatal(err)
	}
	status, checks = probe()
	if _, still := checks["excalidraw.store"]; status != http.StatusServiceUnavailable || still || !strings.Contains(checks["plugins"].Reason, "drawings (excalidraw) is unloaded") {
		t.Fatalf("the plugin unloaded: %d %+v", status, checks)
	}
}
