package httpapi

import (
	"bytes"
	"html"
	"io/fs"
	"net/http"

	"github.com/labstack/echo/v4"
)

// pageCSP confines the editor page to its own origin: scripts, styles,
// fonts and API calls come from dsh and nowhere else, so the page works
// offline and Excalidraw's CDN fallback for fonts is never contacted.
// Inline styles are React's; data: and blob: images are pasted pictures
// and exports; blob: workers are Excalidraw's font subsetting.
const pageCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; " +
	"frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

// notBuilt is what the page route says when the editor was never built,
// instead of a blank page.
const notBuilt = `<!doctype html><meta charset="utf-8"><title>dsh · editor not built</title>
<p>The Excalidraw editor has not been built into this dsh binary. Run <code>make editor</code>
(or <code>make run</code>, which builds it) and start dsh again. The agent tools and the API work without it.</p>`

// page serves the editor's index.html at Prefix+"/". It is admitted like
// every other route: a browser needs the session from the login link. The
// page learns the command that prints a new login link from a meta tag,
// so it can tell a person how to get back in when the session ends.
func page(assets fs.FS, loginCommand string) echo.HandlerFunc {
	if loginCommand == "" {
		loginCommand = "dsh login"
	}
	meta := []byte(`<meta name="dsh-login-command" content="` + html.EscapeString(loginCommand) + `">` + "\n  </head>")
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if assets == nil {
			return c.HTML(http.StatusServiceUnavailable, notBuilt)
		}
		index, err := fs.ReadFile(assets, "index.html")
		if err != nil {
			return c.HTML(http.StatusServiceUnavailable, notBuilt)
		}
		h.Set("Content-Security-Policy", pageCSP)
		return c.HTMLBlob(http.StatusOK, bytes.Replace(index, []byte("</head>"), meta, 1))
	}
}

// toPage sends the bare prefix to the page, whose relative links need the
// trailing slash.
func toPage(c echo.Context) error {
	return c.Redirect(http.StatusMovedPermanently, Prefix+"/")
}
