package webserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dshgo/dsh/plugins/webserver/connection"
	"github.com/labstack/echo/v4"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		err      error
		status   int
		code     string
		internal bool
	}{
		{connection.Unavailable(), 503, connection.CodeAdmissionUnavailable, false},
		{fmt.Errorf("wrapped: %w", NewError(409, "exists", "already there")), 409, "exists", false},
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
		status, code, _, internal := classify(c.err)
		if status != c.status || code != c.code || internal != c.internal {
			t.Errorf("classify(%v) = %d %q %v, want %d %q %v", c.err, status, code, internal, c.status, c.code, c.internal)
		}
	}
}

func TestWriteErrorShape(t *testing.T) {
	w := httptest.NewRecorder()
	if err := writeError(w, 404, CodeNotFound, "nothing here"); err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]string
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if w.Code != 404 || got["error"]["code"] != CodeNotFound || got["error"]["message"] != "nothing here" {
		t.Fatalf("%d %s", w.Code, w.Body)
	}
	if w.Header().Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("content type %q", w.Header().Get("Content-Type"))
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
