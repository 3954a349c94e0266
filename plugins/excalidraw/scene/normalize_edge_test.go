package scene

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// keptByRestore filters out the elements restore drops (unknown types,
// invisibly small ones), which Normalize keeps.
func keptByRestore(els []*ojson.Object) []*ojson.Object {
	var out []*ojson.Object
	for _, el := range els {
		if restorableTypes[elementType(el)] && !invisiblySmall(el) {
			out = append(out, el)
		}
	}
	return out
}

// TestNormalizeEdgeCasesRestoreFixedPoint runs the edge-case scene through
// Normalize and then through Excalidraw's own restore: every element it
// keeps must come back unchanged. (It drops the element of unknown type,
// which Normalize keeps.)
func TestNormalizeEdgeCasesRestoreFixedPoint(t *testing.T) {
	t.Parallel() // most of the time is Node's, which can overlap
	node := requireRestore(t)
	d, _ := normalizeOf(edgeCaseScene()...)
	want := keptByRestore(d.Elements())
	if len(want) != d.ElementCount()-1 {
		t.Fatalf("expected restore to drop exactly the unknown type, kept %d of %d", len(want), d.ElementCount())
	}
	res := mustRestore(t, node, [][]*ojson.Object{d.Elements()})
	compareRestored(t, "edge cases", "restore", want, res[0].plain)
	compareRestored(t, "edge cases", "restore+repairBindings", want, res[0].repaired)
}

// TestNormalizeEdgeCasesIdempotent: a second Normalize changes nothing,
// and the elements, their order and the tombstones stay.
func TestNormalizeEdgeCasesIdempotent(t *testing.T) {
	d, rep := normalizeOf(edgeCaseScene()...)
	if rep.Changed != d.ElementCount() {
		t.Errorf("changed %d of %d elements", rep.Changed, d.ElementCount())
	}
	first := mustMarshal(t, d)
	back := mustParse(t, first)
	if again := Normalize(back); again.Changed != 0 || len(again.Fixes) != 0 {
		t.Fatalf("second Normalize: %+v", again)
	}
	if second := mustMarshal(t, back); !bytes.Equal(first, second) {
		t.Fatal("second Normalize changed the bytes")
	}
	orig := edgeCaseScene()
	for i, el := range d.Elements() {
		if i == 21 || i == 22 { // the missing and the duplicate id
			continue
		}
		if elementID(el) != elementID(orig[i]) {
			t.Errorf("element %d: id %q, want %q", i, elementID(el), elementID(orig[i]))
		}
	}
	if !IsDeleted(d.Elements()[23]) || !IsDeleted(d.Elements()[24]) {
		t.Error("tombstones must stay")
	}
}

// TestNormalizeIsPure: the same input gives the same bytes.
func TestNormalizeIsPure(t *testing.T) {
	a, _ := normalizeOf(edgeCaseScene()...)
	b, _ := normalizeOf(edgeCaseScene()...)
	if !bytes.Equal(mustMarshal(t, a), mustMarshal(t, b)) {
		t.Fatal("two runs differ")
	}
}

func TestNormalizeNil(t *testing.T) {
	if r := Normalize(nil); r.Changed != 0 || r.Fixes == nil {
		t.Errorf("%+v", r)
	}
	d := NewDocument()
	d.SetElements([]*ojson.Object{nil, bare("r", "rectangle"), nil})
	Normalize(d)
	if d.ElementCount() != 3 || d.Elements()[0] != nil {
		t.Error("entries that are not objects stay in place")
	}
	if k, _ := d.Elements()[1].String("index"); k != "a0" {
		t.Errorf("index %q", k)
	}
}

// trickyLinks exercise every step of normalizeLink and sanitizeUrl.
var trickyLinks = []string{
	"https://excalidraw.com", "  https://x.y/a b  ", "javascript:alert(1)", " JaVaScRiPt:alert(1)",
	"\x01java\tscript:alert()", "&#106;avascript:alert(1)", "&#0x6A;avascript:x", "&#x6A;avascript:x",
	"data:text/html,x", "vbscript:x", "/relative/path", "./x:javascript", "mailto:a@b.c", `say "hi"`,
	"&#34;", "&#38;#34;", "&#0x41;BC", "&#1e2;", "&#99999;", "&#65", "&newline;https://x", "&TAB;x",
	"   ", "\u200b", "\u00a0x\u00a0", "javascript&colon;alert(1)", "x&colon;javascript:", "::javascript:",
	"ja\u2028vascript:x", "\u2028javascript:x", "#anchor", "?q=1", "file:///etc/passwd", "data", "Data:",
}

