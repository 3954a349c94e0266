package agenttools

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/plugins/tools"
	"github.com/dshgo/dsh/plugins/tools/mcpserve"
)

// Budgets of the five tools' share of tools/list, in bytes of the JSON a
// client receives for each tool (name, title, description, inputSchema,
// annotations), in decimal kilobytes. The whole tools/list, with every
// tool the host registers, is held to 48 KB by the whole-list budget
// test, which will cover all tools; this test keeps the five Excalidraw
// tools within their share of it.
//
// The shares are ratchets (issue 27): the write options and the target
// selector are listed by their names, their rules told once in read_me
// (Tool.ListedSchema); excalidraw_scene_apply lists its operations'
// shapes and refers to excalidraw_scene_create for the element input,
// which tools/list carries once (about 4.5 KB); update_diagram lists its
// items as create_diagram's. Calls are checked against the full rules.
const (
	fiveToolsBudget = 12_000
	oneToolBudget   = 5_500
	// allToolsBudget is the Excalidraw plugin's share of the host's
	// 48 KB tools/list (the root's whole-list test adds the host's own
	// tools).
	allToolsBudget = 43_500
	// boardToolsBudget is the board and folder tools' (boards.go),
	// counted apart.
	boardToolsBudget = 3_300
)

// TestToolsListBudget lists the five tools through the MCP bridge, as
// tools/list carries them to a client, and checks their sizes.
func TestToolsListBudget(t *testing.T) {
	reg := tools.NewRegistry(nil)
	for _, tool := range Tools(nil) {
		if _, err := reg.Register(tool); err != nil {
			t.Fatalf("register %s: %v", tool.Name, err)
		}
	}
	srv := mcpserve.New(reg, mcpserve.Options{})
	defer srv.Close()
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.SDKServer().Connect(t.Context(), st, nil); err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "budget", Version: "1"}, nil)
	cs, err := client.Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != len(Tools(nil)) {
		t.Fatalf("tools/list has %d tools, want %d", len(res.Tools), len(Tools(nil)))
	}
	board := map[string]bool{}
	for _, tool := range boardTools(nil) {
		board[tool.Name] = true
	}
	five, all, boards := 0, 0, 0
	for _, tool := range res.Tools {
		n := len(wireJSON(t, tool))
		if board[tool.Name] {
			boards += n
		} else {
			all += n
		}
		if strings.HasPrefix(tool.Name, "excalidraw_scene_") {
			five += n
		}
		t.Logf("%-26s %5d bytes (inputSchema %5d, description %4d)",
			tool.Name, n, len(wireJSON(t, tool.InputSchema)), len(tool.Description))
		if n > oneToolBudget {
			t.Errorf("%s takes %d bytes of tools/list, over its budget of %d", tool.Name, n, oneToolBudget)
		}
	}
	t.Logf("%-26s %5d bytes", "the contract's five", five)
	t.Logf("%-26s %5d bytes", "all but the board tools", all)
	t.Logf("%-26s %5d bytes", "the board tools", boards)
	if boards > boardToolsBudget {
		t.Errorf("the board tools take %d bytes of tools/list, over their budget of %d", boards, boardToolsBudget)
	}
	if five > fiveToolsBudget {
		t.Errorf("the five tools take %d bytes of tools/list, over their budget of %d", five, fiveToolsBudget)
	}
	if all > allToolsBudget {
		t.Errorf("the plugin's tools take %d bytes of tools/list, over their budget of %d", all, allToolsBudget)
	}
}

// wireJSON encodes v as the MCP SDK's JSON-RPC layer does (no HTML
// escaping, no trailing newline).
func wireJSON(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
