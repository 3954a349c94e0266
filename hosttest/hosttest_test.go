package hosttest_test

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/status"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestKit: a host the kit starts answers over HTTP and MCP, follows its
// config file, and is stopped by the test's cleanup without leaving
// goroutines behind (TestMain checks).
func TestKit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dsh.yaml")
	base := hosttest.YAML(t, "")
	hosttest.WriteFile(t, path, base+"  - {id: status, name: status}\n")
	h := hosttest.New(t, dsh.WithConfigFile(path), dsh.WithPlugins(status.Plugin))
	if err := hosttest.Scope(t, h, "status").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	c := hosttest.Client(t)
	if code, body := hosttest.Do(t, c, http.MethodGet, h.URL()+"/api/status", hosttest.Bearer(h)); code != http.StatusOK {
		t.Fatalf("GET /api/status: %d %s", code, body)
	}
	sess, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	if names := hosttest.ToolNames(t, sess); !slices.Contains(names, "dsh_status") {
		t.Fatalf("tools/list: %v", names)
	}
	hosttest.WriteFile(t, path, base)
	hosttest.Eventually(t, "the status entry removed", func() bool {
		_, ok := h.PluginScope("status")
		return !ok
	})
}

// TestKitHTTP: ConfigYAML puts the host on the data directory it names,
// with its host lines; Send sends a body and header fields and reads the
// reply's status, header, body and error code; BearerClient's requests
// carry its token.
func TestKitHTTP(t *testing.T) {
	const inspector = "http://localhost:6274"
	dir := t.TempDir()
	h := hosttest.New(t, dsh.WithPlugins(status.Plugin), dsh.WithConfigYAML([]byte(
		hosttest.ConfigYAML(dir, "  allowedOrigins: ["+inspector+"]\n", "  - {id: status, name: status}\n"))))
	if files, err := os.ReadDir(dir); err != nil || len(files) == 0 {
		t.Fatalf("the host wrote nothing in its data directory: %v %v", files, err)
	}
	c := hosttest.Client(t)
	r := hosttest.Send(t, c, http.MethodGet, h.URL()+"/api/status", "")
	if r.Status != http.StatusUnauthorized || r.Code != "unauthenticated" || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("without a token: %+v", r)
	}
	r = hosttest.Send(t, c, http.MethodPost, h.URL()+"/api/admin/login-links", `{"next":"//evil.example/"}`,
		"Authorization", "Bearer "+h.Token(), "Content-Type", "application/json")
	if r.Status != http.StatusBadRequest || r.Code != "invalid_next" || !strings.Contains(r.Body, "evil.example") {
		t.Fatalf("a body the host refuses: %+v", r)
	}
	bc := hosttest.BearerClient(t, h.Token())
	for origin, want := range map[string]int{"": http.StatusOK, inspector: http.StatusOK, "http://evil.example": http.StatusForbidden} {
		var hdr []string
		if origin != "" {
			hdr = []string{"Origin", origin}
		}
		if r := hosttest.Send(t, bc, http.MethodGet, h.URL()+"/api/status", "", hdr...); r.Status != want || (want == http.StatusOK) != (r.Code == "") {
			t.Errorf("Origin %q with the token: %d %s, want %d", origin, r.Status, r.Body, want)
		}
	}
}
