package service

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// openAt opens a service on dir (which may already hold scenes) under
// lim, closing it when the test ends.
func openAt(t testing.TB, dir string, lim scene.Limits) *Service {
	t.Helper()
	s, err := New(Config{
		DrawingsDir: dir, Limits: lim, LockTimeout: 2 * time.Second,
		Now:  func() time.Time { return time.UnixMilli(1793136000000) },
		Rand: rand.New(rand.NewPCG(7, 7)),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// rects are n rectangle inputs with ids r0, r1, ...
func rects(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(`{"type":"rectangle","id":"r%d","x":%d,"y":0,"width":50,"height":40}`, i, i*60)
	}
	return out
}

// wantLimit checks a limit error: its code, the details naming the limit
// (the config key, its value, what the write would have made) and a
// message that says the same in words.
func wantLimit(t testing.TB, err error, code sceneerr.Code, limit string, max, actual int64) {
	t.Helper()
	se := wantCode(t, err, code)
	if se.Details["limit"] != limit || se.Details["max"] != max || se.Details["actual"] != actual {
		t.Fatalf("details %v, want limit %s max %d actual %d", se.Details, limit, max, actual)
	}
	if !strings.Contains(se.Message, "("+limit+")") || !strings.Contains(se.Message, "the limit is ") {
		t.Fatalf("message %q does not name the limit", se.Message)
	}
}

// TestLoweredElementLimitKeepsSceneReadable: a scene written under a
// higher maxElements is a valid scene after the limit is lowered. It
// reads (full and summary), lists as valid, refuses a write that leaves
// it over the limit with too_many_elements naming the limit (not
// corrupt_scene), and accepts the deletes that bring it within the limit.
func TestLoweredElementLimitKeepsSceneReadable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drawings")
	hi := openAt(t, dir, scene.Limits{MaxElements: 20})
	if _, err := hi.Create(ctx, CreateRequest{Name: "big", Elements: raws(rects(12)...)}); err != nil {
		t.Fatal(err)
	}
	hi.Close()
	stored := fileBytes(t, dir, "big")

	s := openAt(t, dir, scene.Limits{MaxElements: 10})
	full, err := s.Read(ctx, ReadRequest{Name: "big"})
	if err != nil || !bytes.Equal(full.Scene, stored) {
		t.Fatalf("full read over the lowered limit: %v", err)
	}
	sum, err := s.Read(ctx, ReadRequest{Name: "big", Include: IncludeSummary})
	if err != nil || len(sum.Summary.Elements) != 12 {
		t.Fatalf("summary read over the lowered limit: %+v %v", sum, err)
	}
	rows, err := s.List(ctx)
	if err != nil || len(rows) != 1 || !rows[0].Valid || rows[0].ElementCount != 12 {
		t.Fatalf("list: %+v %v", rows, err)
	}

	// Adding is refused with the limit's code and details; so is a
	// change that leaves the count where it is.
	_, err = s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: 1, Operations: raws(
		`{"op":"add","element":{"type":"ellipse","x":0,"y":100,"width":10,"height":10}}`)})
	wantLimit(t, err, sceneerr.TooManyElements, "maxElements", 10, 13)
	_, err = s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: 1, Operations: raws(
		`{"op":"update","id":"r0","patch":{"x":5}}`)})
	wantLimit(t, err, sceneerr.TooManyElements, "maxElements", 10, 12)
	_, err = s.Save(ctx, SaveRequest{Name: "big", Scene: stored, ExpectedRevision: 1})
	wantLimit(t, err, sceneerr.TooManyElements, "maxElements", 10, 12)
	if !bytes.Equal(fileBytes(t, dir, "big"), stored) {
		t.Fatal("a refused write changed the file")
	}

	// Deleting two brings it to the limit: tombstones do not count.
	res, err := s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: 1, Operations: raws(
		`{"op":"delete","id":"r10"}`, `{"op":"delete","id":"r11"}`)})
	if err != nil || res.Revision != 2 || res.ElementCount != 12 {
		t.Fatalf("deleting within the limit: %+v %v", res, err)
	}
	_, err = s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: 2, Operations: raws(
		`{"op":"add","element":{"type":"ellipse","x":0,"y":100,"width":10,"height":10}}`)})
	wantLimit(t, err, sceneerr.TooManyElements, "maxElements", 10, 11)
	if _, err := s.Apply(ctx, ApplyRequest{Name: "big", ExpectedRevision: 2, Operations: raws(
		`{"op":"update","id":"r0","patch":{"x":5}}`)}); err != nil {
		t.Fatalf("an edit within the limit: %v", err)
	}
	checkStored(t, dir, "big")
}

