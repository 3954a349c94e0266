package scene

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestNormalizeFillsBaseDefaultsInRestoreOrder(t *testing.T) {
	d, rep := normalizeOf(bare("r", "rectangle"))
	r := d.Elements()[0]
	want := []string{"id", "type", "x", "y", "width", "height",
		"version", "versionNonce", "index", "isDeleted", "fillStyle", "strokeWidth", "strokeStyle",
		"roughness", "opacity", "angle", "strokeColor", "backgroundColor", "seed", "groupIds",
		"frameId", "roundness", "boundElements", "updated", "link", "locked"}
	if !slices.Equal(r.Keys(), want) {
		t.Errorf("keys %v\nwant %v", r.Keys(), want)
	}
	for k, v := range map[string]any{
		"fillStyle": "solid", "strokeWidth": num(2), "strokeStyle": "solid", "roughness": num(1),
		"opacity": num(100), "angle": num(0), "strokeColor": "#1e1e1e", "backgroundColor": "transparent",
		"seed": num(1), "groupIds": []any{}, "frameId": nil, "roundness": nil, "boundElements": []any{},
		"updated": num(1), "link": nil, "locked": false, "isDeleted": false, "index": "a0",
		// version 1 by default, bumped with the new index as mutateElement does
		"version": num(2),
	} {
		wantJSON(t, r, k, v)
	}
	if rep.Changed != 1 || rep.Fixes[FixDefaultField] != 20 || rep.Fixes[FixIndex] != 1 {
		t.Errorf("report %+v", rep)
	}
}

// restore uses || for some fields (falsy values replaced) and ?? for
// others (only null and absent replaced).
func TestNormalizeOrVersusNullish(t *testing.T) {
	r := rect("r").Set("index", "a0").
		Set("strokeWidth", num(0)).Set("fillStyle", "").Set("strokeColor", "").Set("version", num(0)).
		Set("roughness", num(0)).Set("opacity", num(0)).Set("seed", num(0)).Set("angle", num(0)).
		Set("locked", nil).Set("groupIds", nil).Set("isDeleted", nil)
	_, rep := normalizeOf(r)
	for k, v := range map[string]any{
		"strokeWidth": num(2), "fillStyle": "solid", "strokeColor": "#1e1e1e", "version": num(1),
		"roughness": num(0), "opacity": num(0), "seed": num(0), "angle": num(0),
		"locked": false, "groupIds": []any{}, "isDeleted": false,
	} {
		wantJSON(t, r, k, v)
	}
	if rep.Fixes[FixDefaultField] != 8 { // the 7 above and boundElements null → []
		t.Errorf("fixes %v (angle 0 || 0 is no change)", rep.Fixes)
	}
}

func TestNormalizeLegacyRoundness(t *testing.T) {
	cases := []struct {
		typ, sharpness string
		roundness      any
		want           any
	}{
		{"rectangle", "round", nil, roundnessOf(num(1))},
		{"image", "round", nil, roundnessOf(num(1))},
		{"diamond", "round", nil, roundnessOf(num(2))},
		{"draw", "round", nil, roundnessOf(num(2))},
		{"rectangle", "sharp", nil, nil},
		{"rectangle", "round", roundnessOf(num(3)), roundnessOf(num(3))},
	}
	for _, c := range cases {
		el := bare("e", c.typ).Set("strokeSharpness", c.sharpness).Set("roundness", c.roundness)
		normalizeOf(el)
		wantJSON(t, el, "roundness", c.want)
		wantJSON(t, el, "strokeSharpness", c.sharpness) // kept, as restore keeps it
	}
}

func TestNormalizeLegacyBoundElementIds(t *testing.T) {
	r := bare("r", "rectangle").Set("boundElementIds", []any{"a", "gone"}).Set("boundElements", []any{entry("x", "text")})
	a := bare("a", "arrow").Set("points", []any{pt(0, 0), pt(10, 0)}).Set("endBinding", ojson.New().Set("elementId", "r").Set("focus", num(0)).Set("gap", num(1)))
	_, rep := normalizeOf(r, a)
	if r.Has("boundElementIds") {
		t.Error("boundElementIds must go once migrated")
	}
	wantJSON(t, r, "boundElements", []any{ojson.New().Set("type", "arrow").Set("id", "a")})
	if rep.Fixes[FixLegacyBoundElements] != 1 {
		t.Errorf("fixes %v", rep.Fixes)
	}
	// A null boundElementIds is not migrated, and stays.
	r2 := bare("r2", "rectangle").Set("boundElementIds", nil)
	normalizeOf(r2)
	if !r2.Has("boundElementIds") {
		t.Error("a null boundElementIds is left")
	}
}

