package agenttools

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// TestLoweredLimitThroughTools: an agent meets a scene written under a
// higher maxElements after the limit was lowered. read (full and summary)
// and list work; an add is too_many_elements with details naming the
// limit (never corrupt_scene); deleting down to the limit works.
func TestLoweredLimitThroughTools(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drawings")
	var els []string
	for i := range 6 {
		els = append(els, fmt.Sprintf(`{"type":"rectangle","id":"r%d","x":%d,"y":0,"width":50,"height":40}`, i, i*60))
	}
	hi := newEnvAt(t, dir, scene.Limits{MaxElements: 10})
	hi.ok(t, CreateTool, `{"name":"big","elements":[`+strings.Join(els, ",")+`]}`)
	hi.close()

	e := newEnvAt(t, dir, scene.Limits{MaxElements: 4})
	stored := e.fileBytes(t, "big")
	if full := e.ok(t, ReadTool, `{"name":"big"}`); full["scene"] == nil || num(t, full["revision"]) != 1 {
		t.Fatalf("full read: %v", full)
	}
	sum := e.ok(t, ReadTool, `{"name":"big","include":"summary"}`)
	if s, _ := sum["summary"].(map[string]any); s == nil || len(s["elements"].([]any)) != 6 {
		t.Fatalf("summary read: %v", sum)
	}
	rows := e.ok(t, ListTool, `{}`)["scenes"].([]any)
	if row := rows[0].(map[string]any); len(rows) != 1 || row["valid"] != true || num(t, row["elementCount"]) != 6 {
		t.Fatalf("list: %v", rows)
	}

	eo := e.fail(t, ApplyTool, `{"name":"big","expected_revision":1,"operations":[{"op":"add","element":{"type":"ellipse","x":0,"y":100}}]}`, "too_many_elements")
	d, _ := eo["details"].(map[string]any)
	if d == nil || d["limit"] != "maxElements" || num(t, d["max"]) != 4 || num(t, d["actual"]) != 7 {
		t.Fatalf("details: %v", eo)
	}
	if msg := eo["message"].(string); !strings.Contains(msg, "7 elements") || !strings.Contains(msg, "the limit is 4 (maxElements)") {
		t.Fatalf("message: %q", msg)
	}
	if !bytes.Equal(e.fileBytes(t, "big"), stored) {
		t.Fatal("the refused add changed the file")
	}

	res := e.ok(t, ApplyTool, `{"name":"big","expected_revision":1,"operations":[{"op":"delete","id":"r4"},{"op":"delete","id":"r5"}]}`)
	if num(t, res["revision"]) != 2 {
		t.Fatalf("delete within the limit: %v", res)
	}
}
