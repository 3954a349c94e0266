package lint

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestDanglingBinding(t *testing.T) {
	gone := rectangle("gone", 0, 0, 10, 10, kv{"isDeleted": true})
	a := arrow("a", 0, 0, [][2]float64{{0, 0}, {100, 0}},
		kv{"startBinding": kv{"elementId": "ghost", "focus": 0.0, "gap": 5.0}, "endBinding": kv{"elementId": "gone", "focus": 0.0, "gap": 5.0}})
	tx := text("t", 0, 200, "hi", kv{"containerId": "ghost"})
	r := rectangle("r", 300, 300, 50, 50, kv{"frameId": "nowhere"})
	fs := Run(list(gone, a, tx, r), only(CodeDanglingBinding))
	f := expect(t, fs, CodeDanglingBinding, "a", "ghost")
	if f.Severity != Error || f.Suggestion["action"] != "unbind" || f.Suggestion["end"] != "start" {
		t.Errorf("finding %+v", f)
	}
	if f := expect(t, fs, CodeDanglingBinding, "a", "gone"); f.Suggestion["end"] != "end" {
		t.Errorf("finding %+v", f)
	}
	if f := expect(t, fs, CodeDanglingBinding, "t", "ghost"); f.Suggestion["field"] != "containerId" {
		t.Errorf("finding %+v", f)
	}
	expect(t, fs, CodeDanglingBinding, "r", "nowhere")
	if len(fs) != 4 {
		t.Errorf("want 4 findings:\n%s", dump(fs))
	}

	// Negative: what the builder makes binds only to what exists.
	none(t, Run(flow(t), Options{}), CodeDanglingBinding)
}

// flow is a small, clean diagram as an agent builds it.
func flow(t *testing.T) []*ojson.Object {
	t.Helper()
	return built(t,
		`{"type":"rectangle","id":"a","x":0,"y":0,"width":160,"height":80,"label":{"text":"Start"}}`,
		`{"type":"diamond","id":"b","x":320,"y":-20,"width":160,"height":120,"label":{"text":"OK?"}}`,
		`{"type":"arrow","id":"ab","startElementId":"a","endElementId":"b","label":{"text":"go"}}`,
		`{"type":"ellipse","id":"c","x":0,"y":300,"width":160,"height":80,"backgroundColor":"#ffc9c9","label":{"text":"End"}}`,
		`{"type":"arrow","id":"bc","startElementId":"b","endElementId":"c"}`,
		`{"type":"text","id":"note","x":320,"y":300,"text":"a free note"}`,
	)
}

func TestFlowIsClean(t *testing.T) {
	if fs := Run(flow(t), Options{}); len(fs) != 0 {
		t.Fatalf("a built diagram has findings:\n%s", dump(fs))
	}
}

