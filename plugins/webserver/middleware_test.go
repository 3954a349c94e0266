package webserver

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// countBody reports how many body bytes it could read, or returns the read
// error (which is how a handler meets the body limit).
func countBody(c echo.Context) error {
	b, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err
	}
	return c.String(http.StatusOK, strconv.Itoa(len(b)))
}

// unsized hides the length of a body so it is sent chunked.
type unsized struct{ io.Reader }

func TestBodyLimit(t *testing.T) {
	s := startServer(t, Config{MaxBodyBytes: 1024}, admitAll)
	c := newClient(t)
	if _, err := s.Mount("up", Route{Method: "POST", Path: "/upload", Handler: countBody, Public: true}); err != nil {
		t.Fatal(err)
	}
	url := s.URL() + "/upload"

	if r := call(t, c, http.MethodPost, url, bytes.NewReader(make([]byte, 1024))); r.status != http.StatusOK || r.body != "1024" {
		t.Fatalf("at limit: %d %q", r.status, r.body)
	}
	// Declared too large: refused before the handler reads anything.
	r := call(t, c, http.MethodPost, url, bytes.NewReader(make([]byte, 2048)))
	expectStatus(t, r, http.StatusRequestEntityTooLarge, CodeTooLarge)
	// Undeclared (chunked) and too large: cut off while reading.
	r = call(t, c, http.MethodPost, url, unsized{bytes.NewReader(make([]byte, 2048))})
	expectStatus(t, r, http.StatusRequestEntityTooLarge, CodeTooLarge)
	if !strings.Contains(r.body, "1024") {
		t.Errorf("message should state the limit: %s", r.body)
	}
}

func TestBodyLimitThroughBind(t *testing.T) {
	s := startServer(t, Config{MaxBodyBytes: 64}, admitAll)
	c := newClient(t)
	bind := func(c echo.Context) error {
		var v map[string]string
		if err := c.Bind(&v); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, v)
	}
	if _, err := s.Mount("b", Route{Method: "POST", Path: "/bind", Handler: bind, Public: true}); err != nil {
		t.Fatal(err)
	}
	body := unsized{strings.NewReader(`{"k":"` + strings.Repeat("x", 200) + `"}`)}
	r := call(t, c, http.MethodPost, s.URL()+"/bind", body, "Content-Type", "application/json")
	expectStatus(t, r, http.StatusRequestEntityTooLarge, CodeTooLarge)
}

func TestPanicBecomes500AndServerSurvives(t *testing.T) {
	s := startServer(t, Config{}, admitAll)
	c := newClient(t)
	if _, err := s.Mount("bad",
		Route{Method: "GET", Path: "/boom", Handler: func(echo.Context) error { panic("plugin bug") }},
		Route{Method: "GET", Path: "/err", Handler: func(echo.Context) error { return io.ErrUnexpectedEOF }},
		Route{Method: "GET", Path: "/teapot", Handler: func(echo.Context) error { return NewError(http.StatusTeapot, "short_and_stout", "no coffee") }},
		Route{Method: "GET", Path: "/ok", Handler: text("ok")},
	); err != nil {
		t.Fatal(err)
	}
	r := get(t, c, s.URL()+"/boom")
	expectStatus(t, r, http.StatusInternalServerError, CodeInternal)
	if strings.Contains(r.body, "plugin bug") {
		t.Error("panic value leaked to client")
	}
	r = get(t, c, s.URL()+"/err")
	expectStatus(t, r, http.StatusInternalServerError, CodeInternal)
	if strings.Contains(r.body, "unexpected EOF") {
		t.Error("internal error leaked to client")
	}
	expectStatus(t, get(t, c, s.URL()+"/teapot"), http.StatusTeapot, "short_and_stout")
	if r := get(t, c, s.URL()+"/ok"); r.status != http.StatusOK {
		t.Fatalf("server did not survive: %d", r.status)
	}
}

func TestAccessLogAndRequestID(t *testing.T) {
	core, logs := observer.New(zapcore.InfoLevel)
	s := startServerLog(t, Config{}, admitAll, zap.New(core))
	c := newClient(t)
	if _, err := s.Mount("p", Route{Method: "GET", Path: "/p/:x", Handler: text("hello"), Public: true}); err != nil {
		t.Fatal(err)
	}
	r := get(t, c, s.URL()+"/p/1")
	if r.status != http.StatusOK {
		t.Fatal(r.status)
	}
	rid := r.header.Get(echo.HeaderXRequestID)
	if rid == "" {
		t.Fatal("no request id header")
	}
	expectStatus(t, get(t, c, s.URL()+"/missing"), http.StatusNotFound, CodeNotFound)

	entries := logs.FilterLoggerName("webserver.access").AllUntimed()
	if len(entries) != 2 {
		t.Fatalf("access log entries: %d", len(entries))
	}
	f := entries[0].ContextMap()
	if f["method"] != "GET" || f["path"] != "/p/1" || f["status"] != int64(200) || f["bytes"] != int64(5) ||
		f["request_id"] != rid || f["remote"] == "" || f["latency"] == nil {
		t.Fatalf("access log fields: %v", f)
	}
	if st := entries[1].ContextMap()["status"]; st != int64(404) {
		t.Fatalf("404 logged as %v", st)
	}
}
