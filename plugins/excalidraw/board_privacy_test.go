package excalidraw_test

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/hosttest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What a caller learns of boards it does not reach, on a real host with
// the access matrix's people and bots (see newMatrix): alpha is olga's
// (erin an editor, vic a viewer), beta olga's alone.

// TestHealthAndEvidenceByCaller: /health shows each caller the editor
// evidence of the boards it may read, and the drawings directory to
// admins only; evidence comes from a person's browser that may write its
// board, never from a bot (which could otherwise forge what the owner
// sees) or a viewer.
func TestHealthAndEvidenceByCaller(t *testing.T) {
	m := newMatrix(t)
	report := func(w who, body string) (int, []byte) {
		t.Helper()
		return m.send(m.callers[w].headers, "POST", api+"/editor-status", body)
	}
	if code, b := report(ownerP, `{"event":"mounted","name":"beta","build":"olga","width":10,"height":10}`); code != 200 {
		t.Fatalf("olga's report on beta: %d %s", code, b)
	}
	if code, b := report(editorP, `{"event":"mounted","name":"alpha","build":"erin","width":10,"height":10}`); code != 200 {
		t.Fatalf("erin's report on alpha: %d %s", code, b)
	}
	forged := `{"event":"saved","name":"alpha","revision":99,"sha256":"` + strings.Repeat("ab", 32) + `","elementCount":0}`
	for _, w := range []who{viewerBot, editorBot, viewerP} {
		if code, b := report(w, forged); code != 403 || codeOf(code, b) != pd {
			t.Errorf("%s forging alpha's evidence: %d %s, want 403 %s", w, code, b, pd)
		}
	}
	if code, b := report(otherBot, strings.Replace(forged, "alpha", "beta", 1)); code != 403 || codeOf(code, b) != pd {
		t.Errorf("olga's own bot reporting on beta: %d %s, want 403 %s", code, b, pd)
	}
	if code, b := m.send(map[string]string{"Authorization": "Bearer " + m.h.Token()}, "POST", api+"/editor-status", forged); code != 403 {
		t.Errorf("the host token reporting evidence: %d %s, want 403", code, b)
	}

	type health struct {
		DrawingsDir string                     `json:"drawingsDir"`
		Editors     map[string]json.RawMessage `json:"editors"`
	}
	see := func(headers map[string]string) (health, int) {
		t.Helper()
		code, b := m.send(headers, "GET", api+"/health", "")
		var h health
		if code == 200 {
			if err := json.Unmarshal(b, &h); err != nil {
				t.Fatalf("health: %v: %s", err, b)
			}
		}
		return h, code
	}
	for _, c := range []struct {
		w      who
		boards []string
		dir    bool
	}{
		{ownerP, []string{"alpha", "beta"}, true},
		{editorP, []string{"alpha"}, false},
		{viewerP, []string{"alpha"}, false},
		{editorBot, []string{"alpha"}, false},
		{viewerBot, []string{"alpha"}, false},
		{otherBot, []string{"beta"}, false},
	} {
		h, code := see(m.callers[c.w].headers)
		got := slices.Sorted(maps.Keys(h.Editors))
		if code != 200 || !slices.Equal(got, c.boards) || (h.DrawingsDir != "") != c.dir {
			t.Errorf("%s: /health %d shows evidence of %v and drawingsDir %q; want %v, a path: %v", c.w, code, got, h.DrawingsDir, c.boards, c.dir)
		}
	}
	for _, w := range []who{revokedBot, expiredS, nobody} {
		if _, code := see(m.callers[w].headers); code != 401 {
			t.Errorf("%s: /health answered %d, want 401", w, code)
		}
	}
	h, _ := see(map[string]string{"Authorization": "Bearer " + m.h.Token()})
	if h.DrawingsDir == "" || len(h.Editors) != 2 {
		t.Errorf("the host token sees %v and drawingsDir %q", slices.Sorted(maps.Keys(h.Editors)), h.DrawingsDir)
	}
	var alpha struct {
		Build     string `json:"build"`
		Events    []any  `json:"events"`
		LastSaved any    `json:"lastSaved"`
	}
	_ = json.Unmarshal(h.Editors["alpha"], &alpha)
	if alpha.Build != "erin" || len(alpha.Events) != 1 || alpha.LastSaved != nil {
		t.Errorf("alpha's evidence after the refused reports: %s", h.Editors["alpha"])
	}
}

