package webserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/webserver/connection"
	"github.com/labstack/echo/v4"
	"go.uber.org/zap"
)

// admitFunc adapts a function to connection.Admitter.
type admitFunc func(*http.Request) *connection.Rejection

func (f admitFunc) RequestRejection(r *http.Request) *connection.Rejection { return f(r) }

var _ connection.Admitter = admitFunc(nil)

// admitAll is an admission service that lets everything in, for tests about
// routing rather than admission.
func admitAll() connection.Admitter {
	return admitFunc(func(*http.Request) *connection.Rejection { return nil })
}

// startServer starts a Server on an ephemeral loopback port and shuts it
// down when the test ends.
func startServer(t *testing.T, cfg Config, admission func() connection.Admitter) *Server {
	t.Helper()
	return startServerLog(t, cfg, admission, nil)
}

func startServerLog(t *testing.T, cfg Config, admission func() connection.Admitter, log *zap.Logger) *Server {
	t.Helper()
	cfg.Listen = "127.0.0.1:0"
	s := New(cfg, log, admission)
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Shutdown(context.Background()); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return s
}

// newClient returns a client with its own transport, closed at test end so
// keep-alive goroutines do not trip goleak.
func newClient(t *testing.T) *http.Client {
	t.Helper()
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{
		Transport:     tr,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

type result struct {
	status int
	body   string
	code   string // error.code when the body is a JSON error
	header http.Header
}

// call performs a request and fails the test on transport errors. It must
// only be used from the test goroutine; other goroutines use tryCall.
func call(t *testing.T, c *http.Client, method, url string, body io.Reader, header ...string) result {
	t.Helper()
	r, err := tryCall(c, method, url, body, header...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func tryCall(c *http.Client, method, url string, body io.Reader, header ...string) (result, error) {
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		return result{}, err
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		return result{}, fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return result{}, fmt.Errorf("%s %s: read body: %w", method, url, err)
	}
	r := result{status: resp.StatusCode, body: string(b), header: resp.Header}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		var e errorBody
		if json.Unmarshal(b, &e) == nil {
			r.code = e.Error.Code
		}
	}
	return r, nil
}

// background runs a request off the test goroutine; receive from the
// returned channel to get its outcome.
func background(c *http.Client, method, url string) <-chan outcome {
	ch := make(chan outcome, 1)
	go func() {
		r, err := tryCall(c, method, url, nil)
		ch <- outcome{r, err}
	}()
	return ch
}

type outcome struct {
	result
	err error
}

func (o outcome) must(t *testing.T) result {
	t.Helper()
	if o.err != nil {
		t.Fatal(o.err)
	}
	return o.result
}

func get(t *testing.T, c *http.Client, url string) result {
	t.Helper()
	return call(t, c, http.MethodGet, url, nil)
}

func expectStatus(t *testing.T, r result, status int, code string) {
	t.Helper()
	if r.status != status || r.code != code {
		t.Fatalf("got %d %q (%s), want %d %q", r.status, r.code, r.body, status, code)
	}
}

// eventually polls cond until it holds, failing the test after a generous
// bound. It is for waiting on asynchronous effects, not for timing them.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func text(s string) echo.HandlerFunc {
	return func(c echo.Context) error { return c.String(http.StatusOK, s) }
}

// blocker is a handler that signals when a request enters and then waits
// until released, to hold a request in flight deterministically.
type blocker struct {
	entered chan struct{}
	release chan struct{}
}

func newBlocker() *blocker {
	return &blocker{entered: make(chan struct{}, 16), release: make(chan struct{})}
}

func (b *blocker) handler(c echo.Context) error {
	b.entered <- struct{}{}
	<-b.release
	return c.String(http.StatusOK, "finished")
}

// errorBody decodes the JSON error answer (apierr.Write's shape).
type errorBody struct {
	Error struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	} `json:"error"`
}
