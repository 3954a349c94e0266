package excalidraw_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// deckArgs is a 3-slide deck: on each slide a title and three bullets.
func deckArgs(name string) string {
	var slides []string
	for i, topic := range []string{"Why", "What", "When"} {
		slides = append(slides, fmt.Sprintf(`{"name":"%d. %s","elements":[
			{"type":"text","x":80,"y":60,"text":"%s we build it","level":"title"},
			{"type":"text","x":100,"y":220,"text":"• the first point about %s","level":"body"},
			{"type":"text","x":100,"y":300,"text":"• a second point, a little longer","level":"body"},
			{"type":"text","x":100,"y":380,"text":"• and the third","level":"body"}]}`, i+1, topic, topic, strings.ToLower(topic)))
	}
	return `{"name":"` + name + `","options":{"lint":"all"},"slides":[` + strings.Join(slides, ",") + `]}`
}

// renderPNG writes board's render to dir/file when dir is set (looked at
// by eye: DSH_CRAFT_PNG=/tmp go test -run …).
func renderPNG(t *testing.T, s *mcp.ClientSession, board, file string) {
	t.Helper()
	dir := os.Getenv("DSH_CRAFT_PNG")
	if dir == "" {
		return
	}
	res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "render", Arguments: map[string]any{"name": board}})
	decodeToolResult(t, "render", res, err)
	if err := os.WriteFile(dir+"/"+file, res.Content[1].(*mcp.ImageContent).Data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLayoutFramesOverMCP draws a 3-slide deck in one call through a real
// MCP client, with 0 lint findings: three 16:9 frames in a row, named,
// tagged in order, each holding its title and bullets; then lays existing
// frames out as an A4 grid; bad arguments are refused at their place.
func TestLayoutFramesOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"deck","elements":[]}`)
	out := okCall(t, s, "layout_frames", deckArgs("deck"))
	noFindings(t, out)
	deck, _ := out["deck"].(string)
	frames := asList(out["frames"])
	if !strings.HasPrefix(deck, "dck_") || len(frames) != 3 {
		t.Fatalf("layout_frames answered %v", out)
	}
	els := sceneBoxes(t, s, "deck")
	for i, f := range frames {
		fr := els[f.(string)]
		if fr["type"] != "frame" || fr["width"] != float64(1600) || fr["height"] != float64(900) || fr["x"] != float64(i*1700) || fr["y"] != float64(0) {
			t.Errorf("slide %d: %v %vx%v at %v,%v", i, fr["type"], fr["width"], fr["height"], fr["x"], fr["y"])
		}
		if name, _ := fr["name"].(string); !strings.HasPrefix(name, fmt.Sprint(i+1)+". ") {
			t.Errorf("slide %d is named %q", i, name)
		}
		d, _ := fr["customData"].(map[string]any)["dsh"].(map[string]any)
		if d["kind"] != "slide" || d["id"] != deck || d["slot"] != "frame" || d["index"] != float64(i) {
			t.Errorf("slide %d tagged %v", i, d)
		}
		texts := 0
		for _, el := range els {
			if el["frameId"] == f && el["type"] == "text" {
				texts++
				if strings.Contains(el["text"].(string), "we build it") && el["fontSize"] != float64(56) {
					t.Errorf("a title of size %v", el["fontSize"])
				}
			}
		}
		if texts != 4 {
			t.Errorf("slide %d holds %d texts, want 4", i, texts)
		}
	}
	renderPNG(t, s, "deck", "deck.png")

	// Existing frames: laid out as A4 sheets in a grid of 2, with their
	// children.
	okCall(t, s, "excalidraw_scene_create", `{"name":"sheets","elements":[{"type":"rectangle","id":"r1","x":20,"y":20,"width":100,"height":50}]}`)
	var ids []string
	for _, args := range []string{`"ids":["r1"],"frame_name":"One","padding":20`,
		`"box":{"x":900,"y":900,"width":200,"height":200},"frame_name":"Two"`,
		`"box":{"x":-500,"y":300,"width":200,"height":200},"frame_name":"Three"`} {
		ids = append(ids, okCall(t, s, "create_frame", `{"name":"sheets",`+args+`}`)["frame_id"].(string))
	}
	out = okCall(t, s, "layout_frames", `{"name":"sheets","ids":["`+strings.Join(ids, `","`)+`"],"size":"a4","layout":"grid","columns":2,"gap":40}`)
	els = sceneBoxes(t, s, "sheets")
	for i, want := range [][2]float64{{0, 0}, {834, 0}, {0, 1163}} {
		id := ids[i]
		f := els[id]
		if f["x"] != want[0] || f["y"] != want[1] || f["width"] != float64(794) || f["height"] != float64(1123) {
			t.Errorf("%s at %v,%v %vx%v, want %v 794x1123", id, f["x"], f["y"], f["width"], f["height"], want)
		}
	}
	if r := els["r1"]; r["x"] != float64(20) || r["y"] != float64(20) {
		t.Errorf("f1's child at %v,%v: it did not stay with its frame", r["x"], r["y"])
	}

	failCall(t, s, "layout_frames", `{"name":"deck"}`, "invalid_operation", "/slides")
	failCall(t, s, "layout_frames", `{"name":"deck","slides":[{"name":"x"}],"size":"a5"}`, "invalid_operation", "/size")
	failCall(t, s, "layout_frames", `{"name":"deck","slides":[{"elements":[{"type":"rectangle","x":1500,"y":10,"width":300,"height":50}]}]}`, "invalid_operation", "/slides/0/elements/0")
	failCall(t, s, "layout_frames", `{"name":"sheets","ids":["r1"]}`, "invalid_operation", "/ids/0")
	failCall(t, s, "layout_frames", `{"name":"sheets","ids":["`+ids[0]+`"],"size":{"width":60,"height":60}}`, "invalid_operation", "/ids/0")
}
