package agenttools

import (
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// flowApply wraps one operation into excalidraw_scene_apply arguments for
// the "flow" scene at revision 1.
func flowApply(op string) string {
	return `{"name":"flow","expected_revision":1,"operations":[` + op + `]}`
}

// schemaProblem calls tool with args, which must fail the input schema
// with invalid_operation, checks that the message is at most two lines
// and short, and that exactly one problem is reported, at pointer, whose
// message contains every fragment. It returns the result's size in bytes.
func schemaProblem(t *testing.T, e *env, tool, args, pointer string, fragments ...string) int {
	t.Helper()
	res := e.call(t, tool, args)
	eo := e.fail(t, tool, args, invalidArguments)
	msg := eo["message"].(string)
	if n := strings.Count(msg, "\n") + 1; n > 2 {
		t.Errorf("message has %d lines:\n%s", n, msg)
	}
	if len(msg) >= 300 {
		t.Errorf("message is %d bytes: %s", len(msg), msg)
	}
	details, _ := eo["details"].(map[string]any)
	problems, _ := details["errors"].([]any)
	if len(problems) != 1 {
		t.Fatalf("want exactly one problem, got %d: %s", len(problems), res.JSON)
	}
	p, _ := problems[0].(map[string]any)
	if p["pointer"] != pointer {
		t.Fatalf("pointer = %v, want %s: %s", p["pointer"], pointer, res.JSON)
	}
	pm, _ := p["message"].(string)
	for _, f := range fragments {
		if !strings.Contains(pm, f) {
			t.Errorf("problem message %q lacks %q", pm, f)
		}
	}
	if !strings.Contains(msg, pointer+": "+pm) {
		t.Errorf("message %q does not show the problem %q", msg, pointer+": "+pm)
	}
	return len(res.JSON)
}

// TestSchemaErrorsNameTheMeantBranch drives malformed calls through the
// registry with the real tool schemas: each gets the one problem of the
// operation and element type it meant, not one per oneOf branch.
func TestSchemaErrorsNameTheMeantBranch(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")

	t.Run("wrong-typed field in an added rectangle", func(t *testing.T) {
		n := schemaProblem(t, e, ApplyTool, flowApply(`{"op":"add","element":{"type":"rectangle","x":"10","y":0}}`),
			"/operations/0/element/x", "expected number, got string")
		t.Logf("error result: %d bytes", n)
	})
	t.Run("wrong op", func(t *testing.T) {
		schemaProblem(t, e, ApplyTool, flowApply(`{"op":"ad","element":{"type":"rectangle","x":10,"y":0}}`),
			"/operations/0/op", `must be one of "add", "update", "delete"`)
	})
	t.Run("missing op", func(t *testing.T) {
		schemaProblem(t, e, ApplyTool, flowApply(`{"element":{"type":"rectangle","x":10,"y":0}}`),
			"/operations/0/op", "missing", `"add", "update", "delete"`)
	})
	t.Run("missing required field in an update", func(t *testing.T) {
		schemaProblem(t, e, ApplyTool, flowApply(`{"op":"update","patch":{"x":1}}`),
			"/operations/0", `missing required property "id"`)
	})
	t.Run("additional property in an added rectangle", func(t *testing.T) {
		schemaProblem(t, e, ApplyTool, flowApply(`{"op":"add","element":{"type":"rectangle","x":10,"y":0,"colour":"red"}}`),
			"/operations/0/element", `unknown property "colour"`)
	})
	t.Run("bad enum value in an added rectangle", func(t *testing.T) {
		schemaProblem(t, e, ApplyTool, flowApply(`{"op":"add","element":{"type":"rectangle","x":10,"y":0,"fillStyle":"bogus"}}`),
			"/operations/0/element/fillStyle", `must be one of "hachure", "cross-hatch", "solid", "zigzag"`)
	})
	t.Run("bad arrowhead in an update patch", func(t *testing.T) {
		schemaProblem(t, e, ApplyTool, flowApply(`{"op":"update","id":"a","patch":{"startArrowhead":"bogus"}}`),
			"/operations/0/patch/startArrowhead", `must be one of "arrow", "bar"`)
	})
	t.Run("wrong-typed field in a created ellipse", func(t *testing.T) {
		schemaProblem(t, e, CreateTool, `{"name":"x1","elements":[{"type":"rectangle","x":0,"y":0},{"type":"ellipse","x":0,"y":0,"width":"wide"}]}`,
			"/elements/1/width", "expected number, got string")
	})
	t.Run("missing element type", func(t *testing.T) {
		schemaProblem(t, e, ApplyTool, flowApply(`{"op":"add","element":{"x":10,"y":0}}`),
			"/operations/0/element", `missing required property "type"`)
	})
}

// TestUnknownElementTypeStaysUnsupported pins what an unknown element
// type gets through the real schemas. Unlike a wrong op, it is not a
// schema failure: the apply and create schemas deliberately let any
// non-creatable type through (elementSchema's "other" branch) so that the
// builder answers unsupported_element, as the HTTP API does. That answer
// already names the pointer and the creatable types.
func TestUnknownElementTypeStaysUnsupported(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")
	eo := e.fail(t, ApplyTool, flowApply(`{"op":"add","element":{"type":"blob","x":10,"y":0}}`), "unsupported_element")
	details, _ := eo["details"].(map[string]any)
	if details["pointer"] != "/operations/0/element/type" {
		t.Fatalf("details = %v", details)
	}
	msg := eo["message"].(string)
	for _, typ := range creatableTypes() {
		if !strings.Contains(msg, typ.(string)) {
			t.Errorf("message %q does not list %q", msg, typ)
		}
	}
}
