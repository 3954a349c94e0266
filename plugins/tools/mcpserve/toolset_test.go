package mcpserve

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/dshgo/dsh/plugins/tools"
)

// TestToolSetChoosesTools: with Options.Tools the server lists and routes
// only the chosen tools, by name or pattern; a tool registered later is
// offered when it matches; the others cannot be called.
func TestToolSetChoosesTools(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := tools.NewRegistry(nil)
	for _, n := range []string{"scene_read", "scene_write", "admin_wipe", "read_me"} {
		mustRegister(t, reg, echoTool(n))
	}
	m := New(reg, Options{Tools: []string{"scene_*", "read_me"}})
	defer m.Close()
	client, _ := listChangedClient()
	cs := connectInMemory(t, m, client)
	defer cs.Close()

	if got, want := toolNames(t, cs), []string{"read_me", "scene_read", "scene_write"}; !slices.Equal(got, want) {
		t.Fatalf("tools = %v, want %v", got, want)
	}
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "admin_wipe", Arguments: json.RawMessage(`{}`)})
	if err == nil && !res.IsError {
		t.Fatalf("a tool outside the set was called: %+v", res)
	}
	mustRegister(t, reg, echoTool("scene_list"))
	mustRegister(t, reg, echoTool("other"))
	if got := toolNames(t, cs); !slices.Contains(got, "scene_list") || slices.Contains(got, "other") {
		t.Fatalf("after registering scene_list and other: tools = %v", got)
	}
}

// TestInstructionsFromPlugins: initialize carries the operator's text and
// then what plugins added, as it is when the client connects.
func TestInstructionsFromPlugins(t *testing.T) {
	defer goleak.VerifyNone(t)

	reg := tools.NewRegistry(nil)
	m := New(reg, Options{Instructions: "Operator: be brief."})
	defer m.Close()
	connect := func() string {
		client, _ := listChangedClient()
		cs := connectInMemory(t, m, client)
		defer cs.Close()
		return cs.InitializeResult().Instructions
	}
	if got := connect(); got != "Operator: be brief." {
		t.Fatalf("instructions = %q", got)
	}
	remove := reg.AddInstructions("Boards: call read_me first.")
	if got := connect(); got != "Operator: be brief.\n\nBoards: call read_me first." {
		t.Fatalf("instructions after a plugin added its own = %q", got)
	}
	remove()
	if got := connect(); strings.Contains(got, "read_me") {
		t.Fatalf("instructions after the plugin removed its own = %q", got)
	}
}

func TestValidToolPatterns(t *testing.T) {
	if err := ValidToolPatterns([]string{"a", "scene_*", "r?ad"}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{{""}, {"a[b"}} {
		if ValidToolPatterns(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
