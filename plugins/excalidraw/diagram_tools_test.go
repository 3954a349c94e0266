package excalidraw_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCreateDiagramOverMCP draws diagrams through a real MCP client, as
// an agent would: from nodes and edges, then from Mermaid beside the
// first, and reads back what was drawn; bad descriptions are refused at
// their place and change nothing.
func TestCreateDiagramOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"board","elements":[]}`)

	out := okCall(t, s, "create_diagram", `{"name":"board","direction":"LR",
		"nodes":[{"id":"web","label":"Web app","role":"user"},{"id":"api","label":"API","group":"core"},
		         {"id":"db","label":"Orders DB","shape":"cylinder","role":"database","group":"core"},
		         {"id":"q","label":"Queue","role":"queue"}],
		"edges":[{"from":"web","to":"api","label":"HTTPS"},{"from":"api","to":"db","line":"dashed"},
		         {"from":"api","to":"q","end":"none","startLabel":"1","endLabel":"*"}],
		"groups":[{"id":"core","label":"Core"}]}`)
	nodes, _ := out["nodes"].(map[string]any)
	if len(nodes) != 4 || out["diagram"] == nil {
		t.Fatalf("create_diagram answered %v", out)
	}
	if lint, _ := out["lint"].(map[string]any); lint != nil {
		for _, f := range asList(lint["new"]) {
			if f.(map[string]any)["code"] != "arrow_crossing" {
				t.Errorf("lint.new has %v", f)
			}
		}
	}
	raw, _ := json.Marshal(out)
	if len(raw) > 1500 {
		t.Errorf("the answer is %d bytes: %s", len(raw), raw)
	}

	doc := okCall(t, s, "excalidraw_scene_read", `{"name":"board","include":"full"}`)
	els := asList(doc["scene"].(map[string]any)["elements"])
	arrows, tagged := 0, 0
	for _, e := range els {
		el := e.(map[string]any)
		if cd, _ := el["customData"].(map[string]any); cd != nil && cd["dshDiagram"] != nil {
			tagged++
		} else if el["containerId"] == nil {
			t.Errorf("%v %v is not tagged with its part", el["type"], el["id"])
		}
		if el["type"] == "arrow" {
			arrows++
			if el["elbowed"] != true || el["startBinding"] == nil || el["endBinding"] == nil {
				t.Errorf("arrow %v is not a bound elbow arrow", el["id"])
			}
		}
	}
	if arrows != 3 || tagged < 10 {
		t.Errorf("%d arrows, %d of %d elements tagged", arrows, tagged, len(els))
	}

	// A person's kind of edit through an agent: moving a node routes the
	// elbow arrows bound to it again, and the envelope says which.
	moved := okCall(t, s, "move_elements", `{"name":"board","ids":["`+nodes["db"].(string)+`"],"dx":0,"dy":260}`)
	if r := asList(moved["rerouted"]); len(r) != 1 {
		t.Errorf("move_elements rerouted %v, want the one arrow to db", moved["rerouted"])
	}
	if lint, _ := moved["lint"].(map[string]any); lint != nil {
		for _, f := range asList(lint["new"]) {
			if c := f.(map[string]any)["code"]; c != "arrow_crossing" {
				t.Errorf("after the move lint.new has %v", f)
			}
		}
	}

	// Mermaid, beside the first drawing (no overlap).
	out = okCall(t, s, "create_diagram", `{"name":"board","mermaid":"flowchart TB\n  A[Start] --> B{Ok?}\n  B -->|yes| C[Ship]\n  B -->|no| A"}`)
	box := out["box"].(map[string]any)
	if box["x"].(float64) < 100 {
		t.Errorf("the second diagram is at %v, over the first", box)
	}

	// A sequence diagram: participants, lifelines and messages.
	out = okCall(t, s, "create_diagram", `{"name":"board","mermaid":"sequenceDiagram\n  Alice->>+Bob: Hello\n  Bob-->>-Alice: Hi\n  Note over Alice,Bob: greeting"}`)
	if ps, _ := out["nodes"].(map[string]any); len(ps) != 2 {
		t.Errorf("the sequence's participants: %v", out["nodes"])
	}
	if lint, _ := out["lint"].(map[string]any); lint != nil && len(asList(lint["new"])) > 0 {
		t.Errorf("the sequence has lint findings: %v", lint["new"])
	}

	failCall(t, s, "create_diagram", `{"name":"board","nodes":[{"id":"a"}],"edges":[{"from":"a","to":"ghost"}]}`, "invalid_operation", "/edges/0/to")
	failCall(t, s, "create_diagram", `{"name":"board","nodes":[{"id":"a"},{"id":"a"}]}`, "invalid_operation", "/nodes/1/id")
	failCall(t, s, "create_diagram", `{"name":"board","mermaid":"flowchart TB\n  A --> B\n  A -=> C"}`, "invalid_operation", "/mermaid")
	failCall(t, s, "create_diagram", `{"name":"board","mermaid":"graph TD\n A-->B","nodes":[{"id":"x"}]}`, "invalid_operation", "/mermaid")
	failCall(t, s, "create_diagram", `{"name":"board"}`, "invalid_operation", "/nodes")
	failCall(t, s, "create_diagram", `{"name":"board","nodes":[{"id":"a","shape":"star"}]}`, "invalid_operation", "/nodes/0/shape")
	after := okCall(t, s, "excalidraw_scene_read", `{"name":"board","include":"full"}`)
	if after["revision"] != out["revision"] {
		t.Errorf("a refused call changed the scene: revision %v, was %v", after["revision"], out["revision"])
	}
}

// TestCreateDiagramMermaidError: a Mermaid mistake names its line and
// column, in words a model can act on.
func TestCreateDiagramMermaidError(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"board","elements":[]}`)
	out, _ := rawCall(t, s, "create_diagram", `{"name":"board","mermaid":"flowchart TB\n  A --> B\n  A -=> C"}`)
	e := out["error"].(map[string]any)
	d := e["details"].(map[string]any)
	if d["line"] != float64(3) || d["column"] == nil || !strings.Contains(e["message"].(string), "mermaid:3:") {
		t.Errorf("error %v does not point at line 3", e)
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// TestUpdateDiagramOverMCP re-plans a drawn diagram through a real MCP
// client: a node a person moved stays where they put it, the untouched
// ones stay put, a new node and its edges are added beside them without
// overlapping anything, a node left out goes with its arrows, and the
// node elements kept keep their ids.
func TestUpdateDiagramOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"board","elements":[]}`)
	out := okCall(t, s, "create_diagram", `{"name":"board","direction":"LR",
		"nodes":[{"id":"a","label":"Client"},{"id":"b","label":"API"},{"id":"c","label":"Database","role":"database"},{"id":"x","label":"Legacy"}],
		"edges":[{"from":"a","to":"b"},{"from":"b","to":"c","label":"SQL"},{"from":"b","to":"x"}]}`)
	did := out["diagram"].(string)
	nodes := out["nodes"].(map[string]any)
	// A person drags the database box down (here through move_elements).
	okCall(t, s, "move_elements", `{"name":"board","ids":["`+nodes["c"].(string)+`"],"dx":40,"dy":200}`)
	before := sceneElements(t, s)
	upd := okCall(t, s, "update_diagram", `{"name":"board","diagram":"`+did+`","direction":"LR",
		"nodes":[{"id":"a","label":"Web client"},{"id":"b","label":"API"},{"id":"c","label":"Database","role":"database"},{"id":"q","label":"Queue","role":"queue"}],
		"edges":[{"from":"a","to":"b"},{"from":"b","to":"c","label":"SQL"},{"from":"b","to":"q","label":"events"}]}`)
	after := sceneElements(t, s)
	got := upd["nodes"].(map[string]any)
	for _, k := range []string{"a", "b", "c"} {
		if got[k] != nodes[k] {
			t.Errorf("node %s was %v, is %v: a kept node keeps its element", k, nodes[k], got[k])
		}
	}
	if upd["kept"] != float64(3) || len(asList(upd["removed"])) != 1 {
		t.Errorf("kept %v, removed %v", upd["kept"], upd["removed"])
	}
	for _, k := range []string{"b", "c"} {
		id := nodes[k].(string)
		if before[id]["x"] != after[id]["x"] || before[id]["y"] != after[id]["y"] {
			t.Errorf("node %s moved from %v,%v to %v,%v", k, before[id]["x"], before[id]["y"], after[id]["x"], after[id]["y"])
		}
	}
	if _, ok := after[nodes["x"].(string)]; ok {
		t.Error("the node left out is still there")
	}
	q := after[got["q"].(string)]
	if q == nil {
		t.Fatal("the new node was not drawn")
	}
	// The new node overlaps no other box.
	qx, qy, qw, qh := q["x"].(float64), q["y"].(float64), q["width"].(float64), q["height"].(float64)
	for id, el := range after {
		if id == got["q"] || el["type"] != "rectangle" && el["type"] != "ellipse" {
			continue
		}
		x, y, w, h := el["x"].(float64), el["y"].(float64), el["width"].(float64), el["height"].(float64)
		if qx < x+w && x < qx+qw && qy < y+h && y < qy+qh {
			t.Errorf("the new node overlaps %v", id)
		}
	}
	if lint, _ := upd["lint"].(map[string]any); lint != nil {
		for _, f := range asList(lint["new"]) {
			if c := f.(map[string]any)["code"]; c != "arrow_crossing" {
				t.Errorf("after the update lint.new has %v", f)
			}
		}
	}
	arrows := 0
	for _, el := range after {
		if el["type"] == "arrow" {
			arrows++
		}
	}
	if arrows != 3 {
		t.Errorf("%d arrows after the update, want 3", arrows)
	}
	failCall(t, s, "update_diagram", `{"name":"board","diagram":"nope","nodes":[{"id":"a"}]}`, "not_found", "/diagram")
}

// sceneElements reads board's live elements by id.
func sceneElements(t *testing.T, s *mcp.ClientSession) map[string]map[string]any {
	t.Helper()
	return sceneBoxes(t, s, "board")
}