// TestCreateOnAnUnavailableNameAnswersAlike: creating a board under the
// name of one the caller does not see answers exactly as creating one
// under a name in the trash (someone else's, or the caller's own) does,
// on the HTTP routes and the tools alike, and changes nothing; a name the
// caller sees is already_exists. Writing to a board it does not see reads
// as writing to none.
func TestCreateOnAnUnavailableNameAnswersAlike(t *testing.T) {
	m := newMatrix(t)
	olga, erin := m.callers[ownerP], m.callers[editorP]
	m.must(olga.headers, "POST", api+"/boards", `{"name":"gamma"}`, 201)
	m.must(olga.headers, "DELETE", api+"/boards/gamma", "", 200)
	m.must(erin.headers, "POST", api+"/boards", `{"name":"erins"}`, 201)
	m.must(erin.headers, "DELETE", api+"/boards/erins", "", 200)

	// answer is a refusal as the caller reads it, with the name in it
	// replaced, so answers about different names compare.
	type answer struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	}
	blind := func(raw []byte, name string) answer {
		t.Helper()
		raw = []byte(strings.ReplaceAll(string(raw), name, "NAME"))
		var out struct {
			Error answer `json:"error"`
		}
		if err := json.Unmarshal(raw, &out); err != nil || out.Error.Code == "" {
			t.Fatalf("not a refusal: %s", raw)
		}
		// Each answer names its own request: checked, then left out.
		if id, _ := out.Error.Details["request_id"].(string); id == "" {
			t.Fatalf("no request_id in %s", raw)
		}
		delete(out.Error.Details, "request_id")
		return out.Error
	}
	viaTool := func(tool, args, name string) answer {
		t.Helper()
		res, err := erin.mcp.CallTool(hosttest.Context(t), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil || !res.IsError {
			t.Fatalf("%s %s: %v %+v", tool, args, err, res)
		}
		return blind([]byte(res.Content[0].(*mcp.TextContent).Text), name)
	}
	viaRoute := func(path, body, name string, status int) answer {
		t.Helper()
		code, b := m.send(erin.headers, "POST", api+path, body)
		if code != status {
			t.Fatalf("POST %s %s: %d %s, want %d", path, body, code, b, status)
		}
		return blind(b, name)
	}
	creates := func(name string, status int) []answer {
		return []answer{
			viaRoute("/boards", `{"name":"`+name+`"}`, name, status),
			viaRoute("/scenes", `{"name":"`+name+`"}`, name, status),
			viaTool("create_board", `{"name":"`+name+`"}`, name),
			viaTool("excalidraw_scene_create", `{"name":"`+name+`"}`, name),
		}
	}

	before := m.snapshot()
	hidden := creates("beta", 409)
	want := hidden[0]
	if want.Code != "name_unavailable" || want.Details["name"] != "NAME" {
		t.Fatalf("a board erin does not see: %+v, want name_unavailable", want)
	}
	for _, name := range []string{"beta", "gamma", "erins"} {
		for i, got := range creates(name, 409) {
			if got.Code != want.Code || got.Message != want.Message || !maps.Equal(got.Details, want.Details) {
				t.Errorf("creating %s (surface %d) answers %+v, unlike a hidden board's %+v", name, i, got, want)
			}
		}
	}
	if after := m.snapshot(); !maps.Equal(before, after) {
		t.Errorf("the refused creates changed the data directory: %v", diffKeys(before, after))
	}
	for i, got := range creates("alpha", 409) {
		if got.Code != "already_exists" {
			t.Errorf("creating alpha, which erin sees (surface %d): %+v, want already_exists", i, got)
		}
	}

	// batch_create on a board erin does not see reads as on none.
	el := `,"elements":[{"type":"ellipse","x":0,"y":0,"width":40,"height":40}]}`
	if a, b := viaTool("batch_create", `{"name":"beta"`+el, "beta"), viaTool("batch_create", `{"name":"nothing"`+el, "nothing"); a.Code != "not_found" || a.Message != b.Message || !maps.Equal(a.Details, b.Details) {
		t.Errorf("batch_create on a hidden board %+v, on none %+v", a, b)
	}
}
