package webserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/dshgo/dsh/plugins/webserver/apierr"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		err    error
		status int
		code   string
		logged bool
	}{
		{connection.Unavailable(), 503, connection.CodeAdmissionUnavailable, false},
		{fmt.Errorf("wrapped: %w", NewError(409, "exists", "already there")), 409, "exists", false},
		{echo.NewHTTPError(400, "bad").SetInternal(connection.Unavailable()), 503, connection.CodeAdmissionUnavailable, false},
		{&planError{code: "quota", status: 429}, 429, "quota", false},
		{&planError{code: "disk", status: 500}, 500, "disk", true},
		{&planError{code: "odd", status: 200}, 500, "odd", true},
		{&planError{status: 409}, 409, "conflict", false},
		{&http.MaxBytesError{Limit: 10}, 413, CodeTooLarge, false},
		{echo.NewHTTPError(400, "bad").SetInternal(&http.MaxBytesError{Limit: 10}), 413, CodeTooLarge, false},
		{echo.ErrNotFound, 404, CodeNotFound, false},
		{echo.ErrMethodNotAllowed, 405, CodeMethodNotAllowed, false},
		{echo.NewHTTPError(400, "missing field"), 400, "bad_request", false},
		{echo.ErrUnsupportedMediaType, 415, "unsupported_media_type", false},
		{echo.ErrBadGateway, 502, CodeInternal, true},
		{errors.New("db: /var/secret/path"), 500, CodeInternal, true},
	}
	for _, c := range cases {
		p := classify(c.err)
		if p.status != c.status || p.code != c.code || p.logged != c.logged {
			t.Errorf("classify(%v) = %d %q %v, want %d %q %v", c.err, p.status, p.code, p.logged, c.status, c.code, c.logged)
		}
	}
}

func TestWriteErrorShape(t *testing.T) {
	for _, c := range []struct {
		p    problem
		want string
	}{
		{problem{status: 404, code: CodeNotFound, message: "nothing here"}, `{"error":{"code":"not_found","message":"nothing here"}}`},
		{problem{status: 404, code: CodeNotFound, message: "m", details: map[string]any{}}, `{"error":{"code":"not_found","message":"m"}}`},
		{problem{status: 409, code: "c", message: "m", details: map[string]any{"b": 1, "a": "<x>"}},
			`{"error":{"code":"c","message":"m","details":{"a":"\u003cx\u003e","b":1}}}`},
	} {
		w := httptest.NewRecorder()
		if err := writeError(w, c.p); err != nil {
			t.Fatal(err)
		}
		if w.Code != c.p.status || strings.TrimSpace(w.Body.String()) != c.want {
			t.Errorf("%d %s, want %s", w.Code, w.Body, c.want)
		}
		if w.Header().Get("Content-Type") != "application/json; charset=utf-8" || w.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("headers %v", w.Header())
		}
	}
}

// planError is a handler's own error type: it knows nothing of the web
// server beyond the apierr.Coded methods.
type planError struct {
	code    string
	status  int
	details map[string]any
	cause   error
}

func (e *planError) Error() string                { return "plan: " + e.code + ": secret cause /srv/plans" }
func (e *planError) Unwrap() error                { return e.cause }
func (e *planError) ErrorCode() string            { return e.code }
func (e *planError) ErrorMessage() string         { return "the plan says no" }
func (e *planError) HTTPStatus() int              { return e.status }
func (e *planError) ErrorDetails() map[string]any { return e.details }

var _ apierr.Coded = (*planError)(nil)

// errorReply is a JSON error response, decoded.
type errorReply struct {
	Error struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}

func decodeErrorReply(t *testing.T, r result) errorReply {
	t.Helper()
	var e errorReply
	if err := json.Unmarshal([]byte(r.body), &e); err != nil {
		t.Fatalf("%d %q: %v", r.status, r.body, err)
	}
	return e
}

