package excalidraw_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/excalidraw"
)

// TestRootRedirectsToEditor: a person who opens the host's address lands
// on the editor while the plugin is loaded; with it unloaded the host's
// own start page says so (the plugin does not own `/`), and reloading it
// brings the editor back.
func TestRootRedirectsToEditor(t *testing.T) {
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin),
		dsh.WithConfigYAML([]byte(hosttest.YAML(t, "  - {id: excalidraw, name: excalidraw}\n"))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	root := func() (int, string, string) {
		t.Helper()
		resp, err := c.Get(h.URL() + "/")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header.Get("Location"), string(b)
	}
	if code, to, _ := root(); code != http.StatusFound || to != "/dsh-excalidraw/" {
		t.Fatalf("GET / with the plugin: %d Location %q", code, to)
	}
	if err := h.UnloadPlugin(hosttest.Context(t), "excalidraw"); err != nil {
		t.Fatal(err)
	}
	if code, to, body := root(); code != http.StatusOK || to != "" || !strings.Contains(body, "no start page") {
		t.Fatalf("GET / without the plugin: %d Location %q\n%s", code, to, body)
	}
	if err := h.LoadPlugin(hosttest.Context(t), "excalidraw"); err != nil {
		t.Fatal(err)
	}
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	if code, to, _ := root(); code != http.StatusFound || to != "/dsh-excalidraw/" {
		t.Fatalf("GET / with the plugin back: %d Location %q", code, to)
	}
}
