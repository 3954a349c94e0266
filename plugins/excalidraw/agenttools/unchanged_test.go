package agenttools

import (
	"bytes"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// TestNoOpApplyIsUnchanged: an update that sets a field to the value it
// has writes nothing: the result says unchanged:true at the same
// revision, and the file is byte for byte what it was. A real change
// says unchanged:false.
func TestNoOpApplyIsUnchanged(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	created := e.createFlow(t, "flow")
	if created["unchanged"] != false {
		t.Fatalf("create: unchanged is %v, want false", created["unchanged"])
	}
	before := e.fileBytes(t, "flow")
	res := e.ok(t, ApplyTool, `{"name":"flow","expected_revision":1,"operations":[{"op":"update","id":"b","patch":{"x":400}}]}`)
	if res["unchanged"] != true || num(t, res["revision"]) != 1 || res["sha256"] != created["sha256"] || res["verified"] != true {
		t.Fatalf("no-op apply: %v", res)
	}
	if !bytes.Equal(before, e.fileBytes(t, "flow")) {
		t.Fatal("a no-op apply rewrote the file")
	}
	res = e.ok(t, ApplyTool, `{"name":"flow","expected_revision":1,"operations":[{"op":"update","id":"b","patch":{"x":410}}]}`)
	if res["unchanged"] != false || num(t, res["revision"]) != 2 {
		t.Fatalf("real apply: %v", res)
	}
}
