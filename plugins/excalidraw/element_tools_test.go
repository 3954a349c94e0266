package excalidraw_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/status"
)

// elementHost is a real host with the Excalidraw and status plugins and
// an MCP session over Streamable HTTP with the official SDK client.
func elementHost(t *testing.T) (*mcp.ClientSession, func()) {
	t.Helper()
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin, status.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: excalidraw, name: excalidraw}\n  - {id: status, name: status}\n"))))
	for _, id := range []string{"excalidraw", "status"} {
		if err := hosttest.Scope(t, h, id).AwaitActive(hosttest.Context(t)); err != nil {
			t.Fatal(err)
		}
	}
	s, _, closeMCP := hosttest.MCP(t, h)
	return s, closeMCP
}

// rawCall calls a tool with raw JSON arguments and returns the decoded
// result and its size in bytes as the model reads it.
func rawCall(t *testing.T, s *mcp.ClientSession, name, args string) (map[string]any, int) {
	t.Helper()
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	out := decodeToolResult(t, name, res, err)
	return out, len(res.Content[0].(*mcp.TextContent).Text)
}

func okCall(t *testing.T, s *mcp.ClientSession, name, args string) map[string]any {
	t.Helper()
	out, _ := rawCall(t, s, name, args)
	if out["ok"] != true {
		t.Fatalf("%s(%s) failed: %v", name, args, out)
	}
	return out
}

func failCall(t *testing.T, s *mcp.ClientSession, name, args, code, pointer string) {
	t.Helper()
	out, _ := rawCall(t, s, name, args)
	eo, _ := out["error"].(map[string]any)
	if out["ok"] != false || eo == nil || eo["code"] != code {
		t.Fatalf("%s(%s): want %s, got %v", name, args, code, out)
	}
	if _, ok := eo["retryable"].(bool); !ok {
		t.Errorf("%s: error without retryable: %v", name, eo)
	}
	d, _ := eo["details"].(map[string]any)
	if pointer != "" {
		p, _ := d["pointer"].(string)
		if p == "" {
			// Schema failures list their problems.
			if errs, _ := d["errors"].([]any); len(errs) > 0 {
				p, _ = errs[0].(map[string]any)["pointer"].(string)
			}
		}
		if p != pointer {
			t.Errorf("%s(%s): pointer %q, want %q (%v)", name, args, p, pointer, eo)
		}
	}
}

