package httpapi

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/access"
	"github.com/dshgo/dsh/plugins/excalidraw/access/accesstest"
	"github.com/dshgo/dsh/plugins/identity"
)

func TestHealthShowsConfigAndNoEditors(t *testing.T) {
	e := newEnv(t, nil)
	r := e.do(http.MethodGet, api+"/health", nil) // the process itself: an admin
	expect(t, r, http.StatusOK, "")
	if r.body["version"] != "0.1.0-test" || r.body["drawingsDir"] != e.dir {
		t.Fatalf("health: %s", r.raw)
	}
	lim, _ := r.body["limits"].(map[string]any)
	if num(t, lim, "maxElements") != 500 {
		t.Fatalf("limits: %s", r.raw)
	}
	if eds, ok := r.body["editors"].(map[string]any); !ok || len(eds) != 0 {
		t.Fatalf("editors: %s", r.raw)
	}
}

// evEnv is a guarded host where alice owns plan (bob a viewer there) and
// bob owns his: the principals of the evidence tests.
func evEnv(t *testing.T) *bdEnv {
	t.Helper()
	e := newBdEnv(t)
	e.admit.set("alice", bdAlice)
	e.admit.set("bob", bdBob)
	e.admit.set("owner", accesstest.Owner("Olga"))
	e.admit.set("host", accesstest.Host("tok_host"))
	e.admit.set("viewer-bot", accesstest.Bot("tok_vb", bdAlice, access.Grant{Role: identity.RoleViewer, Boards: []string{"plan"}}))
	e.admit.set("editor-bot", accesstest.Bot("tok_eb", bdAlice, access.Grant{Role: identity.RoleEditor, Boards: []string{"plan"}}))
	expect(t, e.as("alice", http.MethodPost, api+"/boards", map[string]any{"name": "plan"}), http.StatusCreated, "")
	expect(t, e.as("bob", http.MethodPost, api+"/boards", map[string]any{"name": "his"}), http.StatusCreated, "")
	if _, err := e.meta.SetMember(t.Context(), "plan", bdBob.Person, identity.RoleViewer); err != nil {
		t.Fatal(err)
	}
	return e
}

// editors is /health's editors as who sees them, and whether it shows
// the drawings directory.
func (e *bdEnv) editors(who string) (map[string]any, bool) {
	e.t.Helper()
	r := e.as(who, http.MethodGet, api+"/health", nil)
	expect(e.t, r, http.StatusOK, "")
	eds, ok := r.body["editors"].(map[string]any)
	if !ok {
		e.t.Fatalf("%s: no editors in %s", who, r.raw)
	}
	_, dir := r.body["drawingsDir"]
	return eds, dir
}

// TestEditorStatusSequence posts the lifecycle a real page goes through
// and checks /health reflects each step, for its board.
func TestEditorStatusSequence(t *testing.T) {
	e := evEnv(t)
	editor := func() map[string]any {
		eds, _ := e.editors("alice")
		ed, _ := eds["plan"].(map[string]any)
		if ed == nil {
			t.Fatalf("no evidence for plan: %v", eds)
		}
		return ed
	}
	post := func(body string) {
		t.Helper()
		expect(t, e.as("alice", http.MethodPost, api+"/editor-status", body), http.StatusOK, "")
	}

	post(`{"event":"mounted","name":"plan","build":"b-42","width":1280,"height":720,"theme":"dark"}`)
	ed := editor()
	if ed["mounted"] != true || ed["build"] != "b-42" || num(t, ed, "width") != 1280 || num(t, ed, "height") != 720 || ed["theme"] != "dark" {
		t.Fatalf("after mounted: %v", ed)
	}

	post(`{"event":"canvas-ready","name":"plan","elementCount":3}`)
	if num(t, editor(), "elementCount") != 3 {
		t.Fatal("canvas-ready not reflected")
	}

	sha := strings.Repeat("ab", 32)
	post(`{"event":"saved","name":"plan","revision":4,"sha256":"` + sha + `","elementCount":5}`)
	ed = editor()
	ls, _ := ed["lastSaved"].(map[string]any)
	if ls == nil || ls["name"] != "plan" || num(t, ls, "revision") != 4 || ls["sha256"] != sha || num(t, ed, "elementCount") != 5 {
		t.Fatalf("after saved: %v", ed)
	}

	post(`{"event":"error","name":"plan","message":"boom"}`)
	if editor()["error"] != "boom" {
		t.Fatal("error not reflected")
	}

	post(`{"event":"unmounted","name":"plan"}`)
	ed = editor()
	if ed["mounted"] != false {
		t.Fatalf("after unmounted: %v", ed)
	}
	events, _ := ed["events"].([]any)
	want := []string{"mounted", "canvas-ready", "saved", "error", "unmounted"}
	if len(events) != len(want) {
		t.Fatalf("events: %v", events)
	}
	for i, w := range want {
		if got := events[i].(map[string]any)["event"]; got != w {
			t.Fatalf("event %d = %v, want %s", i, got, w)
		}
	}
}

