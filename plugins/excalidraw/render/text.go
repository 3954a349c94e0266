package render

import (
	"regexp"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// fontMetrics are Excalidraw's FONT_METADATA metrics (head.unitsPerEm,
// hhea ascender and descender) by fontFamily id; what places a line's
// baseline in its line box.
var fontMetrics = map[int][3]float64{
	1: {1000, 886, -374},  // Virgil
	2: {2048, 1577, -471}, // Helvetica
	3: {2048, 1900, -480}, // Cascadia
	5: {1000, 886, -374},  // Excalifont
	6: {1000, 1011, -353}, // Nunito
	7: {1000, 923, -220},  // Lilita One
	8: {1000, 750, -250},  // Comic Shanns
	9: {2048, 1854, -434}, // Liberation Sans
}

// verticalOffset is Excalidraw's getVerticalOffset: the distance from the
// top of a line box to the baseline of its text.
func verticalOffset(family int, fontSize, lineHeightPx float64) float64 {
	m, ok := fontMetrics[family]
	if !ok {
		m = fontMetrics[1] // Excalidraw falls back to Virgil's metrics
	}
	em := fontSize / m[0]
	lineGap := (lineHeightPx - em*m[1] + em*m[2]) / 2
	return em*m[1] + lineGap
}

func defaultLineHeight(family int) float64 {
	if textmetrics.Known(textmetrics.FontFamily(family)) {
		return textmetrics.LineHeight(textmetrics.FontFamily(family))
	}
	return 1.25
}

// rtlCheck is the test Excalidraw makes for right-to-left text: the first
// strong character is Hebrew or Arabic. (JavaScript matches characters
// beyond U+FFFF as surrogates, which fall in the left-to-right ranges.)
var rtlCheck = regexp.MustCompile(`^[^A-Za-z\x{00C0}-\x{00D6}\x{00D8}-\x{00F6}\x{00F8}-\x{02B8}\x{0300}-\x{0590}\x{0800}-\x{1FFF}\x{2C00}-\x{FB1C}\x{FDFE}-\x{FE6F}\x{FEFD}-\x{10FFFF}]*[\x{0591}-\x{07FF}\x{FB1D}-\x{FDFD}\x{FE70}-\x{FEFC}]`)

// textItem lays a text element out as Excalidraw draws it: one line per
// "\n", each at index × line height + the family's baseline offset, x at
// the start, middle or end of the element's width by its alignment.
func textItem(e *element, color Color) *Text {
	lineHeightPx := e.fontSize * e.lineHeight
	v := verticalOffset(e.fontFamily, e.fontSize, lineHeightPx)
	t := &Text{Family: e.fontFamily, Size: e.fontSize, Color: color, RTL: rtlCheck.MatchString(e.text)}
	x := 0.0
	switch e.textAlign {
	case "center":
		t.Anchor, x = AnchorMiddle, e.w/2
	case "right":
		t.Anchor, x = AnchorEnd, e.w
	}
	text := strings.ReplaceAll(strings.ReplaceAll(e.text, "\r\n", "\n"), "\r", "\n")
	for i, line := range strings.Split(text, "\n") {
		t.Lines = append(t.Lines, TextLine{Text: line, X: x, Y: float64(i)*lineHeightPx + v})
	}
	return t
}
