package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"

	"github.com/dshgo/dsh/plugins/tools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	Handler: func(_ context.Context, args json.RawMessage) (any, error) {
		var in struct{ A, B int64 }
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, err
		}
		if in.B == 0 && in.A == 0 {
			return nil, tools.Errorf("nothing_to_do", "both operands are zero")
		}
		return map[string]int64{"sum": in.A + in.B}, nil
	},
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
	// {"error":{"code":"invalid_arguments","details":{"errors":[{"keyword":"/additionalProperties","message":"unknown property \"c\"","pointer":""}]},"message":"arguments do not match the input schema at (root): unknown property \"c\""},"ok":false}
	// {"error":{"code":"nothing_to_do","message":"both operands are zero"},"ok":false}
	// {"error":{"code":"unknown_tool","message":"unknown tool \"math.mul\""},"ok":false}
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

func ExampleMCPServer_HTTPHandler() {
	reg := tools.NewRegistry(nil)
	if _, err := reg.Register(addTool); err != nil {
		panic(err)
	}
	bridge := tools.NewMCPServer(reg, tools.MCPOptions{Name: "example"})
	defer bridge.Close()
	// In the host this handler sits behind authentication.
	srv := httptest.NewServer(bridge.HTTPHandler())
	defer srv.Close()

	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, HTTPClient: srv.Client()}, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()

	list, _ := cs.ListTools(ctx, nil)
	for _, t := range list.Tools {
		fmt.Println(t.Name, "read-only:", t.Annotations.ReadOnlyHint)
	}
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "math.add", Arguments: map[string]int{"a": 1, "b": 2}})
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// math.add read-only: true
	// false {"ok":true,"sum":3}
}

func ExampleMCPServer_ServeStdio() {
	reg := tools.NewRegistry(nil)
	if _, err := reg.Register(addTool); err != nil {
		panic(err)
	}
	bridge := tools.NewMCPServer(reg, tools.MCPOptions{Name: "example"})
	defer bridge.Close()

	// In a subprocess these would be os.Stdin and os.Stdout.
	clientToServerR, clientToServerW := io.Pipe()
	serverToClientR, serverToClientW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- bridge.ServeStdio(context.Background(), clientToServerR, serverToClientW) }()

	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: serverToClientR, Writer: clientToServerW}, nil)
	if err != nil {
		panic(err)
	}
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "math.add", Arguments: map[string]int{"a": 0, "b": 0}})
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)

	cs.Close() // closes the client's pipe ends; the server sees end of input
	fmt.Println("ServeStdio:", <-done)
	serverToClientW.Close()
	// Output:
	// true {"error":{"code":"nothing_to_do","message":"both operands are zero"},"ok":false}
	// ServeStdio: <nil>
}