func TestEditorStatusRejects(t *testing.T) {
	e := evEnv(t)
	sha := strings.Repeat("0", 64)
	cases := map[string]string{
		"unknown event":      `{"event":"exploded","name":"plan"}`,
		"no event":           `{"name":"plan"}`,
		"malformed":          `{"event":`,
		"no board":           `{"event":"unmounted"}`,
		"bad board":          `{"event":"unmounted","name":"../plan"}`,
		"mounted no build":   `{"event":"mounted","name":"plan","width":1,"height":1}`,
		"negative width":     `{"event":"mounted","name":"plan","build":"b","width":-1,"height":1}`,
		"foreign field":      `{"event":"unmounted","name":"plan","elementCount":1}`,
		"ready no count":     `{"event":"canvas-ready","name":"plan"}`,
		"saved bad sha":      `{"event":"saved","name":"plan","revision":1,"sha256":"xyz","elementCount":0}`,
		"saved revision 0":   `{"event":"saved","name":"plan","revision":0,"sha256":"` + sha + `","elementCount":0}`,
		"error no message":   `{"event":"error","name":"plan"}`,
		"unknown json field": `{"event":"unmounted","name":"plan","extra":true}`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			sub := *e
			sub.env = e.with(t)
			r := sub.as("alice", http.MethodPost, api+"/editor-status", body)
			expect(t, r, http.StatusUnprocessableEntity, "invalid_operation")
		})
	}
	if eds, _ := e.editors("owner"); len(eds) != 0 {
		t.Fatalf("rejected reports were recorded: %v", eds)
	}
}

// TestEvidenceIsPerBoardAndItsReaders: /health shows each caller the
// evidence of the boards it may read and nobody else's, and the drawings
// directory to admins only; evidence is accepted from a browser session
// that may write its board, and from nothing else (a bot, a host token,
// a viewer, a stranger, a board that does not exist), and a refusal
// records nothing.
func TestEvidenceIsPerBoardAndItsReaders(t *testing.T) {
	e := evEnv(t)
	expect(t, e.as("alice", http.MethodPost, api+"/editor-status", `{"event":"mounted","name":"plan","build":"alice","width":10,"height":10}`), http.StatusOK, "")
	expect(t, e.as("bob", http.MethodPost, api+"/editor-status", `{"event":"mounted","name":"his","build":"bob","width":10,"height":10}`), http.StatusOK, "")

	sha := strings.Repeat("ab", 32)
	forged := `{"event":"saved","name":"plan","revision":9,"sha256":"` + sha + `","elementCount":0}`
	for _, c := range []struct{ who, body, code string }{
		{"viewer-bot", forged, "permission_denied"},
		{"editor-bot", forged, "permission_denied"},
		{"host", forged, "permission_denied"},
		{"bob", forged, "permission_denied"}, // a viewer of plan: its editor saves nothing
		{"alice", strings.Replace(forged, `"plan"`, `"his"`, 1), "not_found"},
		{"alice", strings.Replace(forged, `"plan"`, `"ghost"`, 1), "not_found"},
		{"viewer-bot", `{"event":`, "permission_denied"}, // said before the body is read
	} {
		r := e.as(c.who, http.MethodPost, api+"/editor-status", c.body)
		if r.code() != c.code {
			t.Errorf("%s posting %s: %d %s, want %s", c.who, c.body, r.status, r.raw, c.code)
		}
	}
	// Not found reads the same for a board that exists and one that
	// does not.
	his := e.as("alice", http.MethodPost, api+"/editor-status", strings.Replace(forged, `"plan"`, `"his"`, 1))
	ghost := e.as("alice", http.MethodPost, api+"/editor-status", strings.Replace(forged, `"plan"`, `"ghost"`, 1))
	// (Each answer names its own request: that id is left out.)
	reqID := regexp.MustCompile(`"request_id":"[^"]*"`)
	if strings.ReplaceAll(reqID.ReplaceAllString(string(his.raw), ""), "his", "X") != strings.ReplaceAll(reqID.ReplaceAllString(string(ghost.raw), ""), "ghost", "X") {
		t.Errorf("a board alice does not reach and none answer differently:\n %s\n %s", his.raw, ghost.raw)
	}

	for _, c := range []struct {
		who    string
		boards string
		dir    bool
	}{
		{"owner", "his,plan", true},
		{"host", "his,plan", true},
		{"alice", "plan", false},
		{"bob", "his,plan", false},
		{"viewer-bot", "plan", false},
		{"editor-bot", "plan", false},
	} {
		eds, dir := e.editors(c.who)
		var got []string
		for name := range eds {
			got = append(got, name)
		}
		slices.Sort(got)
		if strings.Join(got, ",") != c.boards || dir != c.dir {
			t.Errorf("%s sees evidence of %v (drawingsDir: %v), want %s (%v)", c.who, got, dir, c.boards, c.dir)
		}
	}
	eds, _ := e.editors("owner")
	plan := eds["plan"].(map[string]any)
	if evs := plan["events"].([]any); len(evs) != 1 || plan["build"] != "alice" || plan["lastSaved"] != nil {
		t.Fatalf("plan's evidence after the refused reports: %v", plan)
	}
}

// TestRoutesAreAdmitted: nothing the plugin serves bypasses admission,
// but for the host's root, which only redirects to the editor.
func TestRoutesAreAdmitted(t *testing.T) {
	for _, r := range Routes(Options{}) {
		if r.Public {
			t.Errorf("%s %s is public", r.Method, r.Path)
		}
		if r.Path != Prefix && !strings.HasPrefix(r.Path, Prefix+"/") {
			t.Errorf("%s outside %s", r.Path, Prefix)
		}
	}
}
