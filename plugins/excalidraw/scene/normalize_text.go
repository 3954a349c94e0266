package scene

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// Text defaults (constants.ts).
const (
	defaultFontSize      = 20
	defaultFontFamily    = 5 // Excalifont
	defaultTextAlign     = "left"
	defaultVerticalAlign = "top"
)

// fontFamilyByName maps the family names of FONT_FAMILY to their ids, for
// the legacy `font` member ("20px Virgil").
var fontFamilyByName = map[string]float64{
	"Virgil": 1, "Helvetica": 2, "Cascadia": 3, "Excalifont": 5, "Nunito": 6,
	"Lilita One": 7, "Comic Shanns": 8, "Liberation Sans": 9,
}

// textFields works out restore's type-specific fields of a text, in its
// order. Beyond restore, a text without fontSize or fontFamily gets the
// defaults of new texts (restore leaves it without, and the editor then
// cannot lay it out), and an unknown fontFamily becomes the default one,
// the font the editor falls back to.
func (n *normalizer) textFields(out []assignment, f elemFix) []assignment {
	el := f.el
	size, family := textFont(el)
	text, isString := el.String("text")
	textField := keep("text")
	if !isString {
		textField = assignment{key: "text", val: "", kind: FixDefaultField}
	}
	return append(out,
		size,
		family,
		textField,
		orField(el, "textAlign", defaultTextAlign),
		orField(el, "verticalAlign", defaultVerticalAlign),
		nullishField(el, "containerId", nil),
		orField(el, "originalText", text),
		nullishField(el, "autoResize", true),
		lineHeightField(el, text, asRead(el, size), asRead(el, family)),
	)
}

// asRead is the number a font field holds as read, which is what restore
// measures the line height with (even when the legacy `font` overrides
// it), or else the value it ends up with.
func asRead(el *ojson.Object, a assignment) any {
	if v, ok := el.Get(a.key); ok {
		if _, st := toNumber(v); st == numOK {
			return v
		}
	}
	return valueOf(el, a)
}

// valueOf is the value a field ends up with.
func valueOf(el *ojson.Object, a assignment) any {
	if a.skip {
		return mustGet(el, a.key)
	}
	return a.val
}

// textFont returns the fontSize and fontFamily fields. Restore takes them
// from the legacy `font` member when there is one ("20px Virgil": size
// from parseFloat of the first word, family by the second word's name),
// on every load, so that is what they must be.
func textFont(el *ojson.Object) (size, family assignment) {
	legacy, _ := peek(el, "font")
	if font, ok := legacy.(string); ok {
		words := strings.Split(font, " ")
		fam := float64(defaultFontFamily)
		if len(words) > 1 {
			if id, known := fontFamilyByName[words[1]]; known {
				fam = id
			}
		}
		return assignment{key: "fontSize", val: jsNumber(parseFloatJS(words[0])), kind: FixFont},
			assignment{key: "fontFamily", val: jsNumber(fam), kind: FixFont}
	}
	size = nullishField(el, "fontSize", jsNumber(defaultFontSize))
	family = nullishField(el, "fontFamily", jsNumber(defaultFontFamily))
	if family.skip {
		if id, ok := finite(el, "fontFamily"); !ok || !slices.Contains(fontFamilies, id) {
			family = assignment{key: "fontFamily", val: jsNumber(defaultFontFamily), kind: FixFont}
		}
	}
	return size, family
}

// jsFloatPrefix is the longest prefix parseFloat reads.
var jsFloatPrefix = regexp.MustCompile(`^[+-]?(Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)`)

// parseFloatJS is JavaScript's parseFloat: leading white space skipped,
// the longest numeric prefix read, NaN when there is none.
func parseFloatJS(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r\u00a0\ufeff\u2028\u2029")
	m := jsFloatPrefix.FindString(s)
	if m == "" {
		return math.NaN()
	}
	if strings.HasSuffix(m, "Infinity") {
		if m[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	f, _ := strconv.ParseFloat(m, 64) // out of range: ±Inf or 0, as in JavaScript
	return f
}

// lineHeightField applies `lineHeight || (height ? detectLineHeight :
// getLineHeight(fontFamily))`: an old text keeps the line height its
// height implies (height / lines / fontSize); one without a height gets
// its font's. A detected value that is not a positive number (no usable
// height or font size) falls back to the font's.
func lineHeightField(el *ojson.Object, text string, fontSize, fontFamily any) assignment {
	if v, ok := el.Get("lineHeight"); !jsFalsy(v, ok) {
		return keep("lineHeight")
	}
	h, okH := finite(el, "height")
	size, st := toNumber(fontSize)
	if okH && h != 0 && st == numOK {
		lh := h / float64(lineCount(text)) / size
		if lh > 0 && !math.IsInf(lh, 0) && !math.IsNaN(lh) {
			return assignment{key: "lineHeight", val: jsNumber(lh), kind: FixLineHeight}
		}
	}
	fam, _ := toNumber(fontFamily)
	return assignment{key: "lineHeight", val: jsNumber(fontLineHeight(fam)), kind: FixLineHeight}
}

// lineCount counts lines as splitIntoLines does: \r\n, \n and \r each end
// one.
func lineCount(text string) int {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	return 1 + strings.Count(text, "\n") + strings.Count(text, "\r")
}

// fontLineHeight is getLineHeight: the registered family's line height,
// Excalifont's for families not registered. Besides the families
// textmetrics knows, the CJK fallback (100, Xiaolai) is registered.
func fontLineHeight(family float64) float64 {
	if family == 100 {
		return 1.15
	}
	if family == math.Trunc(family) && family > 0 && family < 1<<20 {
		return textmetrics.LineHeight(textmetrics.FontFamily(family))
	}
	return textmetrics.LineHeight(textmetrics.DefaultFamily)
}

// deleteEmptyText marks a live text without text as deleted, as restore
// does (it keeps the tombstone for collaboration), bumping its version
// with a derived nonce and `now` for bumpVersion's random and clock.
func (n *normalizer) deleteEmptyText(f elemFix) {
	if text, _ := f.el.String("text"); text != "" {
		return
	}
	if v, ok := f.el.Get("isDeleted"); !jsFalsy(v, ok) {
		return
	}
	f.put("originalText", "")
	f.set("isDeleted", true, FixEmptyText)
	n.repaired(RepairEmptyTextDeleted, f.i, "isDeleted", "")
	n.bumpVersion(f)
}
