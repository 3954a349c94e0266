package webserver

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/labstack/echo/v4"
)

// AnyMethod in Route.Method matches every HTTP method, including ones echo
// has no constant for.
const AnyMethod = "*"

// Route is one handler a plugin mounts.
type Route struct {
	// Method is an HTTP method (GET, POST, ...) or "*" for any.
	Method string
	// Path is an echo-style pattern: "/notes/api/pages/:name",
	// "/assets/*".
	Path string
	// Handler serves the route.
	Handler echo.HandlerFunc
	// Public skips connection admission (e.g. a health probe). The default,
	// false, requires the request to be admitted.
	Public bool
	// Stream says a GET on this route is an event stream with no end of
	// its own: shutdown ends it at once, whatever the request's headers
	// (see streams.go). A response with Content-Type text/event-stream
	// is ended too, on any route; Stream also covers the time before the
	// handler writes its header.
	Stream bool
}

// RouteInfo describes a mounted route, for the admin API.
type RouteInfo struct {
	Owner  string `json:"owner"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Public bool   `json:"public"`
}

var (
	methodPattern = regexp.MustCompile(`^[A-Z]+$`)
	paramPattern  = regexp.MustCompile(`:[^/]*`)
	anyPattern    = regexp.MustCompile(`\*.*$`)
)

// normalize checks a route and canonicalises its method, so that invalid
// routes are refused at Mount time, not discovered at request time.
func (r Route) normalize() (Route, error) {
	r.Method = strings.ToUpper(strings.TrimSpace(r.Method))
	if r.Method != AnyMethod && !methodPattern.MatchString(r.Method) {
		return r, fmt.Errorf("webserver: invalid method %q for path %q", r.Method, r.Path)
	}
	if !strings.HasPrefix(r.Path, "/") {
		return r, fmt.Errorf("webserver: path %q must start with /", r.Path)
	}
	if strings.ContainsAny(r.Path, "?# \t\r\n") {
		return r, fmt.Errorf("webserver: path %q contains a query, fragment or space", r.Path)
	}
	if r.Handler == nil {
		return r, errors.New("webserver: route " + r.Method + " " + r.Path + " has no handler")
	}
	return r, nil
}

// shape is the path as echo's router sees it: parameter names do not
// matter ("/a/:id" and "/a/:name" land on the same node and the later one
// would silently replace the earlier), and neither does anything after "*".
func (r Route) shape() string {
	return anyPattern.ReplaceAllString(paramPattern.ReplaceAllString(r.Path, ":"), "*")
}

// conflicts reports whether r and o would compete for the same requests in
// one router. Overlapping but different shapes ("/a/:id" vs "/a/list") are
// fine: echo resolves them by static > param > any priority.
func (r Route) conflicts(o Route) bool {
	if r.shape() != o.shape() {
		return false
	}
	return r.Method == o.Method || r.Method == AnyMethod || o.Method == AnyMethod
}

// ConflictError is returned by Mount when a route is already taken. It names
// the owner so a plugin author knows whom they collided with.
type ConflictError struct {
	Owner         string // who tried to mount
	Method, Path  string
	ExistingOwner string // who already holds the route
	ExistingRoute string // "METHOD /path" as mounted
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("webserver: %q cannot mount %s %s: conflicts with %s mounted by %q",
		e.Owner, e.Method, e.Path, e.ExistingRoute, e.ExistingOwner)
}
