package httpapi

import (
	"net/http"
	"strings"
	"testing"
)

func TestHealthShowsConfigAndEmptyEditor(t *testing.T) {
	e := newEnv(t, nil)
	r := e.do(http.MethodGet, api+"/health", nil)
	expect(t, r, http.StatusOK, "")
	if r.body["version"] != "0.1.0-test" || r.body["drawingsDir"] != e.dir {
		t.Fatalf("health: %s", r.raw)
	}
	lim, _ := r.body["limits"].(map[string]any)
	if num(t, lim, "maxElements") != 500 {
		t.Fatalf("limits: %s", r.raw)
	}
	ed, _ := r.body["editor"].(map[string]any)
	if ed["mounted"] != false || ed["events"] == nil {
		t.Fatalf("editor: %s", r.raw)
	}
}

// TestEditorStatusSequence posts the lifecycle a real page goes through
// and checks /health reflects each step.
func TestEditorStatusSequence(t *testing.T) {
	e := newEnv(t, nil)
	editor := func() map[string]any {
		r := e.do(http.MethodGet, api+"/health", nil)
		expect(t, r, http.StatusOK, "")
		return r.body["editor"].(map[string]any)
	}
	post := func(body string) {
		t.Helper()
		expect(t, e.do(http.MethodPost, api+"/editor-status", body), http.StatusOK, "")
	}

	post(`{"event":"mounted","build":"b-42","width":1280,"height":720,"theme":"dark"}`)
	ed := editor()
	if ed["mounted"] != true || ed["build"] != "b-42" || num(t, ed, "width") != 1280 || num(t, ed, "height") != 720 || ed["theme"] != "dark" {
		t.Fatalf("after mounted: %v", ed)
	}

	post(`{"event":"canvas-ready","elementCount":3}`)
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

	post(`{"event":"error","message":"boom"}`)
	if editor()["error"] != "boom" {
		t.Fatal("error not reflected")
	}

	post(`{"event":"unmounted"}`)
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
	e := newEnv(t, nil)
	cases := map[string]string{
		"unknown event":      `{"event":"exploded"}`,
		"no event":           `{}`,
		"malformed":          `{"event":`,
		"mounted no build":   `{"event":"mounted","width":1,"height":1}`,
		"negative width":     `{"event":"mounted","build":"b","width":-1,"height":1}`,
		"foreign field":      `{"event":"unmounted","elementCount":1}`,
		"ready no count":     `{"event":"canvas-ready"}`,
		"saved bad sha":      `{"event":"saved","name":"a","revision":1,"sha256":"xyz","elementCount":0}`,
		"saved bad name":     `{"event":"saved","name":"../a","revision":1,"sha256":"` + strings.Repeat("0", 64) + `","elementCount":0}`,
		"saved revision 0":   `{"event":"saved","name":"a","revision":0,"sha256":"` + strings.Repeat("0", 64) + `","elementCount":0}`,
		"error no message":   `{"event":"error"}`,
		"unknown json field": `{"event":"unmounted","extra":true}`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			r := e.with(t).do(http.MethodPost, api+"/editor-status", body)
			expect(t, r, http.StatusUnprocessableEntity, "invalid_operation")
		})
	}
	if n := len(e.evidence.Snapshot().Events); n != 0 {
		t.Fatalf("rejected reports were recorded: %d events", n)
	}
}

// TestRoutesAreAdmitted: nothing the plugin serves bypasses admission,
// but for the host's root, which only redirects to the editor.
func TestRoutesAreAdmitted(t *testing.T) {
	for _, r := range Routes(Options{}) {
		if r.Path == "/" {
			if r.Method != http.MethodGet || !r.Public {
				t.Errorf("the root redirect is %s public=%v", r.Method, r.Public)
			}
			continue
		}
		if r.Public {
			t.Errorf("%s %s is public", r.Method, r.Path)
		}
		if r.Path != Prefix && !strings.HasPrefix(r.Path, Prefix+"/") {
			t.Errorf("%s outside %s", r.Path, Prefix)
		}
	}
}

// TestRootRedirectsToEditor: a person who opens the host's address lands
// on the editor.
func TestRootRedirectsToEditor(t *testing.T) {
	e := newEnv(t, nil)
	c := &http.Client{Transport: e.client.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(e.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != Prefix+"/" {
		t.Fatalf("GET /: %d Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}