// TestNormalizeLinksMatchExcalidraw compares normalizeLink with restore's
// on the tricky links, and requires what Normalize writes to be a fixed
// point.
func TestNormalizeLinksMatchExcalidraw(t *testing.T) {
	t.Parallel() // most of the time is Node's, which can overlap
	node := requireRestore(t)
	var orig []*ojson.Object
	for i, l := range trickyLinks {
		orig = append(orig, rect("r"+strconv.Itoa(i)).Set("index", nextIndexN(i)).Set("boundElements", []any{}).Set("link", l))
	}
	d, _ := normalizeOf(cloneAll(orig)...)
	res := mustRestore(t, node, [][]*ojson.Object{orig, d.Elements()})
	for i, l := range trickyLinks {
		want := mustGet(res[0].plain[i], "link")
		if got := normalizeLink(l); !sameJSON(got, want) {
			t.Errorf("normalizeLink(%q) = %q, Excalidraw's %s", l, got, compactJSON(want))
		}
	}
	compareRestored(t, "links", "restore", d.Elements(), res[1].plain)
}

func nextIndexN(i int) string {
	k := ""
	for range i + 1 {
		k = nextIndex(k)
	}
	return k
}

func cloneAll(els []*ojson.Object) []*ojson.Object {
	out := make([]*ojson.Object, len(els))
	for i, el := range els {
		out[i] = el.Clone()
	}
	return out
}

// TestNormalizeTextMatchesExcalidraw compares Normalize with what restore
// makes of texts with the fields it derives missing or legacy: line
// heights detected from heights over \n, \r\n and \r, fonts given the
// legacy way, rawText, empty texts. The only differences allowed are
// restore's random nonce and clock.
func TestNormalizeTextMatchesExcalidraw(t *testing.T) {
	t.Parallel() // most of the time is Node's, which can overlap
	node := requireRestore(t)
	texts := []*ojson.Object{
		textEl("plain", ""),
		textEl("no-lh", "").Set("text", "a\nb\r\nc\rd").Set("height", num(100)),
		textEl("no-lh-no-height", "").Set("fontFamily", num(6)).Set("height", num(0)),
		textEl("no-lh-unknown-font", "").Set("fontFamily", num(4)).Set("height", nil),
		textEl("legacy-font", "").Set("font", "36px Cascadia").Set("lineHeight", nil),
		textEl("legacy-font-name", "").Set("font", "12.5px Liberation Sans"),
		textEl("raw", "").Set("rawText", "obsidian"),
		textEl("empty", "").Set("text", "").Set("version", num(3)),
		textEl("empty-deleted", "").Set("text", "").Set("isDeleted", true),
		textEl("no-original", "").Set("originalText", ""),
		textEl("aligns", "").Set("textAlign", "").Set("verticalAlign", nil).Set("autoResize", nil).Set("containerId", nil),
	}
	for i, el := range texts {
		el.Set("index", nextIndexN(i)).Set("boundElements", []any{})
	}
	d, _ := normalizeOf(cloneAll(texts)...)
	res := mustRestore(t, node, [][]*ojson.Object{texts})
	for i, got := range res[0].repaired {
		for _, diff := range restoreDiff(got, d.Elements()[i]) {
			if m, _, _ := strings.Cut(diff, ":"); m == "versionNonce" || m == "updated" {
				continue
			}
			t.Errorf("%s: Normalize differs from restore: %s", elementID(got), diff)
		}
	}
}

