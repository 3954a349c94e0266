// Package page renders the few HTML pages the host itself shows a person:
// errors met while navigating (not logged in, nothing here, shutting
// down) and the login link's answers. Each is one self-contained page — a
// title, a sentence or two, optionally a command to run and a link — with
// no scripts and no outside resources, so it works offline and under the
// strictest Content-Security-Policy.
package page

import (
	"html/template"
	"net/http"
	"strings"
)

// Page is what a person is told.
type Page struct {
	// Title says what happened, in a few words ("Not logged in").
	Title string
	// Body says it in a sentence and what to do about it.
	Body string
	// Command, if set, is shown as something to type in a terminal
	// ("dsh login --config dsh.yaml").
	Command string
	// Link, if set, is a same-site link offered under the text.
	Link, LinkText string
	// Detail is small print (a request id, an error code).
	Detail string
}

// CSP is the policy the pages are served with: nothing but their own
// inline style.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

var tmpl = template.Must(template.New("page").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>dsh · {{.Title}}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;color:#1f2937;background:#f9fafb;margin:0;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{max-width:34rem;margin:2rem;padding:2rem 2.25rem;background:#fff;border:1px solid #e5e7eb;border-radius:12px;box-shadow:0 4px 18px rgba(0,0,0,.06)}
h1{font-size:1.35rem;margin:0 0 .75rem}
p{margin:.5rem 0}
code{display:block;margin:1rem 0;padding:.6rem .8rem;background:#111827;color:#f9fafb;border-radius:6px;font:14px ui-monospace,monospace;white-space:pre-wrap;word-break:break-all}
a{color:#4f46e5}
small{display:block;margin-top:1.25rem;color:#6b7280;font-size:12px}
</style></head>
<body><main>
<h1>{{.Title}}</h1>
<p>{{.Body}}</p>
{{if .Command}}<code>{{.Command}}</code>{{end}}
{{if .Link}}<p><a href="{{.Link}}">{{if .LinkText}}{{.LinkText}}{{else}}{{.Link}}{{end}}</a></p>{{end}}
{{if .Detail}}<small>{{.Detail}}</small>{{end}}
</main></body></html>
`))

// Write sends p with status. Pages are never cached and never sniffed.
func Write(w http.ResponseWriter, status int, p Page) error {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", CSP)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	return tmpl.Execute(w, p)
}

// WantsHTML reports whether r is a person's browser navigating to a page,
// which should be answered with a page rather than JSON: the browser says
// so with Sec-Fetch-Mode: navigate (or Sec-Fetch-Dest: document); without
// those headers, a GET whose Accept names text/html. Fetches, event
// streams and programs get JSON.
func WantsHTML(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	if mode := r.Header.Get("Sec-Fetch-Mode"); mode != "" {
		return mode == "navigate" || r.Header.Get("Sec-Fetch-Dest") == "document"
	}
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}
