package service

import (
	"bytes"
	"encoding/json"
	"image/png"
	"io"
	"math/rand/v2"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/exports"
	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// withExports is a service with an exports folder beside its drawings.
func withExports(t *testing.T) (*Service, *exports.Store) {
	t.Helper()
	root := t.TempDir()
	ex, err := exports.Open(exports.Config{Dir: filepath.Join(root, "exports"), Secret: []byte("a test secret of at least 32 bytes")})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{DrawingsDir: filepath.Join(root, "drawings"), LockTimeout: 2 * time.Second,
		Rand: rand.New(rand.NewPCG(7, 7)), Exports: ex})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if _, err := s.Create(ctx, CreateRequest{Name: "flow", Elements: flowInputs()}); err != nil {
		t.Fatal(err)
	}
	return s, ex
}

func TestRenderSizesToTheBudget(t *testing.T) {
	s, _ := withExports(t)
	// Automatic scale: the largest up to 2 within the budget.
	res, err := s.Render(ctx, RenderRequest{Name: "flow", MaxPixels: AgentPixels, MaxEdge: AgentLongEdge})
	if err != nil {
		t.Fatal(err)
	}
	if res.Scale != 2 || res.Width*res.Height > AgentPixels || res.MIME != "image/png" {
		t.Fatalf("scale %v, %d × %d, %s", res.Scale, res.Width, res.Height, res.MIME)
	}
	res, err = s.Render(ctx, RenderRequest{Name: "flow", MaxPixels: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Width*res.Height > 20000 || res.Scale >= 1 {
		t.Fatalf("a small budget: scale %v, %d × %d", res.Scale, res.Width, res.Height)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(res.Data))
	if err != nil || cfg.Width != res.Width || cfg.Height != res.Height {
		t.Fatalf("png %+v %v, result says %d × %d", cfg, err, res.Width, res.Height)
	}
}

func TestRenderRefusals(t *testing.T) {
	s, _ := withExports(t)
	for _, c := range []struct {
		r    RenderRequest
		code sceneerr.Code
	}{
		{RenderRequest{Name: "flow", Format: "gif"}, sceneerr.InvalidOperation},
		{RenderRequest{Name: "flow", Scale: -1}, sceneerr.InvalidOperation},
		{RenderRequest{Name: "flow", Target: query.Target{TextContains: "no such"}}, sceneerr.NotFound},
		{RenderRequest{Name: "flow", Scale: 4, MaxPixels: 10000}, sceneerr.TooLarge},
		{RenderRequest{Name: "../flow"}, sceneerr.InvalidName},
		{RenderRequest{Name: "absent"}, sceneerr.NotFound},
	} {
		_, err := s.Render(ctx, c.r)
		if code := sceneerr.CodeOf(err); code != c.code {
			t.Errorf("%+v: %v (%s), want %s", c.r, err, code, c.code)
		}
	}
}

// A PNG over the pixel budget is cut into tiles with an index; every tile
// opens, and together they are the picture.
func TestExportTilesALargePicture(t *testing.T) {
	s, ex := withExports(t)
	s.tiling = tiling{maxPixels: 40000, tileSize: 150}
	res, err := s.Export(ctx, ExportRequest{RenderRequest: RenderRequest{Name: "flow"}})
	if err != nil {
		t.Fatal(err)
	}
	cols, rows := (res.Width+149)/150, (res.Height+149)/150
	if len(res.Tiles) != rows*cols || len(res.Tiles) < 2 || !strings.HasSuffix(res.Link.ID, ".json") {
		t.Fatalf("%d × %d px in %d tiles, index %s", res.Width, res.Height, len(res.Tiles), res.Link.ID)
	}
	width := 0
	for _, tile := range res.Tiles {
		u, _ := url.Parse(tile.Link.URL)
		f, err := ex.Open(strings.TrimPrefix(u.Path, exports.PathPrefix), u.Query().Get("exp"), u.Query().Get("sig"))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(f)
		f.Close()
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil || cfg.Width != tile.Width || cfg.Height != tile.Height {
			t.Fatalf("tile %d,%d: %+v %v", tile.Row, tile.Col, cfg, err)
		}
		if tile.Row == 0 {
			width += tile.Width
		}
	}
	if width != res.Width {
		t.Fatalf("the first row's tiles are %d px wide together, the picture %d", width, res.Width)
	}
	u, _ := url.Parse(res.Link.URL)
	f, err := ex.Open(strings.TrimPrefix(u.Path, exports.PathPrefix), u.Query().Get("exp"), u.Query().Get("sig"))
	if err != nil {
		t.Fatal(err)
	}
	var index ExportResult
	err = json.NewDecoder(f).Decode(&index)
	f.Close()
	if err != nil || len(index.Tiles) != len(res.Tiles) {
		t.Fatalf("index: %v, %d tiles", err, len(index.Tiles))
	}
}

func TestExportTheSceneFileAndRefusals(t *testing.T) {
	s, _ := withExports(t)
	res, err := s.Export(ctx, ExportRequest{RenderRequest: RenderRequest{Name: "flow", Format: ExportExcalidraw}})
	if err != nil || res.Link.MIME != "application/vnd.excalidraw+json" || res.Link.Bytes == 0 {
		t.Fatalf("%+v %v", res, err)
	}
	_, err = s.Export(ctx, ExportRequest{RenderRequest: RenderRequest{Name: "flow", Format: ExportExcalidraw, Target: query.Target{IDs: []string{"a"}}}})
	if sceneerr.CodeOf(err) != sceneerr.InvalidOperation {
		t.Fatalf("excalidraw with a target: %v", err)
	}
	_, err = s.Export(ctx, ExportRequest{RenderRequest: RenderRequest{Name: "flow"}, TTL: 30 * 24 * time.Hour})
	if sceneerr.CodeOf(err) != sceneerr.InvalidOperation || !strings.Contains(err.Error(), "at most") {
		t.Fatalf("a month-long link: %v", err)
	}
	plain, _ := newTestService(t, scene.Limits{})
	if _, err := plain.Export(ctx, ExportRequest{RenderRequest: RenderRequest{Name: "flow"}}); sceneerr.CodeOf(err) != sceneerr.InvalidOperation {
		t.Fatalf("no exports store: %v", err)
	}
}
