package hosttest_test

import (
	"net/http"
	"path/filepath"
	"slices"
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
