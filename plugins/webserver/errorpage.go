package webserver

import (
	"net/http"
	"net/url"

	"github.com/dshgo/dsh/plugins/webserver/connection"
	"github.com/dshgo/dsh/plugins/webserver/page"
)

// pageFor is what a person navigating to path is told about an error: what
// happened in words, and what to do next. Programs get the same status and
// code as JSON (errors.go); this is the page a browser shows instead.
func pageFor(status int, code, message, path, loginCommand string) page.Page {
	switch code {
	case connection.CodeUnauthenticated, connection.CodeInvalidToken:
		return page.Page{
			Title:    "Not logged in",
			Body:     "This browser has no dsh session, or its session ended. Sign in with your name and password, or, on the machine where dsh runs, get a login link with:",
			Command:  loginCommand,
			Link:     "/login?next=" + url.QueryEscape(path),
			LinkText: "Sign in",
		}
	case connection.CodeForbiddenHost:
		return page.Page{Title: "Unknown address", Body: message + ". Open dsh at the address `dsh serve` printed, or add this host to host.allowedHosts."}
	case connection.CodeForbiddenOrigin, connection.CodeCSRFRejected:
		return page.Page{Title: "Refused", Body: "dsh answers only requests made by its own pages: " + message + "."}
	case connection.CodeAdmissionUnavailable, CodeShuttingDown:
		return page.Page{Title: "dsh is not ready", Body: "dsh is starting or stopping, so it cannot let you in right now. Reload this page in a moment.", Link: path, LinkText: "Reload"}
	case connection.CodeStoreUnavailable:
		return page.Page{Title: "dsh cannot reach its database", Body: "dsh keeps everything in a database that does not answer right now, so it cannot check who you are. Nothing was done, and your session is kept. Reload this page in a moment.", Link: path, LinkText: "Reload"}
	case CodeNotFound:
		p := page.Page{
			Title: "Nothing here",
			Body:  "Nothing is served at " + path + " right now. If a plugin serves this page, it may be unloaded: `dsh plugins ls` shows which are loaded.",
		}
		if path != "/" {
			p.Link, p.LinkText = "/", "Go to the start page"
		}
		return p
	case CodeMethodNotAllowed:
		return page.Page{Title: "Not a page", Body: path + " is not a page you can open in a browser.", Link: "/", LinkText: "Go to the start page"}
	}
	if status >= http.StatusInternalServerError {
		return page.Page{Title: "Something went wrong", Body: "dsh could not answer this request. The host's log has the details under the request id below.", Link: path, LinkText: "Try again"}
	}
	return page.Page{Title: http.StatusText(status), Body: message}
}