// TestNormalizeLinearMatchesExcalidraw does the same for lines and arrows:
// points shifted to the origin, segments synthesized, sizes from points,
// bindings repaired, legacy "draw". Beyond the nonce and clock, the only
// difference allowed is the elbowed Normalize writes where restore leaves
// it undefined.
func TestNormalizeLinearMatchesExcalidraw(t *testing.T) {
	t.Parallel() // most of the time is Node's, which can overlap
	node := requireRestore(t)
	els := []*ojson.Object{
		rect("box"),
		linear("shifted", "line", "", "").Set("points", []any{pt(5.5, -3), pt(25, 10), []any{num(-4), num(7), num(1)}}),
		linear("no-points", "arrow", "", "").Set("points", "none").Set("width", num(-30)).Set("height", num(12)),
		linear("heads", "arrow", "", "").Set("x", num(1e-7)),
		linear("bound", "arrow", "box", "box").Set("startBinding", ojson.New().Set("elementId", "box").Set("gap", num(3))),
		linear("line-bound", "line", "box", "ghost"),
		linear("elbow", "arrow", "box", "box").Set("elbowed", true),
		linear("elbow-fixed", "arrow", "", "box").Set("elbowed", true).
			Set("endBinding", ojson.New().Set("elementId", "box").Set("focus", num(0)).Set("gap", num(1)).Set("fixedPoint", []any{num(0.49995), num(1)})),
		linear("crooked-h", "arrow", "", "").Set("elbowed", true).Set("points", []any{pt(0, 0), pt(30, 20), pt(120, -40)}),
		linear("crooked-v", "arrow", "", "").Set("elbowed", true).Set("points", []any{pt(2, 3), pt(-30, 200.5)}),
		ojson.New().Set("id", "draw").Set("type", "draw").Set("x", num(3)).Set("y", num(4)).Set("width", num(9)).Set("height", num(9)).
			Set("points", []any{pt(1, 1), pt(10, 10)}).Set("strokeSharpness", "round"),
	}
	for i, el := range els {
		el.Set("index", nextIndexN(i)).Set("boundElements", []any{})
		if elementType(el) != "draw" {
			el.Delete("startArrowhead")
			el.Delete("endArrowhead")
		}
	}
	d, _ := normalizeOf(cloneAll(els)...)
	res := mustRestore(t, node, [][]*ojson.Object{els})
	for i, got := range res[0].repaired {
		for _, diff := range restoreDiff(got, d.Elements()[i]) {
			m, _, _ := strings.Cut(diff, " ")
			if m = strings.TrimSuffix(m, ":"); m == "versionNonce" || m == "updated" || m == "elbowed" ||
				(m == "boundElements" && elementID(got) == "box") { // the arrows bound to it, listed by Normalize
				continue
			}
			t.Errorf("%s: Normalize differs from restore: %s", elementID(got), diff)
		}
	}
}

// damagedVariants is how many damaged scenes go through restore.
var damagedVariants = 300

// TestNormalizeDamagedScenesRestoreFixedPoint damages the edge-case scene
// at random, as FuzzNormalize does, and requires every normalized variant
// to come back from Excalidraw's own restore unchanged (but for the
// elements restore drops).
func TestNormalizeDamagedScenesRestoreFixedPoint(t *testing.T) {
	t.Parallel() // most of the time is Node's, which can overlap
	node := requireRestore(t)
	rng := rand.New(rand.NewPCG(7, 11))
	var scenes [][]*ojson.Object
	var opsList [][]byte
	for range damagedVariants {
		ops := make([]byte, 3*(1+rng.IntN(12)))
		for i := range ops {
			ops[i] = byte(rng.IntN(256))
		}
		d := NewDocument()
		d.SetElements(edgeCaseScene())
		damageScene(d, ops)
		Normalize(d)
		scenes = append(scenes, d.Elements())
		opsList = append(opsList, ops)
	}
	res := restoreScenes(t, node, scenes)
	for i, r := range res {
		name := fmt.Sprintf("variant %d (ops %v)", i, opsList[i])
		if r.err != "" {
			t.Errorf("%s: restore threw: %.300s", name, r.err)
			continue
		}
		want := keptByRestore(scenes[i])
		compareRestored(t, name, "restore", want, r.plain)
		compareRestored(t, name, "restore+repairBindings", want, r.repaired)
	}
}
