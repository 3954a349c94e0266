package agenttools

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/tools"
)

// limitsEnv is an env whose tools read their limits from cur, as a plugin
// whose limits change at runtime would wire them; the service itself runs
// under start.
func limitsEnv(t testing.TB, start scene.Limits, cur *atomic.Pointer[scene.Limits]) *env {
	t.Helper()
	cur.Store(&start)
	dir := filepath.Join(t.TempDir(), "drawings")
	svc, err := service.New(service.Config{
		DrawingsDir: dir, Limits: start, LockTimeout: 5 * time.Second,
		Rand: rand.New(rand.NewPCG(1, 2)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	reg := tools.NewRegistry(nil)
	for _, tool := range Tools(svc, WithLimits(func() scene.Limits { return *cur.Load() })) {
		if _, err := reg.Register(tool); err != nil {
			t.Fatalf("register %s: %v", tool.Name, err)
		}
	}
	return &env{reg: reg, dir: dir, close: func() { svc.Close() }}
}

// rectangles is a create of n rectangles. Bad elements have a string x,
// which the schema refuses: a call over a limit that is refused for the
// limit rather than for them was refused before the schema ran.
func rectangles(n int, bad bool) string {
	var b strings.Builder
	b.WriteString(`{"name":"hostile","elements":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if bad {
			fmt.Fprintf(&b, `{"type":"rectangle","x":"%d"}`, i)
		} else {
			fmt.Fprintf(&b, `{"type":"rectangle","x":%d,"y":0}`, i)
		}
	}
	b.WriteString(`]}`)
	return b.String()
}

// wantLimit checks a refusal's details are {limit, max, actual} and, for a
// count, the pointer of what was counted ("" for a length: none).
func wantLimit(t testing.TB, eo map[string]any, limit string, max, actual int64, pointer string) {
	t.Helper()
	d, _ := eo["details"].(map[string]any)
	if d == nil || d["limit"] != limit || num(t, d["max"]) != max || num(t, d["actual"]) != actual {
		t.Fatalf("details: want {limit:%s max:%d actual:%d}, got %v", limit, max, actual, eo)
	}
	if p, _ := d["pointer"].(string); p != pointer {
		t.Fatalf("details.pointer: want %q, got %v", pointer, eo)
	}
}

// TestHostileCreateRefusedBeforeSchema: a create with 100,001 elements
// (3.4 MB) is refused as too_many_elements with the limit's details, by
// the registry's argument limit, without validating a single element: the
// elements are all schema-invalid, and the answer is still the limit's.
// It logs the wall time of the call through the real registry.
func TestHostileCreateRefusedBeforeSchema(t *testing.T) {
	var cur atomic.Pointer[scene.Limits]
	e := limitsEnv(t, scene.Limits{}, &cur)
	for _, bad := range []bool{true, false} {
		args := rectangles(scene.CeilingElements+1, bad)
		start := time.Now()
		eo := e.fail(t, CreateTool, args, "too_many_elements")
		t.Logf("create of %d elements (%d bytes, schema-valid %v) refused in %v", scene.CeilingElements+1, len(args), !bad, time.Since(start))
		wantLimit(t, eo, "maxElements", scene.DefaultMaxElements, scene.CeilingElements+1, "/elements")
		if msg, _ := eo["message"].(string); !strings.Contains(msg, "100,001 elements") || !strings.Contains(msg, "the limit is 10,000 (maxElements)") {
			t.Fatalf("message: %q", msg)
		}
	}
	if _, err := os.Stat(filepath.Join(e.dir, "hostile.excalidraw")); !os.IsNotExist(err) {
		t.Fatalf("a refused create left a file: %v", err)
	}
	// One element under the limit is the schema's (and the service's)
	// business again: the limit refuses only what is over it.
	e.fail(t, CreateTool, rectangles(3, true), invalidArguments)
}

// TestArgumentLimitsFollowRuntimeLimits: the limits are read on every
// call, so a lowered or raised limit applies to the very next call.
func TestArgumentLimitsFollowRuntimeLimits(t *testing.T) {
	var cur atomic.Pointer[scene.Limits]
	e := limitsEnv(t, scene.Limits{MaxElements: 100}, &cur)
	args := rectangles(6, true) // schema-invalid: only a limit can refuse it as too many
	e.fail(t, CreateTool, args, invalidArguments)

	cur.Store(&scene.Limits{MaxElements: 5})
	wantLimit(t, e.fail(t, CreateTool, args, "too_many_elements"), "maxElements", 5, 6, "/elements")

	cur.Store(&scene.Limits{MaxElements: 6})
	e.fail(t, CreateTool, args, invalidArguments)

	cur.Store(&scene.Limits{MaxSceneBytes: 1024})
	big := rectangles(40, false)
	wantLimit(t, e.fail(t, CreateTool, big, "too_large"), "maxSceneBytes", 1024, int64(len(big)), "")
}

// TestApplyOperationsAndFilesCapped: apply's 500 operations (the
// contract's limit, code invalid_operation) and create's files against
// maxFiles are refused on the raw arguments with their details, before
// the schema looks at a single operation or file; the scene is unchanged.
func TestApplyOperationsAndFilesCapped(t *testing.T) {
	var cur atomic.Pointer[scene.Limits]
	e := limitsEnv(t, scene.Limits{MaxFiles: 2}, &cur)
	e.createFlow(t, "flow")
	before := e.fileBytes(t, "flow")

	ops := make([]string, service.MaxOperations+1)
	for i := range ops {
		ops[i] = `{"op":"bogus"}` // every one schema-invalid
	}
	args := `{"name":"flow","expected_revision":1,"operations":[` + strings.Join(ops, ",") + `]}`
	eo := e.fail(t, ApplyTool, args, invalidArguments)
	wantLimit(t, eo, "maxOperations", service.MaxOperations, service.MaxOperations+1, "/operations")
	if string(e.fileBytes(t, "flow")) != string(before) {
		t.Fatal("a refused apply changed the scene")
	}

	files := `{"a":{"id":"a","mimeType":1},"b":{"id":"b","mimeType":1},"c":{"id":"c","mimeType":1}}`
	wantLimit(t, e.fail(t, CreateTool, `{"name":"pics","files":`+files+`}`, "too_large"), "maxFiles", 2, 3, "/files")
}

// TestDefaultLimitsNeverRefuseWhatTheServiceAccepts: without WithLimits
// the tools assume the highest limits a configuration allows, so a call
// within a raised maxElements is not refused early, and what no
// configuration allows still is. (The arguments carry trailing data, so
// that a call the limits let through fails at once, in decoding, instead
// of building 10,001 elements.)
func TestDefaultLimitsNeverRefuseWhatTheServiceAccepts(t *testing.T) {
	e := newEnv(t, scene.Limits{MaxElements: 20000})
	within := rectangles(scene.DefaultMaxElements+1, false) + " trailing"
	e.fail(t, CreateTool, within, invalidArguments)
	eo := e.fail(t, CreateTool, rectangles(scene.CeilingElements+1, true), "too_many_elements")
	wantLimit(t, eo, "maxElements", scene.CeilingElements, scene.CeilingElements+1, "/elements")

	// The same call against the service's own 10,000 is refused early.
	var cur atomic.Pointer[scene.Limits]
	wired := limitsEnv(t, scene.Limits{}, &cur)
	wantLimit(t, wired.fail(t, CreateTool, within, "too_many_elements"), "maxElements", scene.DefaultMaxElements, scene.DefaultMaxElements+1, "/elements")
}

// BenchmarkHostileCreate is the 100,001-element create through the
// registry; compare with the same call before the argument limits (the
// schema validated every element first: about 9 s on two cores).
func BenchmarkHostileCreate(b *testing.B) {
	var cur atomic.Pointer[scene.Limits]
	e := limitsEnv(b, scene.Limits{}, &cur)
	args := json.RawMessage(rectangles(scene.CeilingElements+1, false))
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		if res := e.reg.Call(bg, CreateTool, args); res.OK {
			b.Fatal("hostile create succeeded")
		}
	}
}
