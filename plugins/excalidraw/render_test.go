package excalidraw_test

import (
	"bytes"
	"context"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
)

// An agent draws, looks at what it drew and hands a person a link, over
// real HTTP with the official MCP client: render answers image content;
// export's link opens without any credential (its signature is one),
// until it is changed; the picture route itself needs one.
func TestRenderAndExportThroughTheHost(t *testing.T) {
	if editor.Fonts() == nil {
		testenv.Missing(t, "the editor is not built, and pictures draw text with its fonts; run make editor")
	}
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(hosttest.YAML(t,
		"  - {id: excalidraw, name: excalidraw, config: {exports: {secret: \"an export secret of more than 32 chars\"}}}\n"))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	sess, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	if r := callJSON(t, sess, "excalidraw_scene_create", map[string]any{"name": "seen", "elements": []any{
		map[string]any{"type": "rectangle", "id": "a", "x": 0, "y": 0, "width": 160, "height": 80, "label": map[string]any{"text": "Look"}},
		map[string]any{"type": "ellipse", "id": "b", "x": 300, "y": 0, "width": 100, "height": 80},
		map[string]any{"type": "arrow", "id": "ab", "startElementId": "a", "endElementId": "b"},
	}}); r["ok"] != true {
		t.Fatalf("create: %v", r)
	}

	res, err := sess.CallTool(context.Background(), &mcp.CallToolParams{Name: "render", Arguments: map[string]any{"name": "seen"}})
	out := decodeToolResult(t, "render", res, err)
	if len(res.Content) != 2 {
		t.Fatalf("render: %d content blocks, want text and image: %v", len(res.Content), out)
	}
	im, ok := res.Content[1].(*mcp.ImageContent)
	if !ok || im.MIMEType != "image/png" {
		t.Fatalf("render: second block %T", res.Content[1])
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(im.Data))
	if err != nil || float64(cfg.Width) != out["width"] {
		t.Fatalf("image %+v (%v), text says width %v", cfg, err, out["width"])
	}

	ex := callJSON(t, sess, "export", map[string]any{"name": "seen", "format": "svg"})
	link, _ := ex["link"].(map[string]any)
	u, _ := link["url"].(string)
	if !strings.HasPrefix(u, "/exports/") && !strings.Contains(u, "/exports/") {
		t.Fatalf("export link %v", link)
	}
	path := u[strings.Index(u, "/exports/"):]
	c := hosttest.Client(t)
	get := func(p string, token string) (int, []byte) {
		req, _ := http.NewRequest(http.MethodGet, h.URL()+p, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	if code, body := get(path, ""); code != http.StatusOK || !strings.HasPrefix(string(body), "<svg") {
		t.Fatalf("the link without credentials: %d %.100s", code, body)
	}
	if code, _ := get(strings.Replace(path, "sig=", "sig=0", 1), ""); code != http.StatusForbidden {
		t.Fatalf("a changed link: %d, want 403", code)
	}
	if code, _ := get("/dsh-excalidraw/api/scenes/seen/render.png", ""); code != http.StatusUnauthorized {
		t.Fatalf("the picture route without credentials: %d, want 401", code)
	}
	if code, body := get("/dsh-excalidraw/api/scenes/seen/render.png", h.Token()); code != http.StatusOK || !bytes.HasPrefix(body, []byte("\x89PNG")) {
		t.Fatalf("the picture route with the token: %d", code)
	}
}
