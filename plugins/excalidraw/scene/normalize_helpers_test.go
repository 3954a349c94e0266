package scene

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// normalizeOf normalizes a document of the elements as given (indices
// untouched, unlike docOf).
func normalizeOf(els ...*ojson.Object) (*Document, NormalizeReport) {
	d := NewDocument()
	d.SetElements(els)
	return d, Normalize(d)
}

// bare is an element with only an id, a type and a box: what old files
// and hand-written scenes hold.
func bare(id, typ string) *ojson.Object {
	return ojson.New().Set("id", id).Set("type", typ).
		Set("x", num(10)).Set("y", num(20)).Set("width", num(100)).Set("height", num(50))
}

func pt(x, y float64) []any { return []any{num(x), num(y)} }

// wantJSON fails unless el[key] equals want (numbers by value).
func wantJSON(t *testing.T, el *ojson.Object, key string, want any) {
	t.Helper()
	got, ok := el.Get(key)
	if !ok {
		t.Errorf("%s: %s missing, want %s", elementID(el), key, compactJSON(want))
		return
	}
	if !sameJSON(got, want) {
		t.Errorf("%s: %s = %s, want %s", elementID(el), key, compactJSON(got), compactJSON(want))
	}
}

// entry is a boundElements entry.
func entry(id, kind string) *ojson.Object { return ojson.New().Set("id", id).Set("type", kind) }

// edgeCaseScene holds one element for each repair Normalize makes, many of
// them broken in ways the corpus is not: legacy fields, missing fields,
// falsy values restore's || replaces, bad points, bindings to nothing,
// one-sided back-references, duplicate and missing ids, indices missing,
// malformed or out of order.
func edgeCaseScene() []*ojson.Object {
	legacyRect := bare("legacy-rect", "rectangle").Set("strokeSharpness", "round").
		Set("boundElementIds", []any{"arrow-1", "gone"}).Set("strokeWidth", num(0)).Set("fillStyle", "").
		Set("version", num(0)).Set("customThing", ojson.New().Set("keep", true))
	negative := bare("negative", "ellipse").Set("width", num(-40)).Set("height", num(-30)).Set("index", "a5")
	diamond := bare("diamond", "diamond").Set("strokeSharpness", "round").Set("index", "a3")
	text := bare("text-free", "text").Set("text", "two\nlines").Set("fontSize", num(20)).Set("rawText", "x").Set("index", "zz")
	legacyFont := bare("text-font", "text").Set("text", "hello").Set("font", "28px Virgil").Set("height", num(0))
	noFont := bare("text-nofont", "text").Set("text", "hi").Set("fontFamily", num(42)).Set("index", 5)
	empty := bare("text-empty", "text").Set("text", "").Set("fontSize", num(20)).Set("fontFamily", num(1)).Set("version", num(3))
	label := bare("label", "text").Set("text", "label").Set("fontSize", num(20)).Set("fontFamily", num(5)).
		Set("containerId", "box").Set("lineHeight", num(1.25))
	orphan := bare("orphan", "text").Set("text", "orphan").Set("fontSize", num(16)).Set("fontFamily", num(2)).
		Set("containerId", "missing-box")
	box := bare("box", "rectangle").Set("boundElements", []any{entry("arrow-1", "arrow"), entry("arrow-1", "arrow"), entry("nothing", "arrow"), entry("stray-text", "text")})
	stray := bare("stray-text", "text").Set("text", "stray").Set("fontSize", num(20)).Set("fontFamily", num(5)).Set("containerId", nil)
	arrow1 := bare("arrow-1", "arrow").Set("points", []any{pt(5, 5), pt(105, 55)}).
		Set("startBinding", ojson.New().Set("elementId", "legacy-rect").Set("gap", num(4))).
		Set("endBinding", ojson.New().Set("elementId", "box").Set("focus", num(0.2)).Set("gap", num(1))).
		Set("lastCommittedPoint", pt(1, 1))
	arrowGone := bare("arrow-gone", "arrow").Set("points", []any{pt(0, 0)}).
		Set("startBinding", ojson.New().Set("elementId", "gone").Set("focus", num(0)).Set("gap", num(1))).
		Set("endArrowhead", nil)
	line := bare("line", "line").Set("startBinding", ojson.New().Set("elementId", "box").Set("focus", num(0)).Set("gap", num(1)))
	draw := bare("draw", "draw").Set("points", []any{pt(3, 4), pt(10, -5), []any{num(20), num(7), num(0.5)}})
	elbow := bare("elbow", "arrow").Set("elbowed", true).Set("points", []any{pt(0, 0), pt(100, 0), pt(100, 50)}).
		Set("startBinding", ojson.New().Set("elementId", "box").Set("focus", num(0)).Set("gap", num(5)).Set("fixedPoint", []any{num(0.5), num(1)})).
		Set("endBinding", ojson.New().Set("elementId", "diamond").Set("focus", num(0)).Set("gap", num(5)))
	freedraw := bare("freedraw", "freedraw").Set("points", []any{pt(0, 0), pt(4, 4)})
	image := bare("image", "image").Set("status", "")
	frame := bare("frame", "frame")
	framed := bare("framed", "rectangle").Set("frameId", "frame").Set("link", "  javascript:alert(1)  ")
	unframed := bare("unframed", "rectangle").Set("frameId", "no-frame").Set("link", "&#34;quoted&#34;")
	noID := bare("", "rectangle").Set("link", "   ")
	noID.Delete("id")
	dup := bare("box", "rectangle").Set("link", "https://example.com/a b")
	tombstone := bare("tombstone", "rectangle").Set("isDeleted", true).Set("boundElements", nil).Set("index", "a2")
	deletedBox := bare("deleted-box", "rectangle").Set("isDeleted", true).Set("boundElements", []any{})
	onDeleted := bare("on-deleted", "text").Set("text", "on deleted").Set("fontSize", num(20)).Set("fontFamily", num(5)).
		Set("containerId", "deleted-box")
	unknown := bare("mystery", "mermaid").Set("index", "a1")
	return []*ojson.Object{
		legacyRect, negative, diamond, text, legacyFont, noFont, empty, box, label, orphan, stray,
		arrow1, arrowGone, line, draw, elbow, freedraw, image, frame, framed, unframed, noID, dup,
		tombstone, deletedBox, onDeleted, unknown,
	}
}