func TestCodedErrorFromHandler(t *testing.T) {
	s := startServer(t, Config{}, admitAll)
	c := newClient(t)
	plan := &planError{code: "over_quota", status: http.StatusTooManyRequests,
		details: map[string]any{"limit": "plans", "max": 3, "actual": 4}}
	if _, err := s.Mount("plans",
		Route{Method: "GET", Path: "/plan", Handler: func(echo.Context) error { return fmt.Errorf("handler: %w", plan) }},
		Route{Method: "GET", Path: "/bare", Handler: func(echo.Context) error {
			return apierr.New(http.StatusConflict, "taken", "the name is taken")
		}},
		Route{Method: "GET", Path: "/auth", Handler: func(echo.Context) error {
			return &planError{code: "login_needed", status: http.StatusUnauthorized}
		}},
	); err != nil {
		t.Fatal(err)
	}
	r := get(t, c, s.URL()+"/plan")
	e := decodeErrorReply(t, r)
	if r.status != http.StatusTooManyRequests || e.Error.Code != "over_quota" || e.Error.Message != "the plan says no" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	// The details name the request (the id its access line and
	// X-Request-ID show), beside the error's own.
	if d := e.Error.Details; len(d) != 4 || d["limit"] != "plans" || d["max"] != 3.0 || d["actual"] != 4.0 ||
		d["request_id"] == "" || d["request_id"] != r.header.Get("X-Request-ID") {
		t.Fatalf("details %v, X-Request-ID %q", d, r.header.Get("X-Request-ID"))
	}
	if strings.Contains(r.body, "secret") {
		t.Fatalf("the error's own text reached the client: %s", r.body)
	}
	r = call(t, c, http.MethodGet, s.URL()+"/bare", nil, "X-Request-ID", "req-bare")
	if r.status != http.StatusConflict || strings.TrimSpace(r.body) != `{"error":{"code":"taken","message":"the name is taken","details":{"request_id":"req-bare"}}}` {
		t.Fatalf("no details: %d %s", r.status, r.body)
	}
	r = get(t, c, s.URL()+"/auth")
	expectStatus(t, r, http.StatusUnauthorized, "login_needed")
	if !strings.HasPrefix(r.header.Get("WWW-Authenticate"), "Bearer") {
		t.Fatalf("401 without WWW-Authenticate: %v", r.header)
	}
	// A browser navigating gets the page, with the same status and code.
	r = call(t, c, http.MethodGet, s.URL()+"/plan", nil, "Sec-Fetch-Mode", "navigate", "Sec-Fetch-Dest", "document")
	if r.status != http.StatusTooManyRequests || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") ||
		!strings.Contains(r.body, "the plan says no") || !strings.Contains(r.body, "429 over_quota") {
		t.Fatalf("navigation: %d %s", r.status, r.body)
	}
}

func TestUncodedErrorIsABare500(t *testing.T) {
	core, logs := observer.New(zapcore.ErrorLevel)
	s := startServerLog(t, Config{}, admitAll, zap.New(core))
	c := newClient(t)
	if _, err := s.Mount("leaky",
		Route{Method: "GET", Path: "/leak", Handler: func(echo.Context) error {
			return fmt.Errorf("open /var/lib/secret.db: %w", io.ErrUnexpectedEOF)
		}},
		// A coded 500 is shown as coded, and its cause still goes to the log.
		Route{Method: "GET", Path: "/disk", Handler: func(echo.Context) error {
			return apierr.New(http.StatusInternalServerError, "io_error", "the disk failed").Wrap(errors.New("EIO on /dev/sda"))
		}},
	); err != nil {
		t.Fatal(err)
	}
	r := call(t, c, http.MethodGet, s.URL()+"/leak", nil, "X-Request-ID", "req-leak")
	if r.status != http.StatusInternalServerError ||
		strings.TrimSpace(r.body) != `{"error":{"code":"internal_error","message":"internal server error","details":{"request_id":"req-leak"}}}` {
		t.Fatalf("%d %s", r.status, r.body)
	}
	r = call(t, c, http.MethodGet, s.URL()+"/disk", nil, "X-Request-ID", "req-disk")
	if r.status != http.StatusInternalServerError ||
		strings.TrimSpace(r.body) != `{"error":{"code":"io_error","message":"the disk failed","details":{"request_id":"req-disk"}}}` {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var logged []string
	for _, e := range logs.FilterMessage("request failed").All() {
		logged = append(logged, fmt.Sprint(e.ContextMap()["error"]))
	}
	if len(logged) != 2 || !strings.Contains(logged[0], "secret.db") || !strings.Contains(logged[1], "EIO on /dev/sda") {
		t.Fatalf("logged %q", logged)
	}
}

func TestSnakeCase(t *testing.T) {
	if got := snakeCase("Request Header Fields Too Large"); got != "request_header_fields_too_large" {
		t.Fatal(got)
	}
	if snakeCase("") != "error" {
		t.Fatal("empty")
	}
}