func TestNormalizeNegativeSize(t *testing.T) {
	e := bare("e", "ellipse").Set("width", num(-40)).Set("height", num(-30))
	_, rep := normalizeOf(e)
	for k, v := range map[string]any{"x": num(-30), "y": num(-10), "width": num(40), "height": num(30)} {
		wantJSON(t, e, k, v)
	}
	if rep.Fixes[FixDimensions] != 4 {
		t.Errorf("fixes %v", rep.Fixes)
	}
}

func TestNormalizeLink(t *testing.T) {
	cases := map[string]any{
		"https://excalidraw.com":   "https://excalidraw.com",
		"  https://x.y/a b  ":      "https://x.y/a b",
		"javascript:alert(1)":      "about:blank",
		" JaVaScRiPt:alert(1)":     "about:blank",
		"\x01java\tscript:alert()": "about:blank",
		"&#106;avascript:alert(1)": "about:blank",
		"data:text/html,x":         "about:blank",
		"vbscript:x":               "about:blank",
		"/relative/path":           "/relative/path",
		"./x:javascript":           "./x:javascript",
		"mailto:a@b.c":             "mailto:a@b.c",
		`say "hi"`:                 "say &quot;hi&quot;",
		"&#34;":                    "&quot;",    // decoded, then escaped on the next load
		"&#0x41;BC":                "ABC",       // Number() reads hex
		"&newline;https://x":       "https://x", // named control entities removed
		"   ":                      nil,
		"\u200b":                   "about:blank", // not white space to trim, but a control character to strip
		"":                         nil,
	}
	for in, want := range cases {
		r := rect("r").Set("index", "a0").Set("link", in)
		normalizeOf(r)
		wantJSON(t, r, "link", want)
		if fixedLink(mustString(r, "link")) != mustString(r, "link") {
			t.Errorf("%q: result %q is not a fixed point", in, mustString(r, "link"))
		}
	}
	r := rect("r").Set("index", "a0").Set("link", num(3))
	normalizeOf(r)
	wantJSON(t, r, "link", nil) // not a string: restore would crash on it
}

func mustString(el *ojson.Object, key string) string {
	s, _ := el.String(key)
	return s
}

func TestNormalizeIDs(t *testing.T) {
	noID := bare("", "rectangle")
	noID.Delete("id")
	emptyID := bare("", "ellipse")
	first := bare("dup", "rectangle")
	second := bare("dup", "diamond")
	label := textEl("t", "dup")
	d, rep := normalizeOf(noID, emptyID, first, second, label)
	ids := make([]string, 0, 5)
	for _, el := range d.Elements() {
		ids = append(ids, elementID(el))
	}
	if ids[2] != "dup" || ids[3] == "dup" || ids[0] == "" || ids[1] == "" || len(ids[0]) != idLength {
		t.Fatalf("ids %v", ids)
	}
	if slices.Index(ids[:4], ids[0]) != 0 || slices.Index(ids[:4], ids[1]) != 1 || slices.Index(ids[:4], ids[3]) != 3 {
		t.Fatalf("ids not unique: %v", ids)
	}
	if cid, _ := label.String("containerId"); cid != "dup" {
		t.Errorf("references stay with the first element: %q", cid)
	}
	if rep.Fixes[FixID] != 3 {
		t.Errorf("fixes %v", rep.Fixes)
	}
	again, _ := normalizeOf(func() []*ojson.Object {
		n := bare("", "rectangle")
		n.Delete("id")
		e := bare("", "ellipse")
		return []*ojson.Object{n, e, bare("dup", "rectangle"), bare("dup", "diamond"), textEl("t", "dup")}
	}()...)
	for i, el := range again.Elements() {
		if elementID(el) != ids[i] {
			t.Errorf("ids are not derived deterministically: %q then %q", ids[i], elementID(el))
		}
	}
}

// A generated id never collides with an id in the document.
func TestNormalizeIDsAvoidTakenOnes(t *testing.T) {
	n := newNormalizer(nil)
	taken := n.newElementID(0)
	n2 := newNormalizer([]*ojson.Object{bare(taken, "rectangle")})
	if got := n2.newElementID(0); got == taken {
		t.Fatal("collision")
	}
}

