package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// assetTypes is both the extension whitelist and the MIME table. The
// types are fixed here rather than taken from mime.TypeByExtension, whose
// answers depend on the machine's /etc/mime.types: a browser refuses a
// font or module script served with the wrong type, and under nosniff it
// will not guess.
var assetTypes = map[string]string{
	".css":   "text/css; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".mjs":   "text/javascript; charset=utf-8",
	".json":  "application/json",
	".map":   "application/json",
	".svg":   "image/svg+xml",
	".png":   "image/png",
	".woff2": "font/woff2",
	".woff":  "font/woff",
	".ttf":   "font/ttf",
	".html":  "text/html; charset=utf-8",
}

// hashedCacheControl is for the editor bundle under app/, whose file names
// carry a content hash (Vite's): a new build means new names, so the
// browser may keep these forever.
const hashedCacheControl = "public, max-age=31536000, immutable"

// unhashedCacheControl is for every other asset (the fonts): their names
// stay the same when their bytes change, so the browser revalidates them
// by ETag before each use.
const unhashedCacheControl = "no-cache"

// svgCSP stops an SVG opened directly from running script in the host's
// origin; images embedded by the editor are unaffected.
const svgCSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

// assetPath turns the route's wildcard into a path inside the asset FS,
// or reports false. It decodes exactly once (echo hands over the escaped
// path) and then refuses anything that is not a plain, relative, clean
// path of visible names with a whitelisted extension: "..", encoded
// dots or slashes that decode to a traversal, backslashes (a separator on
// Windows), NULs, leftover '%' (double encoding), and dotfiles.
func assetPath(raw string) (string, bool) {
	if strings.Contains(raw, `\`) {
		return "", false
	}
	p, err := url.PathUnescape(raw)
	if err != nil || p == "" || strings.ContainsAny(p, "\\%\x00") {
		return "", false
	}
	if !fs.ValidPath(p) || p == "." {
		return "", false
	}
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return "", false
		}
	}
	if _, ok := assetTypes[strings.ToLower(path.Ext(p))]; !ok {
		return "", false
	}
	return p, true
}

// coding is a precompressed copy the build may write beside a file
// (editor/web/compress.mjs): its Content-Encoding name and file suffix.
type coding struct{ name, suffix string }

// codings are the copies dsh serves, most preferred first when a request
// accepts several equally.
var codings = []coding{{"br", ".br"}, {"gzip", ".gz"}}

// variant is one form of an asset as sent: the file itself or one of its
// compressed copies.
type variant struct {
	file string // path in the asset FS
	etag string
	size int64
}

// asset is what is known of one served file: its forms by coding name
// ("" is the file itself). The asset FS is the embedded build and never
// changes while served, so this is worked out once per file.
type asset struct {
	variants map[string]variant
}

// assetCache holds each served file's asset: hashing a 2 MB bundle on
// every request would be work repeated for nothing.
type assetCache struct {
	fsys fs.FS
	m    sync.Map // path → *asset
}

// of returns p's asset, or false when p is not a regular file.
func (c *assetCache) of(p string) (*asset, bool) {
	if v, ok := c.m.Load(p); ok {
		return v.(*asset), true
	}
	self, ok := c.variant(p)
	if !ok {
		return nil, false
	}
	a := &asset{variants: map[string]variant{"": self}}
	for _, cd := range codings {
		if v, ok := c.variant(p + cd.suffix); ok {
			a.variants[cd.name] = v
		}
	}
	v, _ := c.m.LoadOrStore(p, a)
	return v.(*asset), true
}

// variant hashes one file of the asset FS, or reports false when there
// is no regular file at p.
func (c *assetCache) variant(p string) (variant, bool) {
	info, err := fs.Stat(c.fsys, p)
	if err != nil || !info.Mode().IsRegular() {
		return variant{}, false
	}
	data, err := fs.ReadFile(c.fsys, p)
	if err != nil {
		return variant{}, false
	}
	sum := sha256.Sum256(data)
	return variant{file: p, etag: `"` + hex.EncodeToString(sum[:16]) + `"`, size: int64(len(data))}, true
}

// acceptedCodings reads Accept-Encoding headers into each coding's
// q-value (names in lower case, "*" included). An entry with a malformed
// q-value counts as refused.
func acceptedCodings(headers []string) map[string]float64 {
	q := map[string]float64{}
	for _, h := range headers {
		for _, entry := range strings.Split(h, ",") {
			name, params, _ := strings.Cut(entry, ";")
			name = strings.ToLower(strings.TrimSpace(name))
			if name == "" {
				continue
			}
			weight := 1.0
			for _, param := range strings.Split(params, ";") {
				k, v, _ := strings.Cut(param, "=")
				if strings.ToLower(strings.TrimSpace(k)) != "q" {
					continue
				}
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0
				}
				weight = f
			}
			q[name] = weight
		}
	}
	return q
}

// chooseCoding picks which form of a to send for the request's
// Accept-Encoding: the accepted copy with the highest q-value (br before
// gzip on a tie), unless the request gives the file itself (identity) a
// higher one; "" is the file itself. No Accept-Encoding, or none a copy
// exists for, means the file itself.
func chooseCoding(a *asset, headers []string) string {
	if len(a.variants) == 1 || len(headers) == 0 {
		return ""
	}
	q := acceptedCodings(headers)
	weight := func(name string) (float64, bool) {
		if w, ok := q[name]; ok {
			return w, true
		}
		w, ok := q["*"]
		return w, ok
	}
	best, bestQ := "", 0.0
	for _, cd := range codings {
		if _, ok := a.variants[cd.name]; !ok {
			continue
		}
		if w, _ := weight(cd.name); w > bestQ {
			best, bestQ = cd.name, w
		}
	}
	if best == "" {
		return ""
	}
	// The file itself is always acceptable (RFC 9110, 12.5.3), but is
	// preferred only when the request gives it a higher q-value.
	if identity, listed := weight("identity"); listed && identity > bestQ {
		return ""
	}
	return best
}

// assets serves files from fsys, each as the precompressed copy the
// request accepts best when the build wrote one (Vary: Accept-Encoding;
// each form has its own ETag, Content-Length and ranges). Every refusal
// is the same 404, so a probe cannot tell "exists but forbidden" from
// "absent"; the copies themselves are not addressable.
func assets(fsys fs.FS) echo.HandlerFunc {
	cache := &assetCache{fsys: fsys}
	return func(c echo.Context) error {
		notFound := sceneerr.New(sceneerr.NotFound, "asset not found")
		if fsys == nil {
			return notFound
		}
		p, valid := assetPath(c.Param("*"))
		if !valid {
			return notFound
		}
		a, ok := cache.of(p)
		if !ok {
			return notFound
		}
		req := c.Request()
		enc := chooseCoding(a, req.Header.Values("Accept-Encoding"))
		v := a.variants[enc]
		f, err := fsys.Open(v.file)
		if err != nil {
			return notFound
		}
		defer f.Close()
		content, ok := f.(io.ReadSeeker)
		if !ok {
			data, err := io.ReadAll(f)
			if err != nil {
				return notFound
			}
			content = bytes.NewReader(data)
		}
		ext := strings.ToLower(path.Ext(p))
		h := c.Response().Header()
		h.Set("Content-Type", assetTypes[ext])
		h.Set("X-Content-Type-Options", "nosniff")
		if strings.HasPrefix(p, "app/") {
			h.Set("Cache-Control", hashedCacheControl)
		} else {
			h.Set("Cache-Control", unhashedCacheControl)
		}
		if len(a.variants) > 1 {
			h.Set("Vary", "Accept-Encoding")
		}
		if enc != "" {
			// ServeContent leaves Content-Length out of a whole response
			// once Content-Encoding is set; these are the bytes sent.
			h.Set("Content-Encoding", enc)
			h.Set("Content-Length", strconv.FormatInt(v.size, 10))
		}
		h.Set("ETag", v.etag)
		if ext == ".svg" {
			h.Set("Content-Security-Policy", svgCSP)
		}
		// ServeContent handles Range (over the bytes sent), HEAD and
		// If-None-Match; embedded files have no modification time, so
		// there is no Last-Modified.
		http.ServeContent(c.Response(), req, path.Base(p), time.Time{}, content)
		return nil
	}
}
