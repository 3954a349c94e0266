package excalidraw_test

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// profileDiagram is a diagram with every kind of text create_diagram
// draws: node labels, a node's title and fields, edge labels, end labels
// and a group's label.
const profileDiagram = `"direction":"LR",
	"nodes":[{"id":"web","label":"Web app"},{"id":"api","label":"API","group":"core","role":"service"},
	         {"id":"db","label":"Orders","fields":["id: int","total: money"],"group":"core"}],
	"edges":[{"from":"web","to":"api","label":"HTTPS"},{"from":"api","to":"db","startLabel":"1","endLabel":"*"}],
	"groups":[{"id":"core","label":"Core"}]`

// diagramTextSizes reads the board back and names each text create_diagram
// drew by its part ("node", "node/fields", "edge", "edge/endLabel",
// "group/label"…) with its font size.
func diagramTextSizes(t *testing.T, s *mcp.ClientSession, board string) map[string]float64 {
	t.Helper()
	doc := okCall(t, s, "excalidraw_scene_read", `{"name":"`+board+`","include":"full"}`)
	els := asList(doc["scene"].(map[string]any)["elements"])
	part := map[string]string{}
	for _, e := range els {
		el := e.(map[string]any)
		if cd, _ := el["customData"].(map[string]any); cd != nil {
			if tag, _ := cd["dshDiagram"].(map[string]any); tag != nil {
				p, _ := tag["kind"].(string)
				if piece, _ := tag["piece"].(string); piece != "" {
					p += "/" + piece
				}
				part[el["id"].(string)] = p
			}
		}
	}
	sizes := map[string]float64{}
	for _, e := range els {
		el := e.(map[string]any)
		if el["type"] != "text" {
			continue
		}
		p := part[el["id"].(string)]
		if c, _ := el["containerId"].(string); c != "" {
			p = part[c]
		}
		if p == "" {
			t.Fatalf("text %v is no part of the diagram", el["id"])
		}
		size, _ := el["fontSize"].(float64)
		if old, ok := sizes[p]; ok && old != size {
			t.Errorf("%s texts at %v and %v px", p, old, size)
		}
		sizes[p] = size
	}
	return sizes
}

// TestCreateDiagramOnProfileOverMCP draws one diagram through a real MCP
// client on a board with a profile and on one without: with the profile
// every text is on its type scale (node labels at body; edge labels, end
// labels and fields at caption; the group's label at subheading), so
// visual-qa and the lint find nothing on the fresh board; without one
// the sizes are the drawing's own (16, 14, 12).
func TestCreateDiagramOnProfileOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"styled","elements":[]}`)
	okCall(t, s, "excalidraw_scene_create", `{"name":"plain","elements":[]}`)
	okCall(t, s, "set_board_profile", `{"scope":{"board":"styled"},"profile":{
		"typeScale":{"heading":30,"subheading":24,"body":18,"caption":13},
		"roles":{"service":{"fill":"#a5d8ff","stroke":"#1971c2","meaning":"our services"}}}}`)

	out := okCall(t, s, "create_diagram", `{"name":"styled","options":{"lint":"all"},`+profileDiagram+`}`)
	noFindings(t, out)
	want := map[string]float64{"node": 18, "node/title": 18, "node/fields": 13, "edge": 13,
		"edge/startLabel": 13, "edge/endLabel": 13, "group/label": 24}
	checkSizes(t, "with a profile", diagramTextSizes(t, s, "styled"), want)
	for _, args := range []string{`{"name":"styled"}`, `{"name":"styled","profile":"visual-qa"}`} {
		v := okCall(t, s, "validate_scene", args)
		if f := asList(v["lint"]); len(f) > 0 || v["skipped"] != nil {
			b, _ := json.Marshal(f)
			t.Errorf("validate_scene %s: skipped %v, findings %s", args, v["skipped"], b)
		}
	}
	renderPNG(t, s, "styled", "diagram-profile.png")

	okCall(t, s, "create_diagram", `{"name":"plain",`+profileDiagram+`}`)
	want = map[string]float64{"node": 16, "node/title": 16, "node/fields": 14, "edge": 14,
		"edge/startLabel": 12, "edge/endLabel": 12, "group/label": 16}
	checkSizes(t, "without a profile", diagramTextSizes(t, s, "plain"), want)
}

func checkSizes(t *testing.T, what string, got, want map[string]float64) {
	t.Helper()
	for p, w := range want {
		if g, ok := got[p]; !ok || g != w {
			t.Errorf("%s: %s texts at %v px (drawn: %v), want %v", what, p, g, ok, w)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: unexpected text part %s", what, p)
		}
	}
}
