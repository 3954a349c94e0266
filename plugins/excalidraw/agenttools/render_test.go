package agenttools

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
)

func needFonts(t testing.TB) {
	t.Helper()
	if editor.Fonts() == nil {
		testenv.Missing(t, "the editor is not built, and render draws text with its fonts; run make editor")
	}
}

const renderScene = `{"name":"pic","elements":[
 {"type":"rectangle","id":"a","x":0,"y":0,"width":200,"height":100,"label":{"text":"Alpha"},"backgroundColor":"#a5d8ff","fillStyle":"hachure"},
 {"type":"rectangle","id":"b","x":400,"y":0,"width":200,"height":100,"label":{"text":"Beta"}},
 {"type":"arrow","id":"ab","startElementId":"a","endElementId":"b"}]}`

type renderReply struct {
	Name     string                 `json:"name"`
	Revision int64                  `json:"revision"`
	Width    int                    `json:"width"`
	Height   int                    `json:"height"`
	Scale    float64                `json:"scale"`
	Origin   [2]float64             `json:"origin"`
	Elements int                    `json:"elements"`
	Legend   [][4]any               `json:"legend"`
	Error    *struct{ Code string } `json:"error"`
}

// Through a real MCP client, render answers a short JSON text (size,
// scale, origin, legend) and the PNG as image content whose size is the
// one the text states, within the agent's default budget.
func TestRenderOverMCPIsAnImageAndALegend(t *testing.T) {
	needFonts(t)
	m := newMCPEnv(t)
	m.ok(t, CreateTool, renderScene)
	res, _ := m.callMCP(t, RenderTool, map[string]any{"name": "pic"})
	if res.IsError || len(res.Content) != 2 {
		t.Fatalf("want text and image, got error=%v and %d blocks", res.IsError, len(res.Content))
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var r renderReply
	if err := json.Unmarshal([]byte(text), &r); err != nil {
		t.Fatal(err)
	}
	if len(text) > 1024 {
		t.Errorf("the text of a three-element render is %d bytes; want at most 1 KiB: %s", len(text), text)
	}
	im, ok := res.Content[1].(*mcp.ImageContent)
	if !ok || im.MIMEType != "image/png" {
		t.Fatalf("second block is %T, want image/png", res.Content[1])
	}
	img, err := png.Decode(bytes.NewReader(im.Data))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != r.Width || b.Dy() != r.Height {
		t.Fatalf("image is %v, text says %d × %d", b, r.Width, r.Height)
	}
	if r.Width*r.Height > service.AgentPixels || max(r.Width, r.Height) > service.AgentLongEdge {
		t.Errorf("%d × %d is over the agent's budget", r.Width, r.Height)
	}
	// Small drawings are drawn at scale 2; the origin maps pixels back.
	if r.Scale != 2 || r.Origin[0] > 0 || r.Origin[1] > 0 {
		t.Errorf("scale %v origin %v, want 2 and the padded top-left corner", r.Scale, r.Origin)
	}
	ids := map[string]bool{}
	for _, l := range r.Legend {
		ids[l[1].(string)] = true
	}
	for _, id := range []string{"a", "b", "ab"} {
		if !ids[id] {
			t.Errorf("legend has no badge for %s: %v", id, r.Legend)
		}
	}
	// The label is in the legend with its container, not as its own badge.
	if len(r.Legend) != 3 || !strings.Contains(text, `"Alpha"`) {
		t.Errorf("legend %v, want the three elements with their labels", r.Legend)
	}
	// Where rectangle a is, the picture is not blank: its hachure is blue.
	px := func(x, y float64) (uint32, uint32, uint32) {
		c := img.At(int((x-r.Origin[0])*r.Scale), int((y-r.Origin[1])*r.Scale))
		r, g, b, _ := c.RGBA()
		return r >> 8, g >> 8, b >> 8
	}
	inked := 0
	for x := 10.0; x < 190; x += 2 {
		if rr, g, b := px(x, 50); b > rr+20 && b > g {
			inked++
		}
	}
	if inked == 0 {
		t.Error("no blue hachure inside rectangle a")
	}
}

func TestRenderRefusesEarlyAndSaysWhy(t *testing.T) {
	e := newEnv(t, scene.Limits{})
	e.ok(t, CreateTool, renderScene)
	for _, c := range []struct{ args, code, pointer string }{
		{`{"name":"pic","scale":9}`, "invalid_arguments", "/scale"},
		{`{"name":"pic","region":{"x":0,"y":0,"width":0,"height":10}}`, "invalid_arguments", "/region/width"},
		{`{"name":"pic","max_pixels":100}`, "invalid_arguments", "/max_pixels"},
		{`{"name":"nope"}`, "not_found", ""},
		{`{"name":"pic","target":{"text_contains":"no such words"}}`, "not_found", ""},
		{`{"name":"pic","scale":4,"max_pixels":10000}`, "too_large", ""},
	} {
		got := e.fail(t, RenderTool, c.args, c.code)
		if c.pointer != "" && !strings.Contains(mustJSON(got), c.pointer) {
			t.Errorf("%s: error does not point at %s: %s", c.args, c.pointer, mustJSON(got))
		}
		if res := e.call(t, RenderTool, c.args); len(res.Images) != 0 {
			t.Errorf("%s: a failure carries an image", c.args)
		}
	}
}

// A target draws only what it selects: the picture of one box is smaller
// than the picture of all three.
func TestRenderTargetDrawsOnlyWhatItSelects(t *testing.T) {
	needFonts(t)
	e := newEnv(t, scene.Limits{})
	e.ok(t, CreateTool, renderScene)
	size := func(args string) image.Point {
		res := e.call(t, RenderTool, args)
		if !res.OK || len(res.Images) != 1 {
			t.Fatalf("%s: %s", args, res.JSON)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(res.Images[0].Data))
		if err != nil {
			t.Fatal(err)
		}
		return image.Pt(cfg.Width, cfg.Height)
	}
	all := size(`{"name":"pic","scale":1}`)
	one := size(`{"name":"pic","scale":1,"ids":["a"]}`)
	if one.X >= all.X/2 || one.X < 200 {
		t.Errorf("one box is %v, all is %v", one, all)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