func TestNormalizeText(t *testing.T) {
	twoLines := bare("two", "text").Set("text", "a\r\nb").Set("fontSize", num(20)).Set("fontFamily", num(1)).Set("rawText", "obsidian")
	noHeight := bare("nunito", "text").Set("text", "x").Set("fontSize", num(20)).Set("fontFamily", num(6)).Set("height", num(0))
	legacy := bare("legacy", "text").Set("text", "x").Set("font", "28px Cascadia").Set("fontSize", num(12))
	lilita := bare("lilita", "text").Set("text", "x").Set("font", "20px Lilita One")
	unknown := bare("unknown", "text").Set("text", "x").Set("fontSize", num(20)).Set("fontFamily", num(42)).Set("lineHeight", num(1.2))
	missing := bare("missing", "text").Set("text", "x")
	notString := bare("notstring", "text").Set("text", num(5)).Set("fontSize", num(20)).Set("fontFamily", num(5)).Set("originalText", "orig")
	_, rep := normalizeOf(twoLines, noHeight, legacy, lilita, unknown, missing, notString)

	wantJSON(t, twoLines, "lineHeight", num(1.25)) // 50 px / 2 lines / 20 px
	if twoLines.Has("rawText") {
		t.Error("rawText must go, as restore deletes it")
	}
	for k, v := range map[string]any{"textAlign": "left", "verticalAlign": "top", "containerId": nil, "originalText": "a\r\nb", "autoResize": true} {
		wantJSON(t, twoLines, k, v)
	}
	wantJSON(t, noHeight, "lineHeight", num(1.35)) // Nunito's
	wantJSON(t, legacy, "fontSize", num(28))
	wantJSON(t, legacy, "lineHeight", num(50.0/12)) // measured with the fontSize as read, as restore does
	wantJSON(t, legacy, "fontFamily", num(3))
	wantJSON(t, lilita, "fontFamily", num(5)) // "Lilita" is not a family name: the default
	wantJSON(t, unknown, "fontFamily", num(5))
	wantJSON(t, unknown, "lineHeight", num(1.2))
	wantJSON(t, missing, "fontSize", num(20))
	wantJSON(t, missing, "fontFamily", num(5))
	wantJSON(t, missing, "lineHeight", num(2.5)) // 50 / 1 / 20
	wantJSON(t, notString, "text", "")
	wantJSON(t, notString, "isDeleted", true)  // no text: deleted, as restore does
	wantJSON(t, notString, "originalText", "") // and emptied
	if rep.Fixes[FixEmptyText] != 1 || rep.Fixes[FixLegacyField] != 1 || rep.Fixes[FixFont] < 3 || rep.Fixes[FixLineHeight] != 6 {
		t.Errorf("fixes %v", rep.Fixes)
	}
}

func TestNormalizeEmptyTextIsDeletedWithVersionBump(t *testing.T) {
	el := textEl("t", "").Set("text", "").Set("originalText", "old").Set("version", num(7)).Set("index", "a0").Set("updated", num(1234))
	_, rep := normalizeOf(el)
	wantJSON(t, el, "isDeleted", true)
	wantJSON(t, el, "originalText", "")
	wantJSON(t, el, "version", num(8))
	wantJSON(t, el, "updated", num(1234))
	if n, _ := el.Number("versionNonce"); n == 1 {
		t.Error("versionNonce must change with the version")
	}
	if rep.Fixes[FixEmptyText] != 1 {
		t.Errorf("fixes %v", rep.Fixes)
	}
	// A deleted empty text is left alone.
	dead := textEl("d", "").Set("text", "").Set("isDeleted", true).Set("index", "a0").Set("boundElements", []any{})
	if _, rep := normalizeOf(dead); rep.Changed != 0 {
		t.Errorf("%+v", rep)
	}
}

