package agenttools

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// TestToolsRefuseBadAppState: create and apply refuse an app state a write
// may not store with invalid_operation at /app_state/<member>; create
// makes no scene and apply leaves the file as it was.
func TestToolsRefuseBadAppState(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")
	before := e.fileBytes(t, "flow")
	long := `"` + strings.Repeat("a", 1000000) + `"`
	cases := []struct{ appState, member string }{
		{`{"gridSize":-5}`, "gridSize"},
		{`{"viewBackgroundColor":` + long + `}`, "viewBackgroundColor"},
	}
	for _, c := range cases {
		t.Run(c.member, func(t *testing.T) {
			eo := e.fail(t, CreateTool, `{"name":"fresh","app_state":`+c.appState+`}`, "invalid_operation")
			if d, _ := eo["details"].(map[string]any); d["pointer"] != "/app_state/"+c.member {
				t.Fatalf("create: %v", eo)
			}
			if _, err := os.Stat(filepath.Join(e.dir, "fresh.excalidraw")); !os.IsNotExist(err) {
				t.Fatalf("create made a scene: %v", err)
			}
			eo = e.fail(t, ApplyTool, `{"name":"flow","expected_revision":1,"app_state":`+c.appState+
				`,"operations":[{"op":"update","id":"b","patch":{"x":450}}]}`, "invalid_operation")
			if d, _ := eo["details"].(map[string]any); d["pointer"] != "/app_state/"+c.member {
				t.Fatalf("apply: %v", eo)
			}
			if !bytes.Equal(e.fileBytes(t, "flow"), before) {
				t.Fatal("apply changed the file")
			}
		})
	}
}
