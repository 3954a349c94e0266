package mcpserve_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/tools/mcpserve"
)

// exampleRegistry holds one tool, "shout", that fails on an empty text.
func exampleRegistry() *tools.Registry {
	type shoutArgs struct {
		Text string `json:"text"`
	}
	reg := tools.NewRegistry(nil)
	_, err := reg.Register(tools.Tool{
		Name:        "shout",
		Description: "Repeat a text with an exclamation mark.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false,"required":["text"],"properties":{"text":{"type":"string"}}}`),
		Annotations: tools.Annotations{ReadOnly: true, Idempotent: true},
		Handler: tools.Typed(func(_ context.Context, in shoutArgs) (map[string]string, error) {
			if in.Text == "" {
				return nil, tools.Errorf("nothing_to_do", "the text is empty")
			}
			return map[string]string{"text": in.Text + "!"}, nil
		}),
	})
	if err != nil {
		panic(err)
	}
	return reg
}

func ExampleServer_HTTPHandler() {
	bridge := mcpserve.New(exampleRegistry(), mcpserve.Options{Name: "example"})
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
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "shout", Arguments: map[string]string{"text": "hi"}})
	fmt.Println(res.IsError, res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// shout read-only: true
	// false {"ok":true,"text":"hi!"}
}

func ExampleServer_ServeStdio() {
	bridge := mcpserve.New(exampleRegistry(), mcpserve.Options{Name: "example"})
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
	res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "shout", Arguments: map[string]string{"text": ""}})
	// A refusal names the call in details.request_id: over stdio, a new
	// id for each call.
	var refusal struct {
		Error struct {
			Code, Message string
			Details       struct {
				RequestID string `json:"request_id"`
			}
		}
	}
	_ = json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &refusal)
	fmt.Println(res.IsError, refusal.Error.Code, refusal.Error.Message, len(refusal.Error.Details.RequestID))

	cs.Close() // closes the client's pipe ends; the server sees end of input
	fmt.Println("ServeStdio:", <-done)
	serverToClientW.Close()
	// Output:
	// true nothing_to_do the text is empty 32
	// ServeStdio: <nil>
}
