package httpapi

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"net/url"
	"path"
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

// assetCacheControl lets the browser reuse an asset for an hour and then
// revalidate by ETag: asset names are not content-hashed, so a longer
// lifetime would keep serving old CSS after the plugin is upgraded.
const assetCacheControl = "public, max-age=3600"

// hashedCacheControl is for the editor bundle under app/, whose file names
// carry a content hash (Vite's): a new build means new names, so the
// browser may keep these forever.
const hashedCacheControl = "public, max-age=31536000, immutable"

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

// etagCache remembers each asset's ETag: the asset FS is the embedded
// build and never changes while served, and hashing a 2 MB bundle on every
// request would be work repeated for nothing.
type etagCache struct{ m sync.Map }

func (c *etagCache) of(p string, data []byte) string {
	if v, ok := c.m.Load(p); ok {
		return v.(string)
	}
	sum := sha256.Sum256(data)
	tag := `"` + hex.EncodeToString(sum[:16]) + `"`
	c.m.Store(p, tag)
	return tag
}

// assets serves files from fsys. Every refusal is the same 404, so a
// probe cannot tell "exists but forbidden" from "absent".
func assets(fsys fs.FS) echo.HandlerFunc {
	etags := &etagCache{}
	return func(c echo.Context) error {
		notFound := sceneerr.New(sceneerr.NotFound, "asset not found")
		if fsys == nil {
			return notFound
		}
		p, valid := assetPath(c.Param("*"))
		if !valid {
			return notFound
		}
		info, err := fs.Stat(fsys, p)
		if err != nil || !info.Mode().IsRegular() {
			return notFound
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return notFound
		}
		ext := strings.ToLower(path.Ext(p))
		h := c.Response().Header()
		h.Set("Content-Type", assetTypes[ext])
		h.Set("X-Content-Type-Options", "nosniff")
		if strings.HasPrefix(p, "app/") {
			h.Set("Cache-Control", hashedCacheControl)
		} else {
			h.Set("Cache-Control", assetCacheControl)
		}
		h.Set("ETag", etags.of(p, data))
		if ext == ".svg" {
			h.Set("Content-Security-Policy", svgCSP)
		}
		// ServeContent handles Range, HEAD and If-None-Match; a zero
		// modtime (embedded files) simply omits Last-Modified.
		var mod time.Time
		if !info.ModTime().IsZero() {
			mod = info.ModTime()
		}
		http.ServeContent(c.Response(), c.Request(), path.Base(p), mod, bytes.NewReader(data))
		return nil
	}
}