// TestEveryElementToolOverMCP calls each element-level tool over MCP,
// once as it is meant to be used and once with a mistake, and checks what
// comes back: an envelope naming what changed, or one pointed error.
func TestEveryElementToolOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"board"}`)
	okCall(t, s, "excalidraw_scene_create", `{"name":"other"}`)

	created := okCall(t, s, "batch_create", `{"name":"board","elements":[
		{"ref":"api","type":"rectangle","x":0,"y":0,"width":180,"height":80,"label":{"text":"API gateway"}},
		{"ref":"db","type":"ellipse","place":{"rightOf":"api","gap":160},"label":{"text":"Orders DB"}},
		{"ref":"cache","type":"diamond","place":{"below":"api","gap":120},"label":{"text":"Cache"}},
		{"type":"arrow","startElementId":"api","endElementId":"db","label":{"text":"SQL"}}]}`)
	refs := created["refs"].(map[string]any)
	api, db, cache := refs["api"].(string), refs["db"].(string), refs["cache"].(string)
	if created["persisted"] != true || len(created["changed"].(map[string]any)["created"].([]any)) < 4 {
		t.Fatalf("batch_create envelope: %v", created)
	}
	failCall(t, s, "batch_create", `{"name":"board","elements":[{"type":"ellipse","place":{"rightOf":"nobody"}}]}`, "invalid_reference", "/elements/0/place/rightOf")

	graph := okCall(t, s, "query_elements", `{"name":"board","format":"graph"}`)
	if !strings.Contains(fmt.Sprint(graph["graph"]), "SQL") {
		t.Fatalf("graph lacks the arrow's label: %v", graph)
	}
	okCall(t, s, "query_elements", `{"name":"board","target":{"text_contains":"orders"},"aggregate":"bounds","format":"md"}`)
	failCall(t, s, "query_elements", `{"name":"board","target":{"text_regex":"("}}`, "invalid_operation", "/target/text_regex")

	m := okCall(t, s, "measure_text", `{"text":"A longer label that wraps","container":"rectangle","container_width":120}`)
	if m["container"] == nil || m["width"] == nil {
		t.Fatalf("measure_text: %v", m)
	}
	failCall(t, s, "measure_text", `{"text":"x","container":"circle"}`, "invalid_operation", "/container")

	v := okCall(t, s, "validate_scene", `{"name":"board"}`)
	if v["valid"] != true || v["lint"] == nil {
		t.Fatalf("validate_scene: %v", v)
	}
	failCall(t, s, "validate_scene", `{}`, "invalid_operation", "")

	guide := okCall(t, s, "read_me", `{}`)
	if !strings.Contains(guide["guide"].(string), "batch_create") {
		t.Fatal("read_me does not describe batch_create")
	}

	okCall(t, s, "update_elements", `{"name":"board","updates":[{"id":"`+db+`","patch":{"backgroundColor":"#b2f2bb","fillStyle":"solid"}}]}`)
	failCall(t, s, "update_elements", `{"name":"board","updates":[{"id":"nope","patch":{"x":1}}]}`, "not_found", "/updates/0/id")

	mv := okCall(t, s, "move_elements", `{"name":"board","ids":["`+db+`"],"dx":40,"dy":20}`)
	if len(mv["rerouted"].([]any)) == 0 {
		t.Fatalf("moving a bound shape must re-route its arrow: %v", mv)
	}
	failCall(t, s, "move_elements", `{"name":"board","ids":["`+db+`"]}`, "invalid_operation", "/dx")

	g := okCall(t, s, "group_elements", `{"name":"board","ids":["`+api+`","`+cache+`"]}`)
	gid := g["group_id"].(string)
	failCall(t, s, "group_elements", `{"name":"board","ids":["ghost","`+api+`"]}`, "not_found", "/ids/0")
	okCall(t, s, "ungroup_elements", `{"name":"board","group_id":"`+gid+`"}`)
	failCall(t, s, "ungroup_elements", `{"name":"board","group_id":"no-such-group"}`, "not_found", "/group_id")

	okCall(t, s, "reorder", `{"name":"board","ids":["`+cache+`"],"to":"back"}`)
	failCall(t, s, "reorder", `{"name":"board","ids":["`+cache+`"],"to":"before"}`, "invalid_operation", "/relative_to")

	rt := okCall(t, s, "replace_text", `{"name":"board","find":"Orders","replace":"Order history"}`)
	if len(rt["changed"].(map[string]any)["updated"].([]any)) == 0 {
		t.Fatalf("replace_text changed nothing: %v", rt)
	}
	failCall(t, s, "replace_text", `{"name":"board","find":"(","replace":"x","regex":true}`, "invalid_operation", "/find")

	fr := okCall(t, s, "create_frame", `{"name":"board","ids":["`+api+`","`+db+`"],"frame_name":"Backend"}`)
	fid := fr["frame_id"].(string)
	failCall(t, s, "create_frame", `{"name":"board","ids":["ghost"]}`, "not_found", "/ids/0")
	okCall(t, s, "frame_add_children", `{"name":"board","frame_id":"`+fid+`","ids":["`+cache+`"]}`)
	failCall(t, s, "frame_add_children", `{"name":"board","frame_id":"`+api+`","ids":["`+cache+`"]}`, "invalid_operation", "/frame_id")

	okCall(t, s, "arrange", `{"name":"board","ids":["`+api+`","`+db+`","`+cache+`"],"layout":"row","gap":80}`)
	failCall(t, s, "arrange", `{"name":"board","ids":["`+api+`"],"layout":"row","columns":2}`, "invalid_operation", "/columns")

	cp := okCall(t, s, "copy_elements", `{"name":"board","ids":["`+api+`"],"dy":400}`)
	if len(cp["copies"].(map[string]any)) < 2 {
		t.Fatalf("copying a labelled box copies its label: %v", cp)
	}
	okCall(t, s, "copy_elements", `{"name":"board","ids":["`+api+`","`+db+`"],"to_scene":"other"}`)
	failCall(t, s, "copy_elements", `{"name":"board","ids":["ghost"]}`, "not_found", "/ids/0")

	okCall(t, s, "repair_scene", `{"name":"board"}`)
	failCall(t, s, "repair_scene", `{"name":"Bad Name"}`, "invalid_name", "")

	ops := okCall(t, s, "apply_ops", `{"name":"board","ops":[
		{"tool":"move_elements","args":{"ids":["`+cache+`"],"dx":10}},
		{"tool":"batch_create","args":{"elements":[{"type":"text","x":0,"y":600,"text":"Notes"}]}}]}`)
	if len(ops["ops"].([]any)) != 2 {
		t.Fatalf("apply_ops: %v", ops)
	}
	failCall(t, s, "apply_ops", `{"name":"board","ops":[{"tool":"move_elements","args":{"ids":["ghost"],"dx":1}}]}`, "not_found", "/ops/0/args/ids/0")

	okCall(t, s, "delete_elements", `{"name":"board","target":{"text_contains":"notes"}}`)
	failCall(t, s, "delete_elements", `{"name":"board","target":{"text_contains":"no such words"}}`, "not_found", "/target")

	final := okCall(t, s, "validate_scene", `{"name":"board","lint":false}`)
	if final["valid"] != true {
		t.Fatalf("after every tool the scene must validate: %v", final)
	}
}

// TestToolsListWithinBudget: the whole tools/list a client receives from
// a host with the Excalidraw and status plugins is at most 48 KB, and the
// agent guide at most 40 KB.
func TestToolsListWithinBudget(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	res, err := s.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res.Tools); err != nil {
		t.Fatal(err)
	}
	t.Logf("tools/list: %d tools, %d bytes", len(res.Tools), b.Len())
	if b.Len() > 48_000 {
		t.Errorf("tools/list is %d bytes, over its 48 KB budget", b.Len())
	}
	guide := okCall(t, s, "read_me", `{}`)["guide"].(string)
	t.Logf("read_me: %d bytes", len(guide))
	if len(guide) > 40_000 {
		t.Errorf("read_me is %d bytes, over its 40 KB budget", len(guide))
	}
	for _, tool := range res.Tools {
		if tool.Name != "dsh_status" && !strings.Contains(guide, tool.Name) {
			t.Errorf("read_me does not describe %s", tool.Name)
		}
	}
}

// architecture15 is a scripted agent's first call: a 15-node
// architecture diagram with labelled boxes, placed relative to each other
// by ref, and bound, labelled arrows between them.
const architecture15 = `{"name":"arch","elements":[
 {"ref":"web","type":"rectangle","x":0,"y":0,"width":180,"height":80,"label":{"text":"Web app"}},
 {"ref":"mobile","type":"rectangle","place":{"below":"web","gap":100},"width":180,"height":80,"label":{"text":"Mobile app"}},
 {"ref":"cdn","type":"rectangle","place":{"above":"web","gap":100},"width":180,"height":80,"label":{"text":"CDN"}},
 {"ref":"gw","type":"rectangle","place":{"rightOf":"web","gap":200},"width":180,"height":80,"label":{"text":"API gateway"}},
 {"ref":"auth","type":"rectangle","place":{"above":"gw","gap":100},"width":180,"height":80,"label":{"text":"Auth"}},
 {"ref":"orders","type":"rectangle","place":{"rightOf":"gw","gap":200},"width":180,"height":80,"label":{"text":"Orders"}},
 {"ref":"pay","type":"rectangle","place":{"above":"orders","gap":100},"width":180,"height":80,"label":{"text":"Payments"}},
 {"ref":"inv","type":"rectangle","place":{"below":"orders","gap":100},"width":180,"height":80,"label":{"text":"Inventory"}},
 {"ref":"queue","type":"rectangle","place":{"below":"gw","gap":100},"width":180,"height":80,"label":{"text":"Event queue"}},
 {"ref":"odb","type":"ellipse","place":{"rightOf":"orders","gap":200},"width":180,"height":80,"label":{"text":"Orders DB"}},
 {"ref":"pdb","type":"ellipse","place":{"rightOf":"pay","gap":200},"width":180,"height":80,"label":{"text":"Ledger"}},
 {"ref":"idb","type":"ellipse","place":{"rightOf":"inv","gap":200},"width":180,"height":80,"label":{"text":"Stock DB"}},
 {"ref":"mail","type":"rectangle","place":{"below":"queue","gap":100},"width":180,"height":80,"label":{"text":"Mailer"}},
 {"ref":"search","type":"rectangle","place":{"below":"inv","gap":100},"width":180,"height":80,"label":{"text":"Search"}},
 {"ref":"logs","type":"rectangle","place":{"below":"mobile","gap":100},"width":180,"height":80,"label":{"text":"Logs"}},
 {"type":"arrow","startElementId":"web","endElementId":"gw","label":{"text":"HTTPS"}},
 {"type":"arrow","startElementId":"cdn","endElementId":"web"},
 {"type":"arrow","startElementId":"mobile","endElementId":"queue"},
 {"type":"arrow","startElementId":"gw","endElementId":"auth"},
 {"type":"arrow","startElementId":"gw","endElementId":"orders","label":{"text":"REST"}},
 {"type":"arrow","startElementId":"orders","endElementId":"pay"},
 {"type":"arrow","startElementId":"orders","endElementId":"inv"},
 {"type":"arrow","startElementId":"gw","endElementId":"queue"},
 {"type":"arrow","startElementId":"orders","endElementId":"odb"},
 {"type":"arrow","startElementId":"pay","endElementId":"pdb"},
 {"type":"arrow","startElementId":"inv","endElementId":"idb"},
 {"type":"arrow","startElementId":"queue","endElementId":"mail"},
 {"type":"arrow","startElementId":"inv","endElementId":"search"},
 {"type":"arrow","startElementId":"mobile","endElementId":"logs"}]}`

// TestScriptedArchitectureSession is an agent without a model: a fixed
// list of calls that draws a 15-node architecture diagram with labelled
// boxes and bound arrows. At most 3 calls, at most 32 KB of results in
// all, and no lint warning left at the end.
func TestScriptedArchitectureSession(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	total, calls := 0, 0
	call := func(name, args string) map[string]any {
		t.Helper()
		out, n := rawCall(t, s, name, args)
		if out["ok"] != true {
			t.Fatalf("%s failed: %v", name, out)
		}
		total += n
		calls++
		return out
	}
	call("excalidraw_scene_create", `{"name":"arch"}`)
	env := call("batch_create", architecture15)
	if n := len(env["lint"].(map[string]any)["new"].([]any)); n != 0 {
		t.Errorf("the diagram has %d new lint findings: %v", n, env["lint"])
	}
	v := call("validate_scene", `{"name":"arch"}`)
	warnings := 0
	for _, f := range v["lint"].([]any) {
		if sev := f.(map[string]any)["severity"]; sev == "error" || sev == "warning" {
			warnings++
			t.Errorf("lint %v", f)
		}
	}
	t.Logf("%d calls, %d bytes of results, %d lint warnings", calls, total, warnings)
	if calls > 3 || total > 32_000 {
		t.Errorf("%d calls and %d bytes of results, want at most 3 and 32 KB", calls, total)
	}
	g := okCall(t, s, "query_elements", `{"name":"arch","format":"graph"}`)["graph"].(map[string]any)
	if nodes := len(g["nodes"].(map[string]any)["rows"].([]any)); nodes != 15 {
		t.Errorf("the graph has %d nodes, want 15", nodes)
	}
	if edges := len(g["edges"].(map[string]any)["rows"].([]any)); edges != 14 {
		t.Errorf("the graph has %d bound edges, want 14", edges)
	}
}