func TestNormalizeLinearPoints(t *testing.T) {
	shifted := bare("shifted", "line").Set("points", []any{pt(5, 5), pt(25, -5), []any{num(15), num(45), num(0.3)}})
	short := bare("short", "arrow").Set("points", []any{pt(0, 0)}).Set("width", num(-30)).Set("height", num(40))
	none := bare("none", "arrow")
	draw := bare("draw", "draw").Set("points", []any{pt(0, 0), pt(3, 4)})
	_, rep := normalizeOf(shifted, short, none, draw)

	wantJSON(t, shifted, "points", []any{pt(0, 0), pt(20, -10), pt(10, 40)})
	for k, v := range map[string]any{"x": num(15), "y": num(25), "width": num(20), "height": num(50)} {
		wantJSON(t, shifted, k, v)
	}
	wantJSON(t, short, "points", []any{pt(0, 0), pt(-30, 40)})
	wantJSON(t, short, "width", num(30))
	wantJSON(t, short, "x", num(10)) // restore leaves x where it is
	wantJSON(t, none, "points", []any{pt(0, 0), pt(100, 50)})
	wantJSON(t, draw, "type", "line")
	wantJSON(t, draw, "width", num(3))
	for _, el := range []*ojson.Object{shifted, short, none, draw} {
		wantJSON(t, el, "lastCommittedPoint", nil)
		wantJSON(t, el, "startArrowhead", nil)
	}
	wantJSON(t, shifted, "endArrowhead", nil)
	wantJSON(t, short, "endArrowhead", "arrow")
	wantJSON(t, short, "elbowed", false)
	if shifted.Has("elbowed") {
		t.Error("lines have no elbowed")
	}
	if rep.Fixes[FixLegacyType] != 1 || rep.Fixes[FixPoints] == 0 {
		t.Errorf("fixes %v", rep.Fixes)
	}
	// An arrowhead set to null stays null.
	a := arrow("a", "", "").Set("index", "a0").Set("endArrowhead", nil).Set("elbowed", false).Set("boundElements", []any{})
	if _, rep := normalizeOf(a); rep.Changed != 0 {
		t.Errorf("a complete arrow is left alone: %+v", rep)
	}
}

func TestNormalizeBindingFields(t *testing.T) {
	box := bare("box", "rectangle")
	noFocus := bare("a", "arrow").Set("points", []any{pt(0, 0), pt(10, 0)}).
		Set("startBinding", ojson.New().Set("elementId", "box").Set("gap", num(2))).
		Set("endBinding", "box")
	elbow := bare("e", "arrow").Set("elbowed", true).Set("points", []any{pt(0, 0), pt(10, 0)}).
		Set("startBinding", ojson.New().Set("elementId", "box").Set("focus", num(0)).Set("gap", num(2)).Set("fixedPoint", []any{num(1), num(0.50005)})).
		Set("endBinding", ojson.New().Set("elementId", "box").Set("focus", num(0)).Set("gap", num(2)))
	line := bare("l", "line").Set("points", []any{pt(0, 0), pt(10, 0)}).
		Set("startBinding", ojson.New().Set("elementId", "box").Set("focus", num(0)).Set("gap", num(2)))
	ghost := bare("g", "arrow").Set("points", []any{pt(0, 0), pt(10, 0)}).
		Set("endBinding", ojson.New().Set("elementId", "ghost").Set("focus", num(0)).Set("gap", num(2)))
	normalizeOf(box, noFocus, elbow, line, ghost)

	wantJSON(t, noFocus, "startBinding", ojson.New().Set("elementId", "box").Set("gap", num(2)).Set("focus", num(0)))
	wantJSON(t, noFocus, "endBinding", nil) // not an object
	wantJSON(t, elbow, "startBinding", ojson.New().Set("elementId", "box").Set("focus", num(0)).Set("gap", num(2)).Set("fixedPoint", []any{num(1), num(0.5001)}))
	wantJSON(t, elbow, "endBinding", nil) // an elbow binding needs a fixedPoint
	wantJSON(t, line, "startBinding", nil)
	wantJSON(t, ghost, "endBinding", nil)
	wantJSON(t, box, "boundElements", []any{entry("a", "arrow"), entry("e", "arrow")})
}

func TestNormalizeFreedrawImageFrame(t *testing.T) {
	fd := bare("f", "freedraw").Set("points", []any{pt(0, 0), pt(1, 1)}).Set("lastCommittedPoint", pt(1, 1))
	fdp := bare("fp", "freedraw").Set("points", []any{pt(0, 0), pt(1, 1)}).Set("pressures", []any{num(0.5), num(0.7)})
	img := bare("i", "image").Set("status", "").Set("scale", nil)
	frame := bare("fr", "magicframe")
	normalizeOf(fd, fdp, img, frame)
	for k, v := range map[string]any{"lastCommittedPoint": nil, "pressures": []any{}, "simulatePressure": true} {
		wantJSON(t, fd, k, v)
	}
	wantJSON(t, fdp, "simulatePressure", false)
	for k, v := range map[string]any{"status": "pending", "fileId": nil, "scale": []any{num(1), num(1)}, "crop": nil} {
		wantJSON(t, img, k, v)
	}
	wantJSON(t, frame, "name", nil)
}

