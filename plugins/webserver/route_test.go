package webserver

import (
	"errors"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

func okHandler(c echo.Context) error { return c.String(200, "ok") }

func TestRouteNormalize(t *testing.T) {
	r, err := Route{Method: " get ", Path: "/a", Handler: okHandler}.normalize()
	if err != nil || r.Method != "GET" {
		t.Fatalf("%+v %v", r, err)
	}
	if r, err := (Route{Method: "*", Path: "/a", Handler: okHandler}).normalize(); err != nil || r.Method != AnyMethod {
		t.Fatalf("any: %+v %v", r, err)
	}
	bad := []Route{
		{Method: "", Path: "/a", Handler: okHandler},
		{Method: "G-T", Path: "/a", Handler: okHandler},
		{Method: "GET", Path: "a", Handler: okHandler},
		{Method: "GET", Path: "/a?b", Handler: okHandler},
		{Method: "GET", Path: "/a b", Handler: okHandler},
		{Method: "GET", Path: "/a"},
	}
	for _, b := range bad {
		if _, err := b.normalize(); err == nil {
			t.Errorf("accepted %+v", b)
		}
	}
}

func TestRouteConflicts(t *testing.T) {
	cases := []struct {
		a, b Route
		want bool
	}{
		{Route{Method: "GET", Path: "/a"}, Route{Method: "GET", Path: "/a"}, true},
		{Route{Method: "GET", Path: "/a"}, Route{Method: "POST", Path: "/a"}, false},
		{Route{Method: "*", Path: "/a"}, Route{Method: "POST", Path: "/a"}, true},
		{Route{Method: "GET", Path: "/s/:id"}, Route{Method: "GET", Path: "/s/:name"}, true},
		{Route{Method: "GET", Path: "/s/:id/x"}, Route{Method: "GET", Path: "/s/:id/y"}, false},
		{Route{Method: "GET", Path: "/s/:id"}, Route{Method: "GET", Path: "/s/list"}, false},
		{Route{Method: "GET", Path: "/f/*"}, Route{Method: "GET", Path: "/f/*rest"}, true},
		{Route{Method: "GET", Path: "/f/*"}, Route{Method: "GET", Path: "/f/:x"}, false},
	}
	for _, c := range cases {
		if got := c.a.conflicts(c.b); got != c.want {
			t.Errorf("%s %s vs %s %s: got %v", c.a.Method, c.a.Path, c.b.Method, c.b.Path, got)
		}
	}
}

func TestConflictErrorNamesOwner(t *testing.T) {
	var err error = &ConflictError{Owner: "b", Method: "GET", Path: "/x", ExistingOwner: "a", ExistingRoute: "GET /x"}
	var ce *ConflictError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), `"a"`) {
		t.Fatalf("%v", err)
	}
}
