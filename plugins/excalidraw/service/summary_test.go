package service

import (
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

func TestSummarizeCompact(t *testing.T) {
	doc, err := scene.Parse([]byte(`{"type":"excalidraw","version":2,"elements":[
		{"type":"rectangle","id":"r","x":1.23456,"y":2,"width":3.999,"height":4},
		{"type":"text","id":"t","x":0,"y":0,"width":1,"height":1,"text":"wrapped\nline","originalText":"`+strings.Repeat("x", 300)+`"},
		{"type":"ellipse","id":"gone","x":0,"y":0,"width":1,"height":1,"isDeleted":true}],
		"files":{}}`), scene.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	sum := summarize(doc, "", nil)
	if len(sum.Elements) != 2 || sum.DeletedCount != 1 || sum.FileIDs == nil {
		t.Fatalf("%+v", sum)
	}
	if r := sum.Elements[0]; r.X != 1.23 || r.Width != 4 {
		t.Fatalf("not rounded: %+v", r)
	}
	if txt := sum.Elements[1].Text; len([]rune(txt)) != maxSummaryText+1 || !strings.HasSuffix(txt, "…") {
		t.Fatalf("text not truncated: %d", len(txt))
	}
	if only := summarize(doc, "", map[string]bool{"t": true}); len(only.Elements) != 1 || only.Elements[0].ID != "t" {
		t.Fatalf("%+v", only)
	}
	if typed := summarize(doc, "rectangle", nil); len(typed.Elements) != 1 {
		t.Fatalf("%+v", typed)
	}
}

func TestFormatTime(t *testing.T) {
	if formatTime(time.Time{}) != "" {
		t.Fatal("zero time must print empty")
	}
}
