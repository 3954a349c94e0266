package agenttools

import (
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// TestErrorCodes drives every error code an agent can reach through the
// tool surface, each from the input that should produce it.
func TestErrorCodes(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")
	cases := []struct {
		name, tool, args, code string
	}{
		{"read bad name", ReadTool, `{"name":"Bad Name"}`, "invalid_name"},
		{"create bad name", CreateTool, `{"name":"../etc"}`, "invalid_name"},
		{"apply bad name", ApplyTool, `{"name":"-x","expected_revision":1,"operations":[{"op":"delete","id":"a"}]}`, "invalid_name"},
		{"read missing", ReadTool, `{"name":"nope"}`, "not_found"},
		{"apply missing scene", ApplyTool, `{"name":"nope","expected_revision":1,"operations":[{"op":"delete","id":"a"}]}`, "not_found"},
		{"apply missing element", ApplyTool, `{"name":"flow","expected_revision":1,"operations":[{"op":"delete","id":"zz"}]}`, "not_found"},
		{"create existing", CreateTool, `{"name":"flow"}`, "already_exists"},
		{"invalid attachment", CreateTool, `{"name":"img","files":{"f":{"id":"f","mimeType":"image/png","dataURL":"nope"}}}`, "invalid_scene"},
		{"unknown argument", ReadTool, `{"name":"flow","mode":"full"}`, "invalid_operation"},
		{"bad include", ReadTool, `{"name":"flow","include":"all"}`, "invalid_operation"},
		{"element_type without summary", ReadTool, `{"name":"flow","element_type":"arrow"}`, "invalid_operation"},
		{"no operations", ApplyTool, `{"name":"flow","expected_revision":1,"operations":[]}`, "invalid_operation"},
		{"unknown op", ApplyTool, `{"name":"flow","expected_revision":1,"operations":[{"op":"move","id":"a"}]}`, "invalid_operation"},
		{"unknown element field", CreateTool, `{"name":"x1","elements":[{"type":"rectangle","colour":"red"}]}`, "invalid_operation"},
		{"app_state typo", CreateTool, `{"name":"x2","app_state":{"theme":"dark"}}`, "invalid_operation"},
		{"frame", CreateTool, `{"name":"x3","elements":[{"type":"frame"}]}`, "unsupported_element"},
		{"unknown type in add", ApplyTool, `{"name":"flow","expected_revision":1,"operations":[{"op":"add","element":{"type":"blob"}}]}`, "unsupported_element"},
		{"duplicate id", CreateTool, `{"name":"x4","elements":[{"type":"rectangle","id":"d","x":0,"y":0},{"type":"ellipse","id":"d","x":0,"y":0}]}`, "duplicate_id"},
		{"duplicate id in add", ApplyTool, `{"name":"flow","expected_revision":1,"operations":[{"op":"add","element":{"type":"rectangle","id":"a","x":0,"y":0}}]}`, "duplicate_id"},
		{"dangling arrow", CreateTool, `{"name":"x5","elements":[{"type":"arrow","startElementId":"zz","endElementId":"yy"}]}`, "invalid_reference"},
		{"create request_id too odd", CreateTool, `{"name":"x6","request_id":"` + strings.Repeat("r", 5000) + `"}`, "invalid_operation"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e.fail(t, tc.tool, tc.args, tc.code)
		})
	}
	// Nothing above may have written a scene.
	if rows := e.ok(t, ListTool, `{}`)["scenes"].([]any); len(rows) != 1 {
		t.Fatalf("failed calls left scenes behind: %v", rows)
	}
}

func TestRevisionConflictCarriesDetails(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")
	e.ok(t, ApplyTool, `{"name":"flow","expected_revision":1,"operations":[{"op":"update","id":"a","patch":{"x":10}}]}`)
	eo := e.fail(t, ApplyTool, `{"name":"flow","expected_revision":1,"operations":[{"op":"update","id":"a","patch":{"x":20}}]}`, "revision_conflict")
	d, _ := eo["details"].(map[string]any)
	if d == nil || num(t, d["currentRevision"]) != 2 || num(t, d["expectedRevision"]) != 1 {
		t.Fatalf("conflict details: %v", eo)
	}
	wantKeys(t, "conflict details", d, "currentSha256")
}

func TestLimits(t *testing.T) {
	t.Run("too_many_elements", func(t *testing.T) {
		e := newEnv(t, scene.Limits{MaxElements: 2})
		e.fail(t, CreateTool, `{"name":"big","elements":[{"type":"rectangle","x":0,"y":0},{"type":"rectangle","x":0,"y":0},{"type":"rectangle","x":0,"y":0}]}`, "too_many_elements")
	})
	t.Run("too_large", func(t *testing.T) {
		e := newEnv(t, scene.Limits{MaxSceneBytes: 2048})
		els := `[` + strings.TrimSuffix(strings.Repeat(`{"type":"rectangle","x":0,"y":0},`, 20), ",") + `]`
		e.fail(t, CreateTool, `{"name":"big","elements":`+els+`}`, "too_large")
	})
}
