package httpapi

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"

	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
)

func brotliOf(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := brotli.NewWriterLevel(&b, brotli.BestCompression)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func gzipOf(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// decode undoes a response's Content-Encoding.
func decode(t *testing.T, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader
	switch coding {
	case "":
		return body
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	default:
		t.Fatalf("unknown coding %q", coding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", coding, err)
	}
	return out
}

// bundle is a script like the editor's, big enough to be worth compressing.
var bundle = []byte(strings.Repeat("export const greeting = 'hello, board';\n", 400))

// compressedAssets is an asset FS as the build leaves it: copies beside
// the compressible files, none beside fonts, and one file with only a
// gzip copy.
func compressedAssets(t *testing.T) fstest.MapFS {
	css := []byte(strings.Repeat(".board{color:#1e1e1e}\n", 100))
	svg := []byte("<svg xmlns='http://www.w3.org/2000/svg'>" + strings.Repeat("<rect width='1' height='1'/>", 50) + "</svg>")
	m := fstest.MapFS{}
	put := func(p string, data []byte) { m[p] = &fstest.MapFile{Data: data} }
	put("app/index-AbC12_-9.js", bundle)
	put("app/index-AbC12_-9.js.br", brotliOf(t, bundle))
	put("app/index-AbC12_-9.js.gz", gzipOf(t, bundle))
	put("app/style-Zz00aa11.css", css)
	put("app/style-Zz00aa11.css.gz", gzipOf(t, css))
	put("app/icon-Qq11Ww22.svg", svg)
	put("app/icon-Qq11Ww22.svg.br", brotliOf(t, svg))
	put("fonts/Virgil/Virgil-Regular.woff2", []byte("wOF2 not compressible"))
	return m
}

// fetch sends one request with the given headers (no Accept-Encoding
// unless given: the client does not add its own) and reads the reply.
func fetch(t *testing.T, e *env, method, path string, headers ...string) reply {
	t.Helper()
	req, err := http.NewRequest(method, e.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, raw: raw}
}

// TestAssetsNegotiateEncoding: the bundle goes out as the copy the
// browser accepts best, br before gzip, q-values respected, the file
// itself when nothing compressed is accepted or no copy exists, and each
// form decodes to the file's bytes, with its own length and ETag.
func TestAssetsNegotiateEncoding(t *testing.T) {
	fsys := compressedAssets(t)
	e := newEnv(t, fsys)
	const js = Prefix + "/assets/app/index-AbC12_-9.js"
	cases := []struct {
		accept []string // Accept-Encoding headers, none if empty
		want   string   // the Content-Encoding expected
	}{
		{nil, ""},
		{[]string{"gzip, deflate, br, zstd"}, "br"},
		{[]string{"br"}, "br"},
		{[]string{"gzip"}, "gzip"},
		{[]string{"deflate"}, ""},
		{[]string{"identity"}, ""},
		{[]string{""}, ""},
		{[]string{"gzip;q=1.0, br;q=0.5"}, "gzip"},
		{[]string{"br;q=0.8, gzip;q=0.8"}, "br"},
		{[]string{"br;q=0, gzip"}, "gzip"},
		{[]string{"br;q=0, gzip;q=0"}, ""},
		{[]string{"BR ; Q=0.4 , GZip;q=0.2"}, "br"},
		{[]string{"br;q=bogus, gzip"}, "gzip"},
		{[]string{"*"}, "br"},
		{[]string{"*;q=0"}, ""},
		{[]string{"*;q=0.5, br;q=0"}, "gzip"},
		{[]string{"gzip;q=0.5, identity"}, ""},
		{[]string{"br;q=0.5, identity;q=0.8"}, ""},
		{[]string{"identity;q=0, *"}, "br"},
		{[]string{"gzip", "br"}, "br"}, // two header lines are one list
	}
	etags := map[string]string{}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%q", tc.accept), func(t *testing.T) {
			var h []string
			for _, a := range tc.accept {
				h = append(h, "Accept-Encoding", a)
			}
			r := fetch(t, e, http.MethodGet, js, h...)
			if r.status != http.StatusOK {
				t.Fatalf("%d %s", r.status, r.raw)
			}
			got := r.header.Get("Content-Encoding")
			if got != tc.want {
				t.Fatalf("Content-Encoding %q, want %q", got, tc.want)
			}
			if body := decode(t, got, r.raw); !bytes.Equal(body, bundle) {
				t.Fatalf("decoded body differs from the file (%d bytes, want %d)", len(body), len(bundle))
			}
			if n, _ := strconv.Atoi(r.header.Get("Content-Length")); n != len(r.raw) {
				t.Errorf("Content-Length %q, sent %d bytes", r.header.Get("Content-Length"), len(r.raw))
			}
			if got != "" && len(r.raw) >= len(bundle) {
				t.Errorf("%s form is %d bytes, the file %d", got, len(r.raw), len(bundle))
			}
			for k, v := range map[string]string{
				"Content-Type":           "text/javascript; charset=utf-8",
				"Vary":                   "Accept-Encoding",
				"Cache-Control":          "public, max-age=31536000, immutable",
				"X-Content-Type-Options": "nosniff",
			} {
				if r.header.Get(k) != v {
					t.Errorf("%s: %q, want %q", k, r.header.Get(k), v)
				}
			}
			tag := r.header.Get("ETag")
			if prev, ok := etags[got]; ok && prev != tag {
				t.Errorf("ETag of the %q form changed: %s then %s", got, prev, tag)
			}
			etags[got] = tag
		})
	}
	if len(etags) != 3 || etags[""] == etags["br"] || etags[""] == etags["gzip"] || etags["br"] == etags["gzip"] {
		t.Errorf("each form needs its own ETag: %v", etags)
	}
}

