package tools_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dshgo/dsh/plugins/tools"
)

// addTool is a small tool used by the examples.
var addTool = tools.Tool{
	Name:        "math.add",
	Description: "Add two integers.",
	InputSchema: json.RawMessage(`{
		"type": "object",
		"properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
		"required": ["a", "b"],
		"additionalProperties": false
	}`),
	Annotations: tools.Annotations{Title: "Add", ReadOnly: true, Idempotent: true},
	Handler:     tools.Typed(add),
}

// addArgs are math.add's arguments, as its schema has them.
type addArgs struct {
	A int64 `json:"a"`
	B int64 `json:"b"`
}

func add(_ context.Context, in addArgs) (map[string]int64, error) {
	if in.B == 0 && in.A == 0 {
		return nil, tools.Errorf("nothing_to_do", "both operands are zero")
	}
	return map[string]int64{"sum": in.A + in.B}, nil
}

func ExampleRegistry_Register() {
	reg := tools.NewRegistry(nil)
	unregister, err := reg.Register(addTool)
	if err != nil {
		panic(err)
	}
	// The plugin runtime records unregister as an effect of the plugin.
	defer unregister()

	res := reg.Call(context.Background(), "math.add", json.RawMessage(`{"a":2,"b":40}`))
	fmt.Println(res.OK, string(res.JSON))
	// Output: true {"ok":true,"sum":42}
}

func ExampleRegistry_Register_badSchema() {
	reg := tools.NewRegistry(nil)
	t := addTool
	t.InputSchema = json.RawMessage(`{"type":"object"}`) // unknown properties would be ignored
	_, err := reg.Register(t)
	fmt.Println(err)
	// Output: tools: register "math.add": invalid input schema: root must declare "additionalProperties": false
}

func ExampleRegistry_Call_failures() {
	reg := tools.NewRegistry(nil)
	if _, err := reg.Register(addTool); err != nil {
		panic(err)
	}
	ctx := context.Background()
	for _, args := range []string{`{"a":1,"b":2,"c":3}`, `{"a":0,"b":0}`} {
		fmt.Println(string(reg.Call(ctx, "math.add", json.RawMessage(args)).JSON))
	}
	fmt.Println(string(reg.Call(ctx, "math.mul", nil).JSON))
	// Output:
	// {"error":{"code":"invalid_arguments","details":{"errors":[{"keyword":"/additionalProperties","message":"unknown property \"c\"","pointer":""}]},"message":"arguments do not match the input schema at (root): unknown property \"c\"","retryable":false},"ok":false}
	// {"error":{"code":"nothing_to_do","message":"both operands are zero","retryable":false},"ok":false}
	// {"error":{"code":"unknown_tool","message":"unknown tool \"math.mul\"","retryable":false},"ok":false}
}

func ExampleRegistry_Subscribe() {
	reg := tools.NewRegistry(nil)
	cancel := reg.Subscribe(func() { fmt.Println("tools now:", reg.Len()) })
	defer cancel()
	unregister, _ := reg.Register(addTool)
	unregister()
	// Output:
	// tools now: 1
	// tools now: 0
}

func ExampleCanonicalJSON() {
	out, _ := tools.CanonicalJSON(map[string]any{
		"z":    json.Number("12345678901234567890.50"),
		"html": "<a href=\"x\">&</a>",
		"a":    map[string]int{"y": 1, "b": 2},
	})
	fmt.Println(string(out))
	// Output: {"a":{"b":2,"y":1},"html":"<a href=\"x\">&</a>","z":12345678901234567890.50}
}

// A Typed handler gets its arguments as a Go value (addArgs for
// math.add). Should the schema accept something the type cannot hold
// (here "c", which addArgs lacks), the call fails with the tool's
// invalid-arguments code and a pointer to the value, rather than the
// handler silently losing it.
func ExampleTyped() {
	reg := tools.NewRegistry(nil)
	t := addTool
	t.InputSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["a","b"],
		"properties":{"a":{"type":"integer"},"b":{"type":"integer"},"c":{"type":"integer"}}}`)
	if _, err := reg.Register(t); err != nil {
		panic(err)
	}
	ctx := context.Background()
	fmt.Println(string(reg.Call(ctx, "math.add", json.RawMessage(`{"a":1,"b":2}`)).JSON))
	fmt.Println(string(reg.Call(ctx, "math.add", json.RawMessage(`{"a":1,"b":2,"c":3}`)).JSON))
	// Output:
	// {"ok":true,"sum":3}
	// {"error":{"code":"invalid_arguments","details":{"errors":[{"keyword":"","message":"unknown property \"c\"","pointer":""}]},"message":"arguments do not decode into the tool's input at (root): unknown property \"c\"","retryable":false},"ok":false}
}
