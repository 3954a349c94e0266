package engine

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

func TestMergeAppState(t *testing.T) {
	doc := scene.NewDocument()
	if err := mergeAppState(doc, []byte(`{"gridSize":10}`), "/app_state"); err != nil {
		t.Fatal(err)
	}
	if bg, _ := doc.AppState().String("viewBackgroundColor"); bg != "#ffffff" {
		t.Fatal("merge dropped an unpatched member")
	}
	if g, _ := doc.AppState().Number("gridSize"); g != 10 {
		t.Fatal("gridSize not merged")
	}
	for raw, ptr := range map[string]string{`{"theme":"dark"}`: "/app_state/theme", `[1]`: "/app_state", `{`: "/app_state", `{"a/b":1}`: "/app_state/a~1b"} {
		se := wantCode(t, mergeAppState(doc, []byte(raw), "/app_state"), sceneerr.InvalidOperation)
		if se.Details["pointer"] != ptr {
			t.Errorf("%s: %v", raw, se.Details)
		}
	}
	if err := mergeAppState(doc, []byte(`null`), "/app_state"); err != nil {
		t.Fatal(err)
	}
}

func TestSetFiles(t *testing.T) {
	doc := scene.NewDocument()
	if err := setFiles(doc, []byte(`{"f":{"id":"f"}}`), "/files"); err != nil || !fileIDs(doc)["f"] {
		t.Fatal(err)
	}
	wantCode(t, setFiles(doc, []byte(`{"f":1}`), "/files"), sceneerr.InvalidOperation)
}