// TestAssetsMissingCopy: a file with only a gzip copy is sent gzipped to
// a browser that accepts both, as itself to one that accepts only br;
// a file without copies (a font) varies on nothing.
func TestAssetsMissingCopy(t *testing.T) {
	fsys := compressedAssets(t)
	e := newEnv(t, fsys)
	const css = Prefix + "/assets/app/style-Zz00aa11.css"
	r := fetch(t, e, http.MethodGet, css, "Accept-Encoding", "br")
	if r.status != http.StatusOK || r.header.Get("Content-Encoding") != "" || !bytes.Equal(r.raw, fsys["app/style-Zz00aa11.css"].Data) {
		t.Errorf("br only: %d %v", r.status, r.header)
	}
	if r.header.Get("Vary") != "Accept-Encoding" || r.header.Get("Content-Type") != "text/css; charset=utf-8" {
		t.Errorf("br only: %v", r.header)
	}
	r = fetch(t, e, http.MethodGet, css, "Accept-Encoding", "br, gzip")
	if r.header.Get("Content-Encoding") != "gzip" || !bytes.Equal(decode(t, "gzip", r.raw), fsys["app/style-Zz00aa11.css"].Data) {
		t.Errorf("br, gzip: %v", r.header)
	}

	svg := fetch(t, e, http.MethodGet, Prefix+"/assets/app/icon-Qq11Ww22.svg", "Accept-Encoding", "gzip, br")
	if svg.header.Get("Content-Encoding") != "br" || svg.header.Get("Content-Security-Policy") != svgCSP || svg.header.Get("Content-Type") != "image/svg+xml" {
		t.Errorf("svg: %v", svg.header)
	}

	font := fetch(t, e, http.MethodGet, Prefix+"/assets/fonts/Virgil/Virgil-Regular.woff2", "Accept-Encoding", "gzip, br")
	if font.status != http.StatusOK || font.header.Get("Content-Encoding") != "" || font.header.Get("Vary") != "" {
		t.Errorf("font: %d %v", font.status, font.header)
	}
	if font.header.Get("Content-Type") != "font/woff2" || font.header.Get("Cache-Control") != "no-cache" {
		t.Errorf("font: %v", font.header)
	}

	// The copies are the server's business, not addressable themselves.
	for _, p := range []string{"app/index-AbC12_-9.js.br", "app/index-AbC12_-9.js.gz"} {
		if r := fetch(t, e, http.MethodGet, Prefix+"/assets/"+p, "Accept-Encoding", "br, gzip"); r.status != http.StatusNotFound {
			t.Errorf("%s: %d", p, r.status)
		}
	}
}