func TestNormalizeKeepsUnknownFieldsAndOrder(t *testing.T) {
	r := rect("r").Set("index", nil).Set("customData", ojson.New().Set("x", num(1))).Set("zzz", []any{"keep"})
	before := slices.Clone(r.Keys())
	normalizeOf(r, bare("mystery", "table"))
	if !slices.Equal(r.Keys(), before) {
		t.Errorf("keys %v became %v", before, r.Keys())
	}
	wantJSON(t, r, "zzz", []any{"keep"})
	wantJSON(t, r, "customData", ojson.New().Set("x", num(1)))
}

func TestNormalizeUnknownTypesOnlyGetAnIndex(t *testing.T) {
	m := bare("m", "table")
	_, rep := normalizeOf(m)
	if !slices.Equal(m.Keys(), []string{"id", "type", "x", "y", "width", "height", "index"}) || rep.Fixes[FixIndex] != 1 {
		t.Errorf("%v %+v", m.Keys(), rep)
	}
}

func TestNormalizeReportCountsElements(t *testing.T) {
	ok := rect("ok").Set("index", "a0").Set("boundElements", []any{})
	bad := rect("bad").Set("index", "a1").Set("boundElements", []any{}).Set("locked", nil)
	_, rep := normalizeOf(ok, bad)
	if rep.Changed != 1 || rep.Fixes[FixDefaultField] != 1 || len(rep.Fixes) != 1 {
		t.Errorf("%+v", rep)
	}
}

// What restore crashes on or mangles is repaired so that the editor can
// open the file and restore leaves it alone.
func TestNormalizeGarbageRestoreCannotTake(t *testing.T) {
	text := textEl("t", "").Set("index", "a0").Set("font", num(20))
	fd := freedrawEl("f").Set("index", "a1").Set("points", "none")
	id := rect("").Set("index", "a2").Set("id", []any{"x"})
	inf := rect("inf").Set("index", "a3").Set("x", json.Number("1e999")).
		Set("customData", ojson.New().Set("deep", []any{json.Number("-2e400"), num(1)}))
	crooked := bare("crooked", "line").Set("points", []any{[]any{num(1)}, pt(2, 2)})
	_, rep := normalizeOf(text, fd, id, inf, crooked)
	if text.Has("font") {
		t.Error("a font that is not a string must go")
	}
	wantJSON(t, fd, "points", []any{})
	if s, ok := id.String("id"); !ok || len(s) != idLength {
		t.Errorf("id %v", mustGet(id, "id"))
	}
	wantJSON(t, inf, "x", num(0)) // null, then restore's default
	wantJSON(t, inf, "customData", ojson.New().Set("deep", []any{nil, num(1)}))
	wantJSON(t, crooked, "points", []any{pt(0, 0), pt(100, 50)})
	if rep.Fixes[FixNonFinite] != 1 || rep.Fixes[FixID] != 1 {
		t.Errorf("fixes %v", rep.Fixes)
	}
}

func TestNormalizeReroutesUnboundCrookedElbow(t *testing.T) {
	h := arrow("h", "", "").Set("index", "a0").Set("elbowed", true).Set("points", []any{pt(0, 0), pt(30, 20), pt(100, 50)})
	v := arrow("v", "", "").Set("index", "a1").Set("elbowed", true).Set("points", []any{pt(0, 0), pt(-50, -100)})
	ok := arrow("ok", "", "").Set("index", "a2").Set("elbowed", true).Set("points", []any{pt(0, 0), pt(0.5, 100), pt(80, 100.5)})
	before := ok.Clone()
	normalizeOf(h, v, ok)
	wantJSON(t, h, "points", []any{pt(0, 0), pt(50, 0), pt(50, 50), pt(100, 50)})
	wantJSON(t, v, "points", []any{pt(0, 0), pt(0, -50), pt(-50, -50), pt(-50, -100)})
	wantJSON(t, v, "width", num(50))
	for _, k := range []string{"fixedSegments", "startIsSpecial", "endIsSpecial"} {
		wantJSON(t, h, k, nil)
	}
	wantJSON(t, ok, "points", mustGet(before, "points")) // within a pixel of axis-aligned
}
