package agenttools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/tools"
)

// mixedCreate is a create of n elements of every creatable type in turn
// (labelled boxes, an ellipse, text, arrows bound to the boxes, a line,
// a freedraw and an image), the shape of a real 1,000-element create.
func mixedCreate(n int) string {
	var b strings.Builder
	b.WriteString(`{"name":"mixed","elements":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		x, y := (i%40)*200, (i/40)*120
		switch i % 8 {
		case 0, 1:
			fmt.Fprintf(&b, `{"type":"rectangle","id":"r%d","x":%d,"y":%d,"width":120,"height":60,"label":{"text":"Box %d"}}`, i, x, y, i)
		case 2:
			fmt.Fprintf(&b, `{"type":"ellipse","id":"e%d","x":%d,"y":%d,"width":120,"height":60,"backgroundColor":"#ffec99","fillStyle":"solid"}`, i, x, y)
		case 3:
			fmt.Fprintf(&b, `{"type":"text","x":%d,"y":%d,"text":"Note %d","fontSize":20}`, x, y, i)
		case 4:
			fmt.Fprintf(&b, `{"type":"arrow","startElementId":"r%d","endElementId":"r%d","endArrowhead":"arrow","label":{"text":"next"}}`, i-4, i-3)
		case 5:
			fmt.Fprintf(&b, `{"type":"line","x":%d,"y":%d,"points":[[0,0],[50,20],[100,0]],"strokeStyle":"dashed"}`, x, y)
		case 6:
			fmt.Fprintf(&b, `{"type":"freedraw","x":%d,"y":%d,"points":[[0,0],[3,4],[6,2],[9,9]],"pressures":[0.5,0.6,0.7,0.5]}`, x, y)
		case 7:
			fmt.Fprintf(&b, `{"type":"diamond","x":%d,"y":%d,"groupIds":["g%d"],"opacity":80}`, x, y, i/64)
		}
	}
	b.WriteString(`]}`)
	return b.String()
}

// argsOnly registers tool with a handler that does nothing, so a call
// costs exactly the registry's work on the arguments: limits, decoding,
// schema validation and the canonical re-encoding.
func argsOnly(tb testing.TB, name string) *tools.Registry {
	tb.Helper()
	reg := tools.NewRegistry(nil)
	for _, tool := range Tools(nil) {
		if tool.Name != name {
			continue
		}
		tool.Handler = func(context.Context, json.RawMessage) (any, error) { return struct{}{}, nil }
		if _, err := reg.Register(tool); err != nil {
			tb.Fatal(err)
		}
		return reg
	}
	tb.Fatalf("no tool %s", name)
	return nil
}

// BenchmarkCreateArguments1000 is the registry's argument work for a
// 1,000-element create of mixed types (see mixedCreate).
func BenchmarkCreateArguments1000(b *testing.B) {
	reg := argsOnly(b, CreateTool)
	args := json.RawMessage(mixedCreate(1000))
	b.SetBytes(int64(len(args)))
	b.ReportAllocs()
	for b.Loop() {
		if res := reg.Call(bg, CreateTool, args); !res.OK {
			b.Fatalf("call failed: %s", res.JSON)
		}
	}
}

// A wrong-typed field in one element of a 1,000-element create is one
// problem at that element, as in a create of two.
func TestWrongElementInABigCreateIsPointedAt(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	args := mixedCreate(1000)
	const at = `{"type":"ellipse","id":"e610",`
	if !strings.Contains(args, at) {
		t.Fatalf("element 610 is not %s", at)
	}
	args = strings.Replace(args, at, at+`"opacity":"80",`, 1)
	schemaProblem(t, e, CreateTool, args, "/elements/610/opacity", "expected integer, got string")
}

// The registry validates create's and apply's arguments by dispatching
// on "type" and "op" (plugins/tools, compileFast). It must accept exactly
// what the published schema does: random mutations of real arguments
// are judged by the registry and by the published schema compiled on
// its own, and the registry never logs that its two compilations
// disagreed.
func TestArgumentsAreJudgedAsThePublishedSchemaJudgesThem(t *testing.T) {
	core, logs := observer.New(zapcore.ErrorLevel)
	reg := tools.NewRegistry(zap.New(core))
	published := map[string]*jsonschema.Schema{}
	for _, tool := range Tools(nil) {
		if tool.Name != CreateTool && tool.Name != ApplyTool {
			continue
		}
		tool.Handler = func(context.Context, json.RawMessage) (any, error) { return struct{}{}, nil }
		if _, err := reg.Register(tool); err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft2020
		if err := c.AddResource("mem://"+tool.Name, bytes.NewReader(tool.InputSchema)); err != nil {
			t.Fatal(err)
		}
		published[tool.Name] = c.MustCompile("mem://" + tool.Name)
	}
	var elements []any
	if err := json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimPrefix(mixedCreate(16), `{"name":"mixed","elements":`), "}")), &elements); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 13))
	accepted, refused := 0, 0
	for i := range 1500 {
		el := mutateElement(rng, deepCopy(elements[rng.IntN(len(elements))]))
		tool, args := CreateTool, map[string]any{"name": "m", "elements": []any{el}}
		switch i % 3 {
		case 1:
			tool, args = ApplyTool, map[string]any{"name": "m", "expected_revision": 1, "operations": []any{map[string]any{"op": "add", "element": el}}}
		case 2:
			ops := []any{"add", "update", "delete", "ad", 3}
			op := map[string]any{"op": ops[rng.IntN(len(ops))], "id": "r0", "ids": []any{"r0"}, "patch": map[string]any{"x": 1}, "element": el}
			for _, k := range []string{"id", "ids", "patch", "element"} {
				if rng.IntN(2) == 0 {
					delete(op, k)
				}
			}
			tool, args = ApplyTool, map[string]any{"name": "m", "expected_revision": 1, "operations": []any{op}}
		}
		raw, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		want := published[tool].Validate(v) == nil
		res := reg.Call(bg, tool, raw)
		if res.OK != want {
			t.Fatalf("%s: registry says ok=%v, published schema %v, for %s: %s", tool, res.OK, want, raw, res.JSON)
		}
		if want {
			accepted++
		} else {
			refused++
		}
	}
	if n := logs.Len(); n > 0 {
		t.Fatalf("registry logged %d errors, first: %v", n, logs.All()[0].Message)
	}
	t.Logf("%d accepted, %d refused", accepted, refused)
	if accepted < 100 || refused < 100 {
		t.Fatalf("mutations explore too little: %d accepted, %d refused", accepted, refused)
	}
}

// mutateElement changes an element input in one to three random ways:
// another type (creatable or not), a field dropped, or a field of some
// type added with a value that may or may not suit it.
func mutateElement(rng *rand.Rand, v any) any {
	el := v.(map[string]any)
	types := []any{"rectangle", "ellipse", "diamond", "text", "arrow", "line", "freedraw", "image", "blob", 7, nil}
	fields := []string{"x", "y", "width", "height", "text", "points", "fileId", "label", "fillStyle", "opacity", "startArrowhead", "roundness", "pressures", "bogus"}
	values := []any{1, -5, "10", "solid", "arrow", "round", true, nil, []any{[]any{0, 0}, []any{1, 1}}, map[string]any{"text": "hi"}, map[string]any{"text": "hi", "verticalAlign": "top"}, "img"}
	for range 1 + rng.IntN(3) {
		switch rng.IntN(3) {
		case 0:
			el["type"] = types[rng.IntN(len(types))]
		case 1:
			delete(el, fields[rng.IntN(len(fields))])
		default:
			el[fields[rng.IntN(len(fields))]] = values[rng.IntN(len(values))]
		}
	}
	return el
}

func deepCopy(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