// TestAssetsEncodedHeadRangeRevalidate: HEAD says what GET would send
// (the compressed length), a Range is over the bytes sent, and a
// revalidation matches only the form it was given.
func TestAssetsEncodedHeadRangeRevalidate(t *testing.T) {
	fsys := compressedAssets(t)
	e := newEnv(t, fsys)
	const js = Prefix + "/assets/app/index-AbC12_-9.js"
	br := fsys["app/index-AbC12_-9.js.br"].Data

	head := fetch(t, e, http.MethodHead, js, "Accept-Encoding", "br")
	if head.status != http.StatusOK || len(head.raw) != 0 || head.header.Get("Content-Encoding") != "br" ||
		head.header.Get("Content-Length") != strconv.Itoa(len(br)) || head.header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("HEAD: %d %v", head.status, head.header)
	}
	plainHead := fetch(t, e, http.MethodHead, js)
	if plainHead.header.Get("Content-Length") != strconv.Itoa(len(bundle)) || plainHead.header.Get("Content-Encoding") != "" {
		t.Errorf("HEAD without Accept-Encoding: %v", plainHead.header)
	}

	part := fetch(t, e, http.MethodGet, js, "Accept-Encoding", "br", "Range", "bytes=0-9")
	if part.status != http.StatusPartialContent || part.header.Get("Content-Encoding") != "br" ||
		part.header.Get("Content-Range") != fmt.Sprintf("bytes 0-9/%d", len(br)) || !bytes.Equal(part.raw, br[:10]) {
		t.Errorf("range of br: %d %v %q", part.status, part.header, part.raw)
	}
	plainPart := fetch(t, e, http.MethodGet, js, "Range", "bytes=7-12")
	if plainPart.status != http.StatusPartialContent || plainPart.header.Get("Content-Encoding") != "" || !bytes.Equal(plainPart.raw, bundle[7:13]) {
		t.Errorf("range of the file: %d %v %q", plainPart.status, plainPart.header, plainPart.raw)
	}
	beyond := fetch(t, e, http.MethodGet, js, "Accept-Encoding", "br", "Range", fmt.Sprintf("bytes=%d-", len(br)+5))
	if beyond.status != http.StatusRequestedRangeNotSatisfiable || beyond.header.Get("Content-Encoding") != "" || beyond.header.Get("ETag") != "" {
		t.Errorf("range beyond the br form: %d %v", beyond.status, beyond.header)
	}

	brTag := head.header.Get("ETag")
	plainTag := plainHead.header.Get("ETag")
	if r := fetch(t, e, http.MethodGet, js, "Accept-Encoding", "br", "If-None-Match", brTag); r.status != http.StatusNotModified || r.header.Get("ETag") != brTag {
		t.Errorf("revalidating the br form: %d %v", r.status, r.header)
	}
	if r := fetch(t, e, http.MethodGet, js, "Accept-Encoding", "br", "If-None-Match", plainTag); r.status != http.StatusOK || r.header.Get("Content-Encoding") != "br" {
		t.Errorf("the file's ETag revalidating the br form: %d %v", r.status, r.header)
	}
	if r := fetch(t, e, http.MethodGet, js, "If-None-Match", plainTag); r.status != http.StatusNotModified {
		t.Errorf("revalidating the file: %d %v", r.status, r.header)
	}
}

// TestBuiltBundleCompressed serves the real build: its entry script goes
// out as brotli or gzip, smaller, and decodes to the file's bytes.
func TestBuiltBundleCompressed(t *testing.T) {
	a := editor.Assets()
	if a == nil {
		testenv.Missing(t, "editor not built; run make editor (make test builds it)")
	}
	index, err := fs.ReadFile(a, editor.IndexFile)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(index), `src="`+Prefix+`/assets/`)
	entry, _, _ := strings.Cut(rest, `"`)
	if !ok || entry == "" {
		t.Fatalf("no entry script in index.html:\n%s", index)
	}
	want, err := fs.ReadFile(a, entry)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, a)
	for _, coding := range []string{"br", "gzip"} {
		r := fetch(t, e, http.MethodGet, Prefix+"/assets/"+entry, "Accept-Encoding", coding)
		if r.status != http.StatusOK || r.header.Get("Content-Encoding") != coding {
			t.Errorf("%s: %d %v (was the build's compress.mjs run?)", coding, r.status, r.header)
			continue
		}
		if !bytes.Equal(decode(t, coding, r.raw), want) {
			t.Errorf("%s: decoded entry script differs from %s", coding, entry)
		}
		t.Logf("%s: %d bytes as %s, %d as itself", entry, len(r.raw), coding, len(want))
	}
}
