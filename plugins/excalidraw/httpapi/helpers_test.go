package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/editor"
	"github.com/dshgo/dsh/plugins/excalidraw/exports"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/service"
	"github.com/dshgo/dsh/plugins/webserver"
	"github.com/dshgo/dsh/plugins/webserver/connection"
)

// admitAll admits every request: these tests are about the API, not about
// admission, which the web server's own tests cover.
type admitAll struct{}

func (admitAll) RequestRejection(*http.Request) *connection.Rejection { return nil }

// env is a running web server with the plugin's routes mounted over a
// real service on a temporary drawings directory.
type env struct {
	t        *testing.T
	base     string
	client   *http.Client
	evidence *Evidence
	dir      string
	svc      *service.Service
}

var testLimits = scene.Limits{MaxElements: 500}

func newEnv(t *testing.T, assetFS fs.FS) *env {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "drawings")
	ex, err := exports.Open(exports.Config{Dir: filepath.Join(filepath.Dir(dir), "exports"), Secret: []byte("a test secret of at least 32 bytes")})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := service.New(service.Config{
		DrawingsDir: dir, Limits: testLimits, LockTimeout: 2 * time.Second,
		Rand: rand.New(rand.NewPCG(1, 2)), Fonts: editor.Fonts(), Exports: ex,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = svc.Close() })
	ev := NewEvidence()
	srv, client := serve(t, 1<<20, admitAll{}, Options{
		Service: svc, Evidence: ev, Version: "0.1.0-test", DrawingsDir: dir,
		Limits: testLimits.Effective(), Assets: assetFS, Exports: ex,
	})
	return &env{t: t, base: srv.URL(), client: client, evidence: ev, dir: dir, svc: svc}
}

// serve starts a web server on a free port, admitting requests with
// admit and bounding bodies at maxBody, with the plugin's routes for o
// mounted. The server shuts down, and the client it returns drops its
// connections, when the test ends.
func serve(t *testing.T, maxBody int64, admit connection.Admitter, o Options) (*webserver.Server, *http.Client) {
	t.Helper()
	srv := webserver.New(webserver.Config{Listen: "127.0.0.1:0", MaxBodyBytes: maxBody}, nil,
		func() connection.Admitter { return admit })
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Shutdown(context.Background()); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	if _, err := srv.Mount("excalidraw", Routes(o)...); err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return srv, &http.Client{Transport: tr}
}

// with returns e reporting to t, for use inside subtests.
func (e *env) with(t *testing.T) *env {
	c := *e
	c.t = t
	return &c
}

// reply is a response with its body read and, if JSON, decoded.
type reply struct {
	status int
	header http.Header
	raw    []byte
	body   map[string]any
}

// code is error.code of an error reply, or "".
func (r reply) code() string {
	e, _ := r.body["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

func (r reply) details() map[string]any {
	e, _ := r.body["error"].(map[string]any)
	d, _ := e["details"].(map[string]any)
	return d
}

// do sends body (a string is sent as is, anything else as JSON) to
// path, which is taken verbatim so tests can send escaped paths.
func (e *env) do(method, path string, body any) reply {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, e.base+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	r := reply{status: resp.StatusCode, header: resp.Header, raw: raw}
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		_ = json.Unmarshal(raw, &r.body)
	}
	return r
}

// expect fails unless r has the status and (for errors) the code.
func expect(t *testing.T, r reply, status int, code string) {
	t.Helper()
	if r.status != status || r.code() != code {
		t.Fatalf("got %d %q, want %d %q: %s", r.status, r.code(), status, code, r.raw)
	}
}

// num reads a JSON number field.
func num(t *testing.T, m map[string]any, k string) int64 {
	t.Helper()
	v, ok := m[k].(float64)
	if !ok {
		t.Fatalf("%s is %v, not a number", k, m[k])
	}
	return int64(v)
}

const api = Prefix + "/api"
