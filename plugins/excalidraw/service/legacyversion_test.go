package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
	"github.com/dshgo/dsh/plugins/excalidraw/store"
)

// legacyFixture is a version-1 scene as Excalidraw wrote it in 2020 (see
// the scene package's test of it): six elements, one of them deleted.
const legacyFixture = "../scene/testdata/legacy-v1-2020.excalidraw"

// putLegacy writes the fixture into the drawings directory as name, as a
// user copying an old file there would, and returns its bytes.
func putLegacy(t *testing.T, dir, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(legacyFixture)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".excalidraw"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	return data
}

// TestLegacyVersionSceneOpens: a version-1 file is listed valid, read in
// full (its bytes unchanged) and as a summary, and saved back as version 2
// with every element and member it had.
func TestLegacyVersionSceneOpens(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	data := putLegacy(t, dir, "old")

	rows, err := s.List(ctx)
	if err != nil || len(rows) != 1 || !rows[0].Valid || rows[0].Problem != "" || rows[0].ElementCount != 6 {
		t.Fatalf("list %+v %v", rows, err)
	}
	full, err := s.Read(ctx, ReadRequest{Name: "old"})
	if err != nil {
		t.Fatalf("read full: %v", err)
	}
	if !bytes.Equal(full.Scene, data) {
		t.Fatal("read full did not return the stored bytes")
	}
	sum, err := s.Read(ctx, ReadRequest{Name: "old", Include: IncludeSummary})
	if err != nil {
		t.Fatalf("read summary: %v", err)
	}
	if len(sum.Summary.Elements) != 5 || sum.Summary.DeletedCount != 1 || sum.Summary.Elements[1].Text != "Load balancer" {
		t.Fatalf("summary %+v", sum.Summary)
	}

	res, err := s.Save(ctx, SaveRequest{Name: "old", Scene: full.Scene, ExpectedRevision: full.Revision})
	if err != nil {
		t.Fatalf("save: %v", err)
	}
	if res.Unchanged || res.Revision != full.Revision+1 || res.ElementCount != 6 {
		t.Fatalf("save %+v", res)
	}
	checkStored(t, dir, "old")
	wantVersion2Keeping(t, data, fileBytes(t, dir, "old"))
}

