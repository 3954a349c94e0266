package httpapi

import (
	"bytes"
	"context"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
)

func needFonts(t *testing.T) {
	t.Helper()
	if editor.Fonts() == nil {
		testenv.Missing(t, "the editor is not built, and pictures draw text with its fonts; run make editor")
	}
}

var pictureScene = map[string]any{"name": "pic", "elements": []any{
	map[string]any{"type": "rectangle", "id": "a", "x": 0, "y": 0, "width": 200, "height": 100, "label": map[string]any{"text": "Alpha"}},
	map[string]any{"type": "ellipse", "id": "b", "x": 300, "y": 0, "width": 100, "height": 100},
}}

func TestRenderRouteDrawsPNGAndSVGWithETags(t *testing.T) {
	needFonts(t)
	e := newEnv(t, nil)
	expect(t, e.do(http.MethodPost, api+"/scenes", pictureScene), http.StatusCreated, "")
	r := e.do(http.MethodGet, api+"/scenes/pic/render.png", nil)
	expect(t, r, http.StatusOK, "")
	if r.header.Get("Content-Type") != "image/png" || r.header.Get("X-Scene-Revision") != "1" {
		t.Fatalf("headers %v", r.header)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(r.raw))
	if err != nil || cfg.Width != 420 || cfg.Height != 120 {
		t.Fatalf("png %+v %v, want 420 × 120 (the scene plus padding 10)", cfg, err)
	}
	// The same request again, conditional: 304 with nothing drawn.
	req, _ := http.NewRequest(http.MethodGet, e.base+api+"/scenes/pic/render.png", nil)
	req.Header.Set("If-None-Match", r.header.Get("ETag"))
	resp, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified {
		t.Fatalf("conditional: %d", resp.StatusCode)
	}
	// Options are in the picture and its ETag.
	r2 := e.do(http.MethodGet, api+"/scenes/pic/render.png?scale=2&ids=a", nil)
	expect(t, r2, http.StatusOK, "")
	if cfg, _ := png.DecodeConfig(bytes.NewReader(r2.raw)); cfg.Width != 440 || r2.header.Get("ETag") == r.header.Get("ETag") {
		t.Fatalf("scale 2, ids a: %d px wide, etag %s", cfg.Width, r2.header.Get("ETag"))
	}
	s := e.do(http.MethodGet, api+"/scenes/pic/render.svg?dark=true", nil)
	expect(t, s, http.StatusOK, "")
	if !strings.HasPrefix(string(s.raw), "<svg") || !strings.Contains(string(s.raw), "hue-rotate") ||
		!strings.Contains(s.header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("svg %.200s, CSP %q", s.raw, s.header.Get("Content-Security-Policy"))
	}
}

func TestRenderRouteRefusesBadParameters(t *testing.T) {
	e := newEnv(t, nil)
	expect(t, e.do(http.MethodPost, api+"/scenes", pictureScene), http.StatusCreated, "")
	for _, q := range []string{"scale=x", "scale=9", "dark=maybe", "region=1,2,3", "region=0,0,0,10", "max_pixels=-1", "padding=-5"} {
		r := e.do(http.MethodGet, api+"/scenes/pic/render.png?"+q, nil)
		if r.status != http.StatusBadRequest && r.status != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d %s", q, r.status, r.raw)
		}
	}
	expect(t, e.do(http.MethodGet, api+"/scenes/nope/render.png", nil), http.StatusNotFound, "not_found")
	expect(t, e.do(http.MethodGet, api+"/scenes/pic/render.png?ids=zz", nil), http.StatusNotFound, "not_found")
}

// An export link opens its file until it expires; a changed one is
// refused (permission_denied, with the reason) and never reads a file.
func TestExportLinksAreSignedAndChecked(t *testing.T) {
	needFonts(t)
	e := newEnv(t, nil)
	expect(t, e.do(http.MethodPost, api+"/scenes", pictureScene), http.StatusCreated, "")
	res, err := e.svcExport(t, "png")
	if err != nil {
		t.Fatal(err)
	}
	r := e.do(http.MethodGet, res, nil)
	expect(t, r, http.StatusOK, "")
	if r.header.Get("Content-Type") != "image/png" || !strings.HasPrefix(r.header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("headers %v", r.header)
	}
	if _, err := png.DecodeConfig(bytes.NewReader(r.raw)); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(res)
	q := u.Query()
	tampered := map[string]string{}
	sig := q.Get("sig")
	q2 := url.Values{"exp": {q.Get("exp")}, "sig": {strings.Repeat("0", len(sig))}}
	tampered["signature"] = u.Path + "?" + q2.Encode()
	q3 := url.Values{"exp": {"4102444800"}, "sig": {sig}}
	tampered["later expiry"] = u.Path + "?" + q3.Encode()
	tampered["no query"] = u.Path
	for what, path := range tampered {
		r := e.do(http.MethodGet, path, nil)
		expect(t, r, http.StatusForbidden, "permission_denied")
		if r.details()["reason"] != "signature" {
			t.Errorf("%s: reason %v", what, r.details())
		}
	}
	expect(t, e.do(http.MethodGet, "/exports/..%2Fdrawings%2Fpic.excalidraw?exp=1&sig=00", nil), http.StatusForbidden, "permission_denied")
}

// svcExport exports scene pic in format and returns its link's path.
func (e *env) svcExport(t *testing.T, format string) (string, error) {
	t.Helper()
	res, err := e.svc.Export(context.Background(), service.ExportRequest{RenderRequest: service.RenderRequest{Name: "pic", Format: format}})
	if err != nil {
		return "", err
	}
	return res.Link.URL, nil
}
