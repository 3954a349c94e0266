// Package page renders the few HTML pages the host itself shows a person:
// errors met while navigating (not logged in, nothing here, shutting
// down), the login link's answers and the sign-in forms (password, invite,
// logout). Each is one self-contained page — a title, a sentence or two,
// optionally a form, a command to run and a link — with no scripts and no
// outside resources, so it works offline and under the strictest
// Content-Security-Policy.
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
	// Error, if set, is shown prominently above the form: what went wrong
	// with what the person sent ("Wrong name or password.").
	Error string
	// Form, if set, is a form under the text. A page with a form is
	// served with FormCSP, which lets it post to this server only.
	Form *Form
	// Command, if set, is shown as something to type in a terminal
	// ("dsh login --config dsh.yaml").
	Command string
	// Link, if set, is a same-site link offered under the text.
	Link, LinkText string
	// Detail is small print (a request id, an error code).
	Detail string
	// ReferrerPolicy is the page's Referrer-Policy; "" is "no-referrer".
	// A form posted from a no-referrer page carries "Origin: null" (the
	// Fetch standard's rule), so a form page whose URL holds nothing
	// secret may prefer "same-origin", which keeps its own origin in the
	// post and still tells other sites nothing.
	ReferrerPolicy string
}

// Form is a form that posts (application/x-www-form-urlencoded) to a path
// on this server.
type Form struct {
	// Action is the path the form posts to ("/login").
	Action string
	// Fields are its inputs, in order.
	Fields []Field
	// Submit is the button's label ("Log in").
	Submit string
}

// Field is one input of a form.
type Field struct {
	// Name is what the value is posted as.
	Name string
	// Label is what the person reads next to the input.
	Label string
	// Type is the input's type: "text" (""), "password", "email" or
	// "hidden" (a value carried along, shown to no one).
	Type string
	// Value is the initial value. Password fields are never pre-filled:
	// a Value on one is ignored.
	Value string
	// Autocomplete helps password managers ("username",
	// "current-password", "new-password").
	Autocomplete string
	// Required, ReadOnly and Autofocus are the HTML attributes.
	Required, ReadOnly, Autofocus bool
	// MinLength, when positive, is the minimum length the browser asks for.
	MinLength int
}

// CSP is the policy the pages are served with: nothing but their own
// inline style.
const CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// FormCSP is CSP for a page with a form: the same, except that its form
// may be sent to this server (and only here).
const FormCSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"

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
form{margin:1.25rem 0 .5rem}
label{display:block;margin:.75rem 0 .25rem;font-weight:600;font-size:14px}
input{box-sizing:border-box;width:100%;padding:.5rem .65rem;font:inherit;border:1px solid #d1d5db;border-radius:6px}
input[readonly]{background:#f3f4f6;color:#4b5563}
button{margin-top:1.25rem;padding:.55rem 1.25rem;font:inherit;font-weight:600;color:#fff;background:#4f46e5;border:0;border-radius:6px;cursor:pointer}
.error{margin:.75rem 0;padding:.6rem .8rem;color:#991b1b;background:#fef2f2;border:1px solid #fecaca;border-radius:6px}
</style></head>
<body><main>
<h1>{{.Title}}</h1>
{{if .Body}}<p>{{.Body}}</p>{{end}}
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
{{with .Form}}<form method="post" action="{{.Action}}">
{{range $i, $f := .Fields}}{{if eq $f.Type "hidden"}}<input type="hidden" name="{{$f.Name}}" value="{{$f.Value}}">
{{else}}<label for="f{{$i}}">{{$f.Label}}</label>
<input id="f{{$i}}" name="{{$f.Name}}" type="{{if $f.Type}}{{$f.Type}}{{else}}text{{end}}"{{if ne $f.Type "password"}} value="{{$f.Value}}"{{end}}{{if $f.Autocomplete}} autocomplete="{{$f.Autocomplete}}"{{end}}{{if gt $f.MinLength 0}} minlength="{{$f.MinLength}}"{{end}}{{if $f.Required}} required{{end}}{{if $f.ReadOnly}} readonly{{end}}{{if $f.Autofocus}} autofocus{{end}}>
{{end}}{{end}}<button type="submit">{{if .Submit}}{{.Submit}}{{else}}Continue{{end}}</button>
</form>{{end}}
{{if .Command}}<code>{{.Command}}</code>{{end}}
{{if .Link}}<p><a href="{{.Link}}">{{if .LinkText}}{{.LinkText}}{{else}}{{.Link}}{{end}}</a></p>{{end}}
{{if .Detail}}<small>{{.Detail}}</small>{{end}}
</main></body></html>
`))

// Write sends p with status. Pages are never cached and never sniffed.
func Write(w http.ResponseWriter, status int, p Page) error {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	if p.Form != nil {
		h.Set("Content-Security-Policy", FormCSP)
	} else {
		h.Set("Content-Security-Policy", CSP)
	}
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	referrer := p.ReferrerPolicy
	if referrer == "" {
		referrer = "no-referrer"
	}
	h.Set("Referrer-Policy", referrer)
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