// TestSceneOverLimitWithoutSidecarIsNotCorrupt: a scene over the limit
// that the store has to parse (no sidecar: copied in by hand) is still a
// valid scene, read and listed, never restored from a backup or reported
// corrupt.
func TestSceneOverLimitWithoutSidecarIsNotCorrupt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "drawings")
	hi := openAt(t, dir, scene.Limits{MaxElements: 20})
	if _, err := hi.Create(ctx, CreateRequest{Name: "big", Elements: raws(rects(12)...)}); err != nil {
		t.Fatal(err)
	}
	hi.Close()
	stored := fileBytes(t, dir, "big")
	if err := os.Remove(filepath.Join(dir, ".dsh-excalidraw", "big.meta.json")); err != nil {
		t.Fatal(err)
	}

	s := openAt(t, dir, scene.Limits{MaxElements: 10})
	rows, err := s.List(ctx)
	if err != nil || len(rows) != 1 || !rows[0].Valid || rows[0].ElementCount != 12 {
		t.Fatalf("list: %+v %v", rows, err)
	}
	full, err := s.Read(ctx, ReadRequest{Name: "big"})
	if err != nil || !bytes.Equal(full.Scene, stored) || full.UpdatedBy != "recovery" {
		t.Fatalf("read: %+v %v", full, err)
	}
}

// TestLoweredLimitsOtherThanElements: maxSceneBytes, maxTextLength and
// maxFiles lowered below a stored scene keep it readable and listed, and
// a write that leaves it over is too_large naming the limit.
func TestLoweredLimitsOtherThanElements(t *testing.T) {
	png := `"data:image/png;base64,iVBORw0KGgo="`
	files := `{"f1":{"id":"f1","mimeType":"image/png","dataURL":` + png + `,"created":1},` +
		`"f2":{"id":"f2","mimeType":"image/png","dataURL":` + png + `,"created":1}}`
	images := raws(`{"type":"image","id":"i1","x":0,"y":0,"width":10,"height":10,"fileId":"f1"}`,
		`{"type":"image","id":"i2","x":20,"y":0,"width":10,"height":10,"fileId":"f2"}`)
	for _, tc := range []struct {
		limit   string
		lowered scene.Limits
		create  CreateRequest
		edit    string // an update that leaves the scene over the limit
		max     int64
		actual  int64 // 0: the size of the edited scene, whatever it is
	}{
		{"maxSceneBytes", scene.Limits{MaxSceneBytes: 2048}, CreateRequest{Elements: raws(rects(6)...)},
			`{"op":"update","id":"r0","patch":{"x":5}}`, 2048, 0},
		{"maxTextLength", scene.Limits{MaxTextLength: 10}, CreateRequest{Elements: raws(
			`{"type":"text","id":"t","x":0,"y":0,"text":"twenty characters ok"}`, rects(1)[0])},
			`{"op":"update","id":"r0","patch":{"x":5}}`, 10, 20},
		{"maxFiles", scene.Limits{MaxFiles: 1}, CreateRequest{Elements: images, Files: []byte(files)},
			`{"op":"update","id":"i1","patch":{"x":5}}`, 1, 2},
	} {
		t.Run(tc.limit, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "drawings")
			hi := openAt(t, dir, scene.Limits{})
			tc.create.Name = "s"
			if _, err := hi.Create(ctx, tc.create); err != nil {
				t.Fatal(err)
			}
			hi.Close()
			stored := fileBytes(t, dir, "s")

			s := openAt(t, dir, tc.lowered)
			if r, err := s.Read(ctx, ReadRequest{Name: "s"}); err != nil || !bytes.Equal(r.Scene, stored) {
				t.Fatalf("full read: %v", err)
			}
			if _, err := s.Read(ctx, ReadRequest{Name: "s", Include: IncludeSummary}); err != nil {
				t.Fatalf("summary read: %v", err)
			}
			if rows, err := s.List(ctx); err != nil || len(rows) != 1 || !rows[0].Valid {
				t.Fatalf("list: %+v %v", rows, err)
			}
			_, err := s.Apply(ctx, ApplyRequest{Name: "s", ExpectedRevision: 1, Operations: raws(tc.edit)})
			if tc.actual == 0 {
				actual, _ := wantCode(t, err, sceneerr.TooLarge).Details["actual"].(int64)
				if actual <= tc.max {
					t.Fatalf("actual %d is not over %d", actual, tc.max)
				}
				tc.actual = actual
			}
			wantLimit(t, err, sceneerr.TooLarge, tc.limit, tc.max, tc.actual)
			if !bytes.Equal(fileBytes(t, dir, "s"), stored) {
				t.Fatal("a refused write changed the file")
			}
		})
	}
}

// TestGenuinelyCorruptSceneIsStillCorrupt: bytes that do not parse are
// corrupt_scene, whatever the limits.
func TestGenuinelyCorruptSceneIsStillCorrupt(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{MaxElements: 10})
	if err := os.WriteFile(filepath.Join(dir, "broken.excalidraw"), []byte(`{"type":"excalidraw","elements":[`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := s.Read(ctx, ReadRequest{Name: "broken"})
	wantCode(t, err, sceneerr.CorruptScene)
	_, err = s.Apply(ctx, ApplyRequest{Name: "broken", Operations: raws(`{"op":"delete","id":"x"}`)})
	wantCode(t, err, sceneerr.CorruptScene)
	rows, err := s.List(ctx)
	if err != nil || len(rows) != 1 || rows[0].Valid {
		t.Fatalf("list: %+v %v", rows, err)
	}
}
