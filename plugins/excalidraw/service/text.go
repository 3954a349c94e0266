package service

import (
	"math"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// boundTextPadding is Excalidraw's BOUND_TEXT_PADDING.
const boundTextPadding = 5

var textNormalizer = strings.NewReplacer("\t", "        ", "\r\n", "\n", "\r", "\n")

// normalizeText stores text as Excalidraw does (normalizeText): tabs as
// eight spaces, line endings as LF.
func normalizeText(s string) string { return textNormalizer.Replace(s) }

func textFont(t *ojson.Object) (textmetrics.FontFamily, float64) {
	fam := textmetrics.FontFamily(num(t, "fontFamily"))
	if !textmetrics.Known(fam) {
		fam = textmetrics.DefaultFamily
	}
	fs := num(t, "fontSize")
	if fs <= 0 {
		fs = 20
	}
	return fam, fs
}

// textField sets the text of a text element, or of a container's label;
// originalText and text both take it (wrapping, for a label, comes later).
func textField(p *patcher, v any) string {
	s, ok := v.(string)
	if !ok || strings.TrimSpace(s) == "" {
		return "text must be a non-empty string"
	}
	if p.typ != "text" && p.label == nil {
		return "text applies only to text elements and to elements with a label"
	}
	s = normalizeText(s)
	t := p.target("text")
	t.Set("text", s)
	t.Set("originalText", s)
	p.textChanged = true
	return ""
}

// remeasureText sizes a free text element to its text, keeping the point
// its alignment anchors (left edge, centre or right edge) in place.
func remeasureText(t *ojson.Object) {
	fam, fs := textFont(t)
	text := strOf(t, "originalText")
	if text == "" {
		text = strOf(t, "text")
	}
	size := textmetrics.Measure(text, fam, fs)
	oldW := num(t, "width")
	t.Set("text", text)
	t.Set("width", size.Width)
	t.Set("height", size.Height)
	switch strOf(t, "textAlign") {
	case "center":
		t.Set("x", num(t, "x")+(oldW-size.Width)/2)
	case "right":
		t.Set("x", num(t, "x")+oldW-size.Width)
	}
}

// layoutLabel re-wraps a label to its container (as Excalidraw's
// wrapText with getBoundTextMaxWidth), grows a container that became too
// short for it (computeContainerDimensionForBoundText) and places it.
func layoutLabel(c, t *ojson.Object) {
	fam, fs := textFont(t)
	original := strOf(t, "originalText")
	if original == "" {
		original = strOf(t, "text")
	}
	ctype := strOf(c, "type")
	wrapped := textmetrics.Wrap(original, fam, fs, textmetrics.BoundTextMaxWidth(ctype, num(c, "width"), fs))
	size := textmetrics.Measure(wrapped, fam, fs)
	t.Set("text", wrapped)
	t.Set("width", size.Width)
	t.Set("height", size.Height)
	if ctype != "arrow" && size.Height > maxLabelHeight(ctype, num(c, "height")) {
		c.Set("height", containerHeightFor(ctype, size.Height))
	}
	placeLabel(c, t)
}

// maxLabelHeight is Excalidraw's getBoundTextMaxHeight.
func maxLabelHeight(ctype string, h float64) float64 {
	switch ctype {
	case "ellipse":
		return math.Round(h/2*math.Sqrt2) - boundTextPadding*2
	case "diamond":
		return math.Round(h/2) - boundTextPadding*2
	}
	return h - boundTextPadding*2
}

// containerHeightFor is Excalidraw's computeContainerDimensionForBoundText.
func containerHeightFor(ctype string, textH float64) float64 {
	d := math.Ceil(textH)
	pad := float64(boundTextPadding * 2)
	switch ctype {
	case "ellipse":
		return math.Round((d + pad) / math.Sqrt2 * 2)
	case "diamond":
		return 2 * (d + pad)
	}
	return d + pad
}

// placeLabel positions a label in its container by its alignment, as
// Excalidraw's getContainerCoords and text positioning do; an arrow's
// label is centred on the middle of the arrow's extent.
func placeLabel(c, t *ojson.Object) {
	w, h := num(t, "width"), num(t, "height")
	ctype := strOf(c, "type")
	if ctype == "arrow" || ctype == "line" {
		m := centre(c)
		t.Set("x", m[0]-w/2)
		t.Set("y", m[1]-h/2)
		return
	}
	cw, ch := num(c, "width"), num(c, "height")
	offX, offY := float64(boundTextPadding), float64(boundTextPadding)
	switch ctype {
	case "ellipse":
		offX += cw / 2 * (1 - math.Sqrt2/2)
		offY += ch / 2 * (1 - math.Sqrt2/2)
	case "diamond":
		offX += cw / 4
		offY += ch / 4
	}
	_, fs := textFont(t)
	maxW := textmetrics.BoundTextMaxWidth(ctype, cw, fs)
	maxH := maxLabelHeight(ctype, ch)
	x, y := num(c, "x")+offX, num(c, "y")+offY
	switch strOf(t, "textAlign") {
	case "center":
		x += (maxW - w) / 2
	case "right":
		x += maxW - w
	}
	switch strOf(t, "verticalAlign") {
	case "middle":
		y += (maxH - h) / 2
	case "bottom":
		y += maxH - h
	}
	t.Set("x", x)
	t.Set("y", y)
}
