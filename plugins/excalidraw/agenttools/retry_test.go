package agenttools

import (
	"bytes"
	"strconv"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// TestRetryAfterLostResponse repeats an apply with the same request_id, as
// an agent does when the first response never arrived: the second call
// must report duplicate:true and leave the file exactly as the first wrote it.
func TestRetryAfterLostResponse(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")
	args := `{"name":"flow","expected_revision":1,"request_id":"req-1","operations":[{"op":"update","id":"a","patch":{"x":40}}]}`
	first := e.ok(t, ApplyTool, args) // the response the agent "lost"
	before := e.fileBytes(t, "flow")
	second := e.ok(t, ApplyTool, args)
	if second["duplicate"] != true || first["duplicate"] != false {
		t.Fatalf("duplicate flags: first %v second %v", first["duplicate"], second["duplicate"])
	}
	if num(t, second["revision"]) != 2 || second["sha256"] != first["sha256"] {
		t.Fatalf("retry evidence differs: %v vs %v", second, first)
	}
	if !bytes.Equal(before, e.fileBytes(t, "flow")) {
		t.Fatal("retry changed the file")
	}
}

// TestConcurrentAppliesOneWins races two applies on the same revision:
// optimistic concurrency must let exactly one through.
func TestConcurrentAppliesOneWins(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.createFlow(t, "flow")
	var wg sync.WaitGroup
	okCount := make(chan bool, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := e.reg.Call(bg, ApplyTool, []byte(`{"name":"flow","expected_revision":1,"operations":[{"op":"update","id":"b","patch":{"x":`+strconv.Itoa(100*(i+1))+`}}]}`))
			if !res.OK && !bytes.Contains(res.JSON, []byte(`"code":"revision_conflict"`)) {
				t.Errorf("loser failed with the wrong code: %s", res.JSON)
			}
			okCount <- res.OK
		}()
	}
	wg.Wait()
	close(okCount)
	n := 0
	for ok := range okCount {
		if ok {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d applies succeeded, want exactly 1", n)
	}
	if rev := num(t, e.ok(t, ReadTool, `{"name":"flow","include":"summary"}`)["revision"]); rev != 2 {
		t.Fatalf("revision %d after the race, want 2", rev)
	}
}
