package scene

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// complete returns elements as Normalize leaves them, so that a test sees
// only the repair under test.
func complete(els ...*ojson.Object) []*ojson.Object {
	prev := ""
	for _, el := range els {
		if v, _ := el.Get("boundElements"); v == nil {
			el.Set("boundElements", []any{})
		}
		if IsLinear(elementType(el)) && elementType(el) == "arrow" {
			el.Set("elbowed", false)
		}
		prev = nextIndex(prev)
		el.Set("index", prev)
	}
	return els
}

func TestNormalizeBoundElementsEntries(t *testing.T) {
	box := rect("box").Set("boundElements", []any{
		entry("a", "arrow"), entry("a", "arrow"), // listed twice
		entry("gone", "arrow"),   // names nothing
		entry("dead", "arrow"),   // names a tombstone
		entry("stray", "arrow"),  // an arrow that does not bind the box
		entry("t-other", "text"), // a text bound elsewhere
		entry("free", "text"),    // a text without containerId: bound here, as restore does
		"not an entry",           // malformed
		entry("a", "mystery"),    // duplicate of another kind
		entry("line", "unknown"), // unknown kind: kept
	})
	a := arrow("a", "", "box")
	dead := arrow("dead", "", "box").Set("isDeleted", true)
	stray := arrow("stray", "", "")
	other := rect("other")
	otherText := textEl("other-text", "other")
	bind(other, "other-text", "text")
	text := textEl("t-other", "other")
	free := textEl("free", "")
	line := linear("line", "line", "", "")
	_, rep := normalizeOf(complete(box, a, dead, stray, other, otherText, text, free, line)...)
	wantJSON(t, box, "boundElements", []any{entry("a", "arrow"), entry("free", "text"), entry("line", "unknown")})
	wantJSON(t, free, "containerId", "box")
	wantJSON(t, other, "boundElements", []any{entry("other-text", "text"), ojson.New().Set("type", "text").Set("id", "t-other")})
	if rep.Fixes[FixBoundElements] == 0 || rep.Fixes[FixContainer] != 1 {
		t.Errorf("fixes %v", rep.Fixes)
	}
}

func TestNormalizeBoundText(t *testing.T) {
	orphan := textEl("orphan", "missing")
	unlisted := textEl("unlisted", "box")
	box := rect("box")
	deletedBox := rect("deleted-box").Set("isDeleted", true)
	onDeleted := textEl("on-deleted", "deleted-box")
	deadText := textEl("dead-text", "box2").Set("isDeleted", true)
	box2 := rect("box2")
	_, rep := normalizeOf(complete(orphan, unlisted, box, deletedBox, onDeleted, deadText, box2)...)
	wantJSON(t, orphan, "containerId", nil)
	wantJSON(t, box, "boundElements", []any{ojson.New().Set("type", "text").Set("id", "unlisted")})
	// A live text on a deleted container stays bound, and listed, as restore does.
	wantJSON(t, onDeleted, "containerId", "deleted-box")
	wantJSON(t, deletedBox, "boundElements", []any{ojson.New().Set("type", "text").Set("id", "on-deleted")})
	// A deleted text is not added to its container.
	wantJSON(t, box2, "boundElements", []any{})
	wantJSON(t, deadText, "containerId", "box2")
	if rep.Fixes[FixContainer] != 1 || rep.Fixes[FixBoundElements] != 2 {
		t.Errorf("fixes %v", rep.Fixes)
	}
}

// Restore's repair depends on element order: a container seen before its
// text keeps listing a text that later loses its container, then binds it
// on the next load. Normalize settles that in one call.
func TestNormalizeRepairSettles(t *testing.T) {
	container := rect("c").Set("boundElements", []any{entry("t", "text")})
	text := textEl("t", "gone")
	d, _ := normalizeOf(complete(container, text)...)
	wantJSON(t, text, "containerId", "c")
	wantJSON(t, container, "boundElements", []any{entry("t", "text")})
	if again := Normalize(d); again.Changed != 0 {
		t.Errorf("not settled: %+v", again)
	}
}

func TestNormalizeArrowBindings(t *testing.T) {
	box := rect("box")
	ghost := arrow("ghost", "nowhere", "box")
	line := linear("line", "line", "box", "")
	deadTarget := rect("dead-target").Set("isDeleted", true)
	toDead := arrow("to-dead", "dead-target", "")
	deadArrow := arrow("dead-arrow", "box", "").Set("isDeleted", true)
	_, rep := normalizeOf(complete(box, ghost, line, deadTarget, toDead, deadArrow)...)
	wantJSON(t, ghost, "startBinding", nil)
	wantJSON(t, ghost, "endBinding", binding("box"))
	wantJSON(t, line, "startBinding", nil)
	// A binding to a tombstone stays (restore keeps it; undo may revive the
	// target), but the tombstone's list is not touched.
	wantJSON(t, toDead, "startBinding", binding("dead-target"))
	wantJSON(t, deadTarget, "boundElements", []any{})
	// Live arrows are listed by their targets; deleted ones are not.
	wantJSON(t, box, "boundElements", []any{entry("ghost", "arrow")})
	if rep.Fixes[FixBinding] != 2 || rep.Fixes[FixBoundElements] != 1 {
		t.Errorf("fixes %v", rep.Fixes)
	}
}

func TestNormalizeFrameMembership(t *testing.T) {
	frame := frameEl("f")
	in := rect("in").Set("frameId", "f")
	out := rect("out").Set("frameId", "no-such-frame")
	notFrame := rect("odd").Set("frameId", "in") // restore only checks existence
	_, rep := normalizeOf(complete(frame, in, out, notFrame)...)
	wantJSON(t, in, "frameId", "f")
	wantJSON(t, out, "frameId", nil)
	wantJSON(t, notFrame, "frameId", "in")
	if rep.Fixes[FixFrame] != 1 {
		t.Errorf("fixes %v", rep.Fixes)
	}
}

// Elements restore drops are not there for the repair: references to
// them are dangling.
func TestNormalizeReferencesToDroppedElements(t *testing.T) {
	tiny := rect("tiny").Set("width", num(0)).Set("height", num(0))
	a := arrow("a", "tiny", "")
	unknown := rect("u").Set("type", "table")
	label := textEl("label", "u")
	_, _ = normalizeOf(complete(tiny, a, unknown, label)...)
	wantJSON(t, a, "startBinding", nil)
	wantJSON(t, label, "containerId", nil)
}

func TestNormalizeSelfBoundRunawayElbow(t *testing.T) {
	box := rect("box")
	fixed := func() *ojson.Object {
		return ojson.New().Set("elementId", "box").Set("focus", num(0)).Set("gap", num(1)).Set("fixedPoint", []any{num(1), num(0.25)})
	}
	el := arrow("e", "", "").Set("elbowed", true).Set("startBinding", fixed()).Set("endBinding", fixed()).
		Set("points", []any{pt(0, 0), pt(2e6, 0), pt(2e6, 10)})
	complete(box, el)
	el.Set("elbowed", true)
	_, rep := normalizeOf(box, el)
	wantJSON(t, el, "points", []any{pt(0, 0), pt(0, -10), pt(55, -10), pt(55, 30)})
	for k, v := range map[string]any{"x": num(50), "y": num(-5), "width": num(55), "height": num(40)} {
		wantJSON(t, el, k, v)
	}
	if rep.Fixes[FixPoints] == 0 {
		t.Errorf("fixes %v", rep.Fixes)
	}
}
