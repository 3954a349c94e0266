package agenttools

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// TestApplyOpsStepMeetsItsToolsSchema: each step of apply_ops is checked
// with the schema of the tool it names, so a wrong step is refused as a
// call of that tool is (the same code, problem, keyword and message), at
// the step's args, and nothing is written, not even the steps before it.
func TestApplyOpsStepMeetsItsToolsSchema(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")
	before := dirHash(t, e.dir)
	for _, c := range []struct{ tool, args, pointer string }{
		{MoveTool, `{"ids":["a"],"dx":2000000}`, "/dx"},
		{ReorderTool, `{"ids":["a"],"to":"top"}`, "/to"},
		{UpdateTool, `{"updates":[{"id":"a","patch":{"x":1},"colour":"red"}]}`, "/updates/0"},
		{ArrangeTool, `{"target":{"types":"rectangle"},"layout":"row"}`, "/target/types"},
		{CreateFrameTool, `{"box":{"x":0,"y":0,"width":0,"height":10}}`, "/box/width"},
	} {
		direct := e.fail(t, c.tool, `{"name":"flow",`+c.args[1:], invalidArguments)
		step := e.fail(t, ApplyOpsTool, `{"name":"flow","ops":[{"tool":"move_elements","args":{"ids":["b"],"dx":5}},`+
			`{"tool":"`+c.tool+`","args":`+c.args+`}]}`, invalidArguments)
		dp, sp := problems(t, direct), problems(t, step)
		if len(dp) != 1 || len(sp) != 1 {
			t.Fatalf("%s: want one problem each, got %v and %v", c.tool, dp, sp)
		}
		if dp[0]["pointer"] != c.pointer || sp[0]["pointer"] != "/ops/1/args"+c.pointer {
			t.Errorf("%s: pointers %v (direct) and %v (step)", c.tool, dp[0]["pointer"], sp[0]["pointer"])
		}
		if dp[0]["message"] != sp[0]["message"] || dp[0]["keyword"] != sp[0]["keyword"] {
			t.Errorf("%s: the step's problem %v differs from the tool's %v", c.tool, sp[0], dp[0])
		}
		if want := strings.Replace(direct["message"].(string), c.pointer+":", "/ops/1/args"+c.pointer+":", 1); step["message"] != want {
			t.Errorf("%s: message %q, want %q", c.tool, step["message"], want)
		}
	}
	if dirHash(t, e.dir) != before {
		t.Fatal("a refused apply_ops wrote")
	}
}

// problems are the schema problems an error lists (details.errors).
func problems(t *testing.T, eo map[string]any) []map[string]any {
	t.Helper()
	d, _ := eo["details"].(map[string]any)
	list, _ := d["errors"].([]any)
	out := make([]map[string]any, len(list))
	for i, p := range list {
		out[i], _ = p.(map[string]any)
	}
	return out
}

// TestApplyOpsListsItsSteps: the tools apply_ops's schema names are the
// tools it can run (stepDecoders), each with a step schema, the
// board-craft planners among them.
func TestApplyOpsListsItsSteps(t *testing.T) {
	var listed []string
	for _, tool := range elementTools(nil, nil) {
		if tool.Name != ApplyOpsTool {
			continue
		}
		var s struct {
			Properties struct {
				Ops struct {
					Items struct {
						Properties struct {
							Tool struct {
								Enum []string `json:"enum"`
							} `json:"tool"`
						} `json:"properties"`
					} `json:"items"`
				} `json:"ops"`
			} `json:"properties"`
		}
		if err := json.Unmarshal(tool.InputSchema, &s); err != nil {
			t.Fatal(err)
		}
		listed = s.Properties.Ops.Items.Properties.Tool.Enum
	}
	schemas, err := stepSchemas()
	if err != nil {
		t.Fatal(err)
	}
	if len(listed) != len(stepDecoders) || len(schemas) != len(stepDecoders) {
		t.Errorf("apply_ops lists %d tools, runs %d, checks %d", len(listed), len(stepDecoders), len(schemas))
	}
	for _, name := range listed {
		if stepDecoders[name] == nil || schemas[name] == nil {
			t.Errorf("apply_ops lists %s but cannot run or check it", name)
		}
	}
	for _, name := range []string{SetTableTool, CreateStackTool, LayoutFramesTool, SetLegendTool} {
		if !slices.Contains(listed, name) {
			t.Errorf("apply_ops does not list %s", name)
		}
	}
}
