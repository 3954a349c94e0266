package excalidraw_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dshgo/dsh"
	"github.com/dshgo/dsh/hosttest"
	"github.com/dshgo/dsh/plugins/excalidraw"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// surfaceCase is one error code reached through both of the plugin's
// surfaces: the agent tool (over MCP) and the browser's HTTP API.
type surfaceCase struct {
	code       sceneerr.Code
	what       string
	tool       string
	args       map[string]any
	method     string
	path       string
	body       any
	concurrent bool // both calls wait out something slow (the lock timeout)
	bot        bool // made by a connect token (the rate-limited bot) instead of the host token
}

// TestErrorCodesThroughBothSurfaces drives every contract error code
// through the tools and the HTTP API of one running host, and checks that
// both give the same code, that HTTP answers with the code's status, and
// that nothing in the drawings directory changed.
func TestErrorCodesThroughBothSurfaces(t *testing.T) {
	drawings := filepath.Join(t.TempDir(), "drawings")
	h := hosttest.New(t, dsh.WithPlugins(excalidraw.Plugin), dsh.WithConfigYAML([]byte(hosttest.YAML(t, fmt.Sprintf(
		"  - {id: excalidraw, name: excalidraw, config: {drawingsDir: %q, maxElements: 5, maxSceneBytes: 8192}}\n", drawings)))))
	if err := hosttest.Scope(t, h, "excalidraw").AwaitActive(hosttest.Context(t)); err != nil {
		t.Fatal(err)
	}
	sess, _, closeMCP := hosttest.MCP(t, h)
	defer closeMCP()
	api := apiClient{t: t, c: hosttest.Client(t), base: h.URL() + "/dsh-excalidraw/api", token: h.Token()}

	// The world the cases run against.
	flow := []any{
		map[string]any{"type": "rectangle", "id": "a", "x": 0, "y": 0, "width": 160, "height": 80, "label": map[string]any{"text": "A"}},
		map[string]any{"type": "ellipse", "id": "b", "x": 400, "y": 0, "width": 120, "height": 80},
		map[string]any{"type": "arrow", "id": "ab", "startElementId": "a", "endElementId": "b"},
	}
	for _, name := range []string{"flow", "broken", "busy", "busy2", "stuck", "binned"} {
		if out := callJSON(t, sess, "excalidraw_scene_create", map[string]any{"name": name, "elements": flow}); out["ok"] != true {
			t.Fatalf("create %s: %v", name, out)
		}
	}
	// binned is in the trash: its name is not available, and not said why.
	if st, out := api.call(http.MethodDelete, "/boards/binned", nil); st != 200 {
		t.Fatalf("trash binned: %d %v", st, out)
	}
	// flow moves to revision 2, so expected_revision 1 is stale.
	if out := callJSON(t, sess, "excalidraw_scene_apply", map[string]any{"name": "flow", "expected_revision": 1,
		"operations": []any{map[string]any{"op": "update", "id": "b", "patch": map[string]any{"x": 450}}}}); out["ok"] != true {
		t.Fatalf("apply: %v", out)
	}
	_, doc := api.call(http.MethodGet, "/scenes/flow", nil)
	flowDoc := doc["scene"].(map[string]any)
	saves := 0
	saveOf := func(d any, rev int) map[string]any { // a fresh request id each, so none is a replay
		saves++
		return map[string]any{"scene": d, "expected_revision": rev, "request_id": fmt.Sprintf("save-%d", saves)}
	}
	// broken: bytes that do not parse, and no backup to recover from.
	if err := os.WriteFile(filepath.Join(drawings, "broken.excalidraw"), []byte(`{"type":"excalidraw","elements":[`), 0o600); err != nil {
		t.Fatal(err)
	}
	// link: a scene name that is a symlink to a file outside the directory.
	outside := filepath.Join(t.TempDir(), "outside.excalidraw")
	if err := os.WriteFile(outside, mustJSON(t, flowDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(drawings, "link.excalidraw")); err != nil {
		t.Fatal(err)
	}
	// busy, busy2: another process holds their locks (a live flock with a
	// holder record). Two scenes, so the two surfaces wait out the lock
	// timeout side by side rather than queued behind each other.
	for _, name := range []string{"busy", "busy2"} {
		defer holdSceneLock(t, drawings, name)()
	}
	// stuck: the path its revision-1 backup must take is a non-empty
	// directory, so the disk refuses the save midway (a real EISDIR).
	blocker := filepath.Join(drawings, ".dsh-excalidraw", "backups", "stuck.1.excalidraw")
	if err := os.MkdirAll(blocker, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(blocker, "keep"), nil, 0o600); err != nil {
		t.Fatal(err)
	}

	withElement := func(el map[string]any) map[string]any {
		d := cloneJSON(t, flowDoc)
		d["elements"] = append(d["elements"].([]any), el)
		return d
	}
	firstElement := flowDoc["elements"].([]any)[0].(map[string]any)
	blob := cloneJSON(t, firstElement)
	blob["id"], blob["type"], blob["index"] = "f", "blob", "a9"
	six := make([]any, 6)
	for i := range six {
		six[i] = map[string]any{"type": "rectangle", "x": i * 200, "y": 0, "width": 100, "height": 50}
	}
	longText := []any{map[string]any{"type": "text", "x": 0, "y": 0, "text": strings.Repeat("long words ", 900)}}
	badFile := map[string]any{"f": map[string]any{"id": "f", "mimeType": "image/png", "dataURL": "nope"}}

	// A bot that may create boards, its hourly ten used up.
	var minted struct{ Token string }
	if st, out := api.with(t).call(http.MethodPost, "/mcp/tokens", map[string]any{"boards": []string{"flow"}, "role": "editor", "canCreateBoards": true, "name": "quota"}); st != 201 {
		t.Fatalf("mint: %d %v", st, out)
	} else {
		minted.Token, _ = out["token"].(string)
	}
	botAPI := apiClient{t: t, c: hosttest.Client(t), base: h.URL() + "/dsh-excalidraw/api", token: minted.Token}
	botSess := hosttest.MCPWithToken(t, h, minted.Token)
	for i := range 10 {
		if out := callJSON(t, botSess, "create_board", map[string]any{"name": fmt.Sprintf("quota-%d", i)}); errorCode(out) != "" {
			t.Fatalf("create %d: %v", i, out)
		}
	}

	cases := []surfaceCase{
		{code: sceneerr.RateLimited, what: "a bot's eleventh board in an hour", bot: true,
			tool: "excalidraw_scene_create", args: map[string]any{"name": "one-too-many"},
			method: http.MethodPost, path: "/scenes", body: map[string]any{"name": "one-too-many"}},
		{code: sceneerr.InvalidName, what: "a name with a path in it",
			tool: "excalidraw_scene_read", args: map[string]any{"name": "../etc"},
			method: http.MethodPost, path: "/scenes", body: map[string]any{"name": "../etc"}},
		{code: sceneerr.NotFound, what: "a scene that does not exist",
			tool: "excalidraw_scene_read", args: map[string]any{"name": "nothing"},
			method: http.MethodGet, path: "/scenes/nothing"},
		{code: sceneerr.AlreadyExists, what: "creating a scene that exists",
			tool: "excalidraw_scene_create", args: map[string]any{"name": "flow"},
			method: http.MethodPost, path: "/scenes", body: map[string]any{"name": "flow"}},
		{code: sceneerr.NameUnavailable, what: "creating a board under a name in the trash",
			tool: "create_board", args: map[string]any{"name": "binned"},
			method: http.MethodPost, path: "/scenes", body: map[string]any{"name": "binned"}},
		{code: sceneerr.InvalidScene, what: "a document that is not a scene",
			tool: "excalidraw_scene_create", args: map[string]any{"name": "img", "files": badFile},
			method: http.MethodPut, path: "/scenes/flow", body: saveOf([]any{1}, 2)},
		{code: sceneerr.InvalidOperation, what: "an argument the schema does not declare",
			tool: "excalidraw_scene_read", args: map[string]any{"name": "flow", "mode": "full"},
			method: http.MethodPost, path: "/scenes", body: map[string]any{"name": "x", "colour": "red"}},
		{code: sceneerr.RevisionConflict, what: "a stale expected revision",
			tool: "excalidraw_scene_apply", args: map[string]any{"name": "flow", "expected_revision": 1,
				"operations": []any{map[string]any{"op": "delete", "id": "b"}}},
			method: http.MethodPut, path: "/scenes/flow", body: saveOf(flowDoc, 1)},
		{code: sceneerr.SceneBusy, what: "another process holds the lock", concurrent: true,
			tool: "excalidraw_scene_apply", args: map[string]any{"name": "busy", "expected_revision": 1,
				"operations": []any{map[string]any{"op": "delete", "id": "b"}}},
			method: http.MethodPut, path: "/scenes/busy2", body: saveOf(flowDoc, 1)},
		{code: sceneerr.TooLarge, what: "a scene over maxSceneBytes",
			tool: "excalidraw_scene_create", args: map[string]any{"name": "big", "elements": longText},
			method: http.MethodPost, path: "/scenes", body: map[string]any{"name": "big", "elements": longText}},
		{code: sceneerr.TooManyElements, what: "more elements than maxElements",
			tool: "excalidraw_scene_create", args: map[string]any{"name": "many", "elements": six},
			method: http.MethodPost, path: "/scenes", body: map[string]any{"name": "many", "elements": six}},
		{code: sceneerr.PermissionDenied, what: "a scene file that is a symlink",
			tool: "excalidraw_scene_read", args: map[string]any{"name": "link"},
			method: http.MethodGet, path: "/scenes/link"},
		{code: sceneerr.CorruptScene, what: "stored bytes that do not parse",
			tool: "excalidraw_scene_read", args: map[string]any{"name": "broken"},
			method: http.MethodGet, path: "/scenes/broken"},
		{code: sceneerr.IOError, what: "the disk refuses the backup write",
			tool: "excalidraw_scene_apply", args: map[string]any{"name": "stuck", "expected_revision": 1,
				"operations": []any{map[string]any{"op": "delete", "id": "b"}}},
			method: http.MethodPut, path: "/scenes/stuck", body: saveOf(flowDoc, 1)},
		{code: sceneerr.UnsupportedElement, what: "an element type Excalidraw 0.18 does not have",
			tool: "excalidraw_scene_create", args: map[string]any{"name": "x", "elements": []any{map[string]any{"type": "blob"}}},
			method: http.MethodPut, path: "/scenes/flow", body: saveOf(withElement(blob), 2)},
		// A full-scene save repairs duplicate ids and dangling bindings the
		// way Excalidraw's restore would on load (see service.Save), so the
		// HTTP surface reaches these two through create's strict inputs.
		{code: sceneerr.DuplicateID, what: "two elements with one id",
			tool: "excalidraw_scene_apply", args: map[string]any{"name": "flow", "expected_revision": 2,
				"operations": []any{map[string]any{"op": "add", "element": map[string]any{"type": "rectangle", "id": "a", "x": 0, "y": 0}}}},
			method: http.MethodPost, path: "/scenes", body: map[string]any{"name": "x", "elements": []any{
				map[string]any{"type": "rectangle", "id": "d", "x": 0, "y": 0}, map[string]any{"type": "ellipse", "id": "d", "x": 0, "y": 0}}}},
		{code: sceneerr.InvalidReference, what: "a binding to an element that is not there",
			tool: "excalidraw_scene_create", args: map[string]any{"name": "x", "elements": []any{
				map[string]any{"type": "arrow", "startElementId": "zz", "endElementId": "yy"}}},
			method: http.MethodPost, path: "/scenes", body: map[string]any{"name": "x", "elements": []any{
				map[string]any{"type": "arrow", "startElementId": "zz", "endElementId": "yy"}}}},
	}

	reached := map[sceneerr.Code]bool{}
	for _, tc := range cases {
		t.Run(string(tc.code), func(t *testing.T) {
			before := snapshotDir(t, drawings)
			var toolOut map[string]any
			var status int
			var httpOut map[string]any
			if tc.concurrent {
				// The tool call runs aside; its result is checked here, since
				// a test may only fail from its own goroutine.
				var res *mcp.CallToolResult
				var err error
				var wg sync.WaitGroup
				wg.Go(func() {
					res, err = sess.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
				})
				status, httpOut = api.with(t).call(tc.method, tc.path, tc.body)
				wg.Wait()
				toolOut = decodeToolResult(t, tc.tool, res, err)
			} else if tc.bot {
				toolOut = callJSON(t, botSess, tc.tool, tc.args)
				status, httpOut = botAPI.with(t).call(tc.method, tc.path, tc.body)
				if d, _ := toolOut["error"].(map[string]any); d["retryable"] != true || d["retryAfterSec"] == nil {
					t.Fatalf("%s: the tool error does not say when to retry: %v", tc.what, toolOut)
				}
			} else {
				toolOut = callJSON(t, sess, tc.tool, tc.args)
				status, httpOut = api.with(t).call(tc.method, tc.path, tc.body)
			}
			toolCode := errorCode(toolOut)
			httpCode := errorCode(httpOut)
			if toolCode != string(tc.code) || httpCode != string(tc.code) || status != tc.code.Status() {
				t.Fatalf("%s: want %s (HTTP %d) from both surfaces\n tool: %v\n http %d: %v",
					tc.what, tc.code, tc.code.Status(), toolOut, status, httpOut)
			}
			if after := snapshotDir(t, drawings); !maps.Equal(before, after) {
				t.Fatalf("%s changed the drawings directory:\n before %v\n after  %v", tc.what, before, after)
			}
			reached[tc.code] = true
		})
	}
	for _, c := range sceneerr.Codes() {
		if !reached[c] {
			t.Errorf("error code %s is not reached through both surfaces", c)
		}
	}
}

// apiClient calls the plugin's HTTP API with the host's bearer token.
type apiClient struct {
	t     *testing.T
	c     *http.Client
	base  string
	token string
}

func (a apiClient) with(t *testing.T) apiClient { a.t = t; return a }

// call sends body as JSON and decodes the JSON reply.
func (a apiClient) call(method, path string, body any) (int, map[string]any) {
	a.t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(mustJSON(a.t, body))
	}
	req, err := http.NewRequestWithContext(context.Background(), method, a.base+path, rd)
	if err != nil {
		a.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+a.token)
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := a.c.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		a.t.Fatalf("%s %s: reply is not JSON: %v", method, path, err)
	}
	return resp.StatusCode, out
}

// errorCode is error.code of a failed tool result or HTTP error body.
func errorCode(out map[string]any) string {
	e, _ := out["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func cloneJSON(t testing.TB, v map[string]any) map[string]any {
	t.Helper()
	var out map[string]any
	if err := json.Unmarshal(mustJSON(t, v), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// holdSceneLock takes a scene's cross-process lock the way another dsh
// process would: the lock file with a complete holder record, under flock.
func holdSceneLock(t *testing.T, drawings, name string) (release func()) {
	t.Helper()
	path := filepath.Join(drawings, ".dsh-excalidraw", "locks", name+".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	if _, err := fmt.Fprintf(f, `{"pid":%d,"host":%q,"at":"2026-11-30T00:00:00Z"}`, os.Getpid(), host); err != nil {
		t.Fatal(err)
	}
	return func() { _ = os.Remove(path); _ = f.Close() }
}

// snapshotDir hashes every file under dir (lock files excluded: they come
// and go with every operation), keyed by relative path.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() || strings.HasPrefix(rel, filepath.Join(".dsh-excalidraw", "locks")) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(sum[:8])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