// TestLegacyVersionSceneApply: an agent's edit of a version-1 file writes
// version 2 too, the rest of the scene kept.
func TestLegacyVersionSceneApply(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	putLegacy(t, dir, "old")
	head, err := s.Read(ctx, ReadRequest{Name: "old"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Apply(ctx, ApplyRequest{Name: "old", ExpectedRevision: head.Revision,
		Operations: raws(`{"op":"update","id":"Kp4sD9fGh2JkL7zXc0VbN","patch":{"x":640}}`)})
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	stored := fileBytes(t, dir, "old")
	checkStored(t, dir, "old")
	if !bytes.Contains(stored, []byte("\n  \"version\": 2,\n")) {
		t.Fatalf("apply did not write version 2:\n%.200s", stored)
	}
	doc, err := scene.Parse(stored, scene.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if x, _ := element(t, doc, "Kp4sD9fGh2JkL7zXc0VbN").Get("x"); x != json.Number("640") || len(doc.Elements()) != 6 {
		t.Fatalf("apply result: %d elements, ellipse at x %v", len(doc.Elements()), x)
	}
}

// wantVersion2Keeping fails unless written is orig as version 2 with
// every document member and every element member of orig, equal, except
// what Normalize is documented to rewrite on such a file: a legacy
// boundElementIds list (migrated to boundElements naming the same ids; a
// null one is kept) and the
// version, versionNonce and updated of elements it gives an index.
func wantVersion2Keeping(t *testing.T, orig, written []byte) {
	t.Helper()
	var o, w map[string]any
	if err := json.Unmarshal(orig, &o); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(written, &w); err != nil {
		t.Fatal(err)
	}
	if w["version"] != 2.0 {
		t.Fatalf("written version %v", w["version"])
	}
	if !bytes.HasPrefix(written, []byte("{\n  \"type\": \"excalidraw\",\n  \"version\": 2,\n  \"source\": \"https://excalidraw.com\",")) {
		t.Fatalf("document members moved:\n%.120s", written)
	}
	for _, k := range []string{"viewBackgroundColor", "gridSize"} {
		if ov, wv := o["appState"].(map[string]any)[k], w["appState"].(map[string]any)[k]; ov != wv {
			t.Errorf("appState.%s was %v, written %v", k, ov, wv)
		}
	}
	oe, we := o["elements"].([]any), w["elements"].([]any)
	if len(oe) != len(we) {
		t.Fatalf("%d elements written, %d read", len(we), len(oe))
	}
	bumped := map[string]bool{"version": true, "versionNonce": true, "updated": true}
	for i := range oe {
		oel, wel := oe[i].(map[string]any), we[i].(map[string]any)
		for k, ov := range oel {
			wv, ok := wel[k]
			switch {
			case k == "boundElementIds" && ov != nil:
				if ok {
					t.Errorf("%s: boundElementIds kept", oel["id"])
				}
				if got, want := boundIDs(wel["boundElements"]), idList(ov); got != want {
					t.Errorf("%s: boundElementIds [%s] became boundElements [%s]", oel["id"], want, got)
				}
			case bumped[k]:
				if !ok {
					t.Errorf("%s: %s dropped", oel["id"], k)
				}
			case !ok || !jsonEqual(t, ov, wv):
				t.Errorf("%s: %s was %v, written %v", oel["id"], k, ov, wv)
			}
		}
	}
}

func idList(v any) string {
	ids, _ := v.([]any)
	var out []string
	for _, x := range ids {
		out = append(out, x.(string))
	}
	return strings.Join(out, ",")
}

func boundIDs(v any) string {
	entries, _ := v.([]any)
	var out []string
	for _, e := range entries {
		out = append(out, e.(map[string]any)["id"].(string))
	}
	return strings.Join(out, ",")
}

func jsonEqual(t *testing.T, a, b any) bool {
	t.Helper()
	ab, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	bb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ab, bb)
}

// TestListSaysWhyAFileIsInvalid: a file the store cannot use is listed
// valid:false with a short reason; a valid one has none, and its JSON
// row has no problem member.
func TestListSaysWhyAFileIsInvalid(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "flow")
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name+".excalidraw"), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("broken", []byte(`{"type": "excalidraw", x}`))
	write("shape", []byte(`{"type":"excalidraw","version":2,"elements":{}}`))
	write("notascene", []byte(`{"type":"excalidrawlib","version":2,"library":[]}`))
	// One byte over the most any configuration allows; sparse, so cheap.
	big, err := os.Create(filepath.Join(dir, "big.excalidraw"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(scene.CeilingSceneBytes + 1); err != nil {
		t.Fatal(err)
	}
	big.Close()

	rows, err := s.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"big":       "larger than the 256 MiB any config allows",
		"broken":    "not JSON at byte 23",
		"flow":      "",
		"notascene": `type is not "excalidraw" (it is "excalidrawlib")`,
		"shape":     "elements is not an array",
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		if r.Problem != want[r.Name] || r.Valid != (want[r.Name] == "") {
			t.Errorf("%s: valid %v problem %q, want %q", r.Name, r.Valid, r.Problem, want[r.Name])
		}
		row, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.Unmarshal(row, &m)
		if p, has := m["problem"]; has != (want[r.Name] != "") || (has && p != want[r.Name]) {
			t.Errorf("%s: JSON row %s", r.Name, row)
		}
	}
}

// TestProblemWords: the words for the reasons a stored file can give
// that are too costly to make on disk in a test.
func TestProblemWords(t *testing.T) {
	over := sceneerr.OverLimit(sceneerr.MaxElements, 100001, 100000).With("diagnostic", scene.CodeTooManyElements)
	cases := map[string]error{
		"the scene has 100,001 elements; the limit is 100,000 (maxElements), the most any config allows": fmt.Errorf("corrupt: %w", over),
		"element is not an object at /elements/3": sceneerr.New(sceneerr.InvalidScene, "element is not an object").
			With("diagnostic", scene.CodeInvalidElement).With("pointer", "/elements/3"),
		"scene x is a symlink": &store.Error{Code: store.CodePermissionDenied, Message: "scene x is a symlink"},
	}
	for want, err := range cases {
		if got := problem(err); got != want {
			t.Errorf("problem(%v) = %q, want %q", err, got, want)
		}
	}
}
