package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/labstack/echo/v4"
)

func testAssets() fstest.MapFS {
	f := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	return fstest.MapFS{
		"excalidraw.css":      f("body{}"),
		"app.js":              f("export {}"),
		"fonts/Virgil.woff2":  f("wOF2"),
		"locales/en.json":     f(`{"a":"b"}`),
		"icon.svg":            f("<svg/>"),
		".env":                f("SECRET=1"),
		"fonts/.hidden.woff2": f("x"),
		"secret.txt":          f("no"),
		"dir.css/inner.css":   f("x"),
	}
}

func TestAssetsServed(t *testing.T) {
	e := newEnv(t, testAssets())
	cases := map[string]string{
		"excalidraw.css":     "text/css; charset=utf-8",
		"app.js":             "text/javascript; charset=utf-8",
		"fonts/Virgil.woff2": "font/woff2",
		"locales/en.json":    "application/json",
		"icon.svg":           "image/svg+xml",
	}
	for p, mime := range cases {
		r := e.do(http.MethodGet, Prefix+"/assets/"+p, nil)
		if r.status != http.StatusOK || r.header.Get("Content-Type") != mime {
			t.Errorf("%s: %d %q", p, r.status, r.header.Get("Content-Type"))
			continue
		}
		if r.header.Get("X-Content-Type-Options") != "nosniff" || r.header.Get("Cache-Control") == "" || r.header.Get("ETag") == "" {
			t.Errorf("%s: headers %v", p, r.header)
		}
		if string(r.raw) != string(testAssets()[p].Data) {
			t.Errorf("%s: body %q", p, r.raw)
		}
	}
}

func TestAssetsRevalidate(t *testing.T) {
	e := newEnv(t, testAssets())
	first := e.do(http.MethodGet, Prefix+"/assets/app.js", nil)
	req, _ := http.NewRequest(http.MethodGet, e.base+Prefix+"/assets/app.js", nil)
	req.Header.Set("If-None-Match", first.header.Get("ETag"))
	resp, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d", resp.StatusCode)
	}
}

func TestAssetsRefused(t *testing.T) {
	e := newEnv(t, testAssets())
	for _, p := range []string{
		"..%2fhealth",
		"..%2f..%2fetc%2fpasswd",
		"%2e%2e/%2e%2e/etc/passwd.css",
		"fonts/%2e%2e/excalidraw.css",
		"fonts/..%5cexcalidraw.css",
		"fonts%5cVirgil.woff2",
		"%252e%252e/app.js",
		"%2fapp.js",
		"fonts//Virgil.woff2",
		"./app.js",
		".env",
		"fonts/.hidden.woff2",
		"secret.txt",
		"missing.css",
		"dir.css",
		"fonts",
		"",
		"app.js%00.css",
	} {
		r := e.do(http.MethodGet, Prefix+"/assets/"+p, nil)
		if r.status != http.StatusNotFound {
			t.Errorf("%q: %d %s", p, r.status, r.raw)
		} else if testing.Verbose() {
			t.Logf("%q: %s", p, r.raw)
		}
	}
}

func TestAssetsNil(t *testing.T) {
	e := newEnv(t, nil)
	expect(t, e.do(http.MethodGet, Prefix+"/assets/app.js", nil), http.StatusNotFound, "not_found")
}

func TestAssetPath(t *testing.T) {
	good := map[string]string{"a.css": "a.css", "x/y.WOFF2": "x/y.WOFF2", "a%20b.js": "a b.js"}
	for in, want := range good {
		if got, ok := assetPath(in); !ok || got != want {
			t.Errorf("assetPath(%q) = %q, %v", in, got, ok)
		}
	}
	for _, in := range []string{`a\b.css`, "/a.css", "a/../b.css", "a.exe", "a%zz.css", ".a.css", "a/.b/c.css", "a.css/"} {
		if _, ok := assetPath(in); ok {
			t.Errorf("assetPath(%q) accepted", in)
		}
	}
}

// TestPageCarriesLoginCommand: the page is told the command that prints a
// new login link (escaped), so it can say how to get back in.
func TestPageCarriesLoginCommand(t *testing.T) {
	assets := fstest.MapFS{"index.html": &fstest.MapFile{Data: []byte("<html><head><title>x</title></head><body></body></html>")}}
	rec := httptest.NewRecorder()
	c := echo.New().NewContext(httptest.NewRequest(http.MethodGet, Prefix+"/", nil), rec)
	if err := page(assets, `dsh login --config '/a "b".yaml'`)(c); err != nil {
		t.Fatal(err)
	}
	want := `<meta name="dsh-login-command" content="dsh login --config &#39;/a &#34;b&#34;.yaml&#39;">`
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), want) || !strings.Contains(rec.Body.String(), "</head>") {
		t.Fatalf("page %d:\n%s\nwant %s", rec.Code, rec.Body.String(), want)
	}
}