func TestOneSidedBinding(t *testing.T) {
	s := rectangle("s", 0, 0, 100, 100)
	a := arrow("a", 110, 50, [][2]float64{{0, 0}, {100, 0}}, kv{"startBinding": kv{"elementId": "s", "focus": 0.0, "gap": 10.0}})
	c := rectangle("c", 300, 0, 100, 100)
	l := text("l", 310, 40, "x", kv{"containerId": "c"})
	fs := Run(list(s, a, c, l), only(CodeOneSidedBinding))
	f := expect(t, fs, CodeOneSidedBinding, "a", "s")
	if f.Suggestion["action"] != "link" || f.Suggestion["id"] != "s" || f.Suggestion["element"] != "a" {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	expect(t, fs, CodeOneSidedBinding, "c", "l")

	// Negative: both sides agree.
	bindEnd(a, "start", s)
	c2 := rectangle("c", 300, 0, 100, 100)
	l2 := label(c2, "l", "x")
	none(t, Run(list(s, a, c2, l2), Options{}), CodeOneSidedBinding)
}

// Leftover boundElements entries are invisible (the editor ignores them
// and any write drops them): one info finding per scene, naming the
// elements that carry them and counting the entries.
func TestStaleBoundEntry(t *testing.T) {
	s := rectangle("s", 0, 0, 100, 100, kv{"boundElements": []any{kv{"id": "ghost", "type": "arrow"}, kv{"id": "a", "type": "arrow"}, kv{"id": "t", "type": "text"}}})
	r := rectangle("r", 300, 0, 100, 100, kv{"boundElements": []any{kv{"id": "gone", "type": "arrow"}}})
	a := arrow("a", 200, 50, [][2]float64{{0, 0}, {100, 0}})
	tx := text("t", 0, 300, "free")
	fs := find(Run(list(s, r, a, tx), Options{}), CodeStaleBoundEntry)
	if len(fs) != 1 {
		t.Fatalf("%d stale_bound_entry findings, want 1: %s", len(fs), dump(fs))
	}
	f := fs[0]
	if f.Severity != Info || !slices.Equal(f.IDs, []string{"r", "s"}) || f.Suggestion["action"] != "repair" ||
		!strings.Contains(f.Message, "4 boundElements entries") || !strings.Contains(f.Message, "2 elements") ||
		!strings.Contains(f.Message, "repair_scene") {
		t.Errorf("finding %+v", f)
	}

	// Many carriers: at most 20 ids, the count says all of them; with a
	// scope, the scoped carrier is among the ids.
	var many []*ojson.Object
	for i := range 30 {
		many = append(many, rectangle(fmt.Sprintf("b%02d", i), float64(200*i), 0, 100, 100, kv{"boundElements": []any{kv{"id": "x", "type": "arrow"}}}))
	}
	fs = find(Run(many, Options{}), CodeStaleBoundEntry)
	if len(fs) != 1 || len(fs[0].IDs) != 20 || !strings.Contains(fs[0].Message, "30 boundElements entries on 30 elements") {
		t.Errorf("30 carriers: %s", dump(fs))
	}
	fs = find(Run(many, Options{Scope: map[string]bool{"b29": true}}), CodeStaleBoundEntry)
	if len(fs) != 1 || !slices.Contains(fs[0].IDs, "b29") {
		t.Errorf("30 carriers, b29 in scope: %s", dump(fs))
	}

	// Negative.
	s2 := rectangle("s", 0, 0, 100, 100)
	a2 := arrow("a", 110, 50, [][2]float64{{0, 0}, {100, 0}})
	bindEnd(a2, "start", s2)
	none(t, Run(list(s2, a2), Options{}), CodeStaleBoundEntry)
}

func TestDegenerateSize(t *testing.T) {
	flat := rectangle("flat", 0, 0, 100, 0)
	dot := shape("ellipse", "dot", 200, 0, 0, -1)
	tx := text("t", 0, 200, "hello", kv{"width": 0.0})
	noX := rectangle("nox", 0, 0, 10, 10)
	noX.Delete("x")
	nan := rectangle("nan", 0, 0, math.NaN(), 10)
	fs := Run(list(flat, dot, tx, noX, nan), only(CodeDegenerateSize))
	if f := expect(t, fs, CodeDegenerateSize, "flat"); f.Suggestion != nil {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	if f := expect(t, fs, CodeDegenerateSize, "dot"); f.Suggestion["action"] != "delete" {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	f := expect(t, fs, CodeDegenerateSize, "t")
	if f.Suggestion["action"] != "resize" || f.Suggestion["width"].(float64) <= 0 {
		t.Errorf("suggestion %v", f.Suggestion)
	}
	expect(t, fs, CodeDegenerateSize, "nox")
	expect(t, fs, CodeDegenerateSize, "nan")

	// Negative: a horizontal arrow has no height and is fine; an empty
	// text is empty_text's.
	ok := list(rectangle("r", 0, 0, 1, 1), arrow("a", 0, 0, [][2]float64{{0, 0}, {100, 0}}), text("e", 0, 0, "", kv{"width": 0.0}))
	none(t, Run(ok, Options{}), CodeDegenerateSize)
}

func TestEmptyText(t *testing.T) {
	c := rectangle("c", 0, 0, 100, 50)
	l := label(c, "l", "   ")
	free := text("free", 0, 200, "", kv{"originalText": ""})
	fs := Run(list(c, l, free), only(CodeEmptyText))
	if f := expect(t, fs, CodeEmptyText, "c", "l"); f.Suggestion["id"] != "l" || f.Severity != Error {
		t.Errorf("finding %+v", f)
	}
	expect(t, fs, CodeEmptyText, "free")
	none(t, Run(list(text("t", 0, 0, "hi")), Options{}), CodeEmptyText)
}
