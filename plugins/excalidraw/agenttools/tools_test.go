package agenttools

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/tools"
)

func TestToolsRegisterWithContractNamesAndAnnotations(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	want := map[string]tools.Annotations{
		ListTool:     {ReadOnly: true, Idempotent: true},
		ReadTool:     {ReadOnly: true, Idempotent: true},
		CreateTool:   {},
		ApplyTool:    {Destructive: true},
		ValidateTool: {ReadOnly: true, Idempotent: true},
	}
	if e.reg.Len() != len(Tools(nil)) {
		t.Fatalf("registered %d tools, want %d", e.reg.Len(), len(Tools(nil)))
	}
	for _, tool := range Tools(nil) {
		if _, ok := want[tool.Name]; !ok {
			want[tool.Name] = tool.Annotations
			want[tool.Name] = tools.Annotations{ReadOnly: tool.Annotations.ReadOnly, Idempotent: tool.Annotations.Idempotent, Destructive: tool.Annotations.Destructive}
		}
	}
	for name, ann := range want {
		d, ok := e.reg.Lookup(name)
		if !ok {
			t.Fatalf("%s not registered", name)
		}
		got := d.Annotations
		if got.Title == "" {
			t.Errorf("%s: no title", name)
		}
		got.Title = ""
		if got != ann {
			t.Errorf("%s annotations = %+v, want %+v", name, got, ann)
		}
		var schema map[string]any
		if err := json.Unmarshal(d.InputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		if schema["type"] != "object" || schema["additionalProperties"] != false {
			t.Errorf("%s: schema root not a closed object: %s", name, d.InputSchema)
		}
		if strings.Contains(string(d.InputSchema), `"pattern":"^[a-z0-9]`) {
			t.Errorf("%s: scene-name pattern must be left to the service", name)
		}
	}
}

func TestDescriptionsMentionWhatAgentsNeed(t *testing.T) {
	for _, tool := range Tools(nil) {
		if len(tool.Description) < 80 {
			t.Errorf("%s: description too thin", tool.Name)
		}
	}
	for _, s := range []string{"expected_revision", "all-or-nothing", `"op":"add"`, `"op":"update"`, `"op":"delete"`} {
		if !strings.Contains(applyDescription, s) {
			t.Errorf("apply description does not mention %s", s)
		}
	}
	// The rest of what an apply answers is read_me's (the tools/list
	// budget).
	_, apply, _ := strings.Cut(Guide(), "\n## "+ApplyTool+"\n")
	for _, s := range []string{"request_id", "duplicate:true", "unchanged:true", "revision_conflict", "details {limit, max, actual}"} {
		if !strings.Contains(apply, s) {
			t.Errorf("read_me's %s section does not mention %s", ApplyTool, s)
		}
	}
	if !strings.Contains(readDescription, "cheaper") {
		t.Error("read description does not say summary is cheaper")
	}
}

func TestSuccessShapes(t *testing.T) {
	e := newEnv(t, scene.Limits{})

	empty := e.ok(t, ListTool, `{}`)
	if rows, ok := empty["scenes"].([]any); !ok || len(rows) != 0 {
		t.Fatalf("empty list: %v", empty)
	}

	created := e.ok(t, CreateTool, `{"name":"flow","elements":`+flowElements+`,"app_state":{"viewBackgroundColor":"#fafafa","gridSize":null},"request_id":"c1"}`)
	wantKeys(t, "create", created, "name", "revision", "sha256", "byteLength", "elementCount", "savedAt", "verified", "summary", "duplicate")
	if num(t, created["revision"]) != 1 || created["verified"] != true {
		t.Fatalf("create: %v", created)
	}

	list := e.ok(t, ListTool, ``)
	rows := list["scenes"].([]any)
	if len(rows) != 1 {
		t.Fatalf("list: %v", list)
	}
	wantKeys(t, "list row", rows[0].(map[string]any), "name", "revision", "elementCount", "byteLength", "updatedAt", "updatedBy", "sha256", "valid")

	full := e.ok(t, ReadTool, `{"name":"flow"}`)
	wantKeys(t, "read full", full, "name", "revision", "sha256", "updatedAt", "updatedBy", "byteLength", "scene")
	if full["updatedBy"] != "agent" || full["sha256"] != created["sha256"] {
		t.Fatalf("read full: updatedBy %v sha %v", full["updatedBy"], full["sha256"])
	}
	if _, ok := full["scene"].(map[string]any)["elements"]; !ok {
		t.Fatal("full read has no scene elements")
	}

	sum := e.ok(t, ReadTool, `{"name":"flow","include":"summary","element_type":"arrow"}`)
	wantKeys(t, "read summary", sum, "name", "revision", "sha256", "summary")
	if _, has := sum["scene"]; has {
		t.Fatal("summary read carries the scene")
	}
	els := sum["summary"].(map[string]any)["elements"].([]any)
	if len(els) != 1 || els[0].(map[string]any)["id"] != "ab" {
		t.Fatalf("summary filtered by arrow: %v", els)
	}

	applied := e.ok(t, ApplyTool, `{"name":"flow","expected_revision":1,"operations":[`+
		`{"op":"add","element":{"type":"text","id":"t","x":0,"y":200,"text":"note"}},`+
		`{"op":"update","id":"b","patch":{"x":500}},{"op":"delete","id":"a"}]}`)
	wantKeys(t, "apply", applied, "name", "revision", "previousRevision", "sha256", "byteLength", "elementCount", "savedAt", "verified", "duplicate", "operations", "summary")
	ops := applied["operations"].(map[string]any)
	if num(t, applied["revision"]) != 2 || num(t, applied["previousRevision"]) != 1 ||
		num(t, ops["added"]) != 1 || num(t, ops["updated"]) != 1 || num(t, ops["deleted"]) != 1 || applied["duplicate"] != false {
		t.Fatalf("apply: %v", applied)
	}

	valid := e.ok(t, ValidateTool, `{"scene":`+string(e.fileBytes(t, "flow"))+`}`)
	wantKeys(t, "validate", valid, "valid", "diagnostics", "stats")
	if valid["valid"] != true {
		t.Fatalf("stored scene does not validate: %v", valid)
	}
	if d, ok := valid["diagnostics"].([]any); !ok || len(d) != 0 {
		t.Fatalf("diagnostics of a clean scene: %v", valid["diagnostics"])
	}

	bad := e.ok(t, ValidateTool, `{"scene":{"type":"excalidraw","version":2,"elements":[{"type":"rectangle","id":"x"},{"type":"rectangle","id":"x"}]}}`)
	if bad["valid"] != false || len(bad["diagnostics"].([]any)) == 0 {
		t.Fatalf("broken scene validated: %v", bad)
	}
}
