package build

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// textStyle is what decides a text element's size and placement.
type textStyle struct {
	fontSize      float64
	fontFamily    int
	textAlign     string
	verticalAlign string
	// lh is an existing element's own unitless line height; 0 for a new
	// text, which takes its font's.
	lh float64
}

// lineHeight is the unitless line height of the text: an existing
// element's own, else the one Excalidraw gives the font.
func (ts textStyle) lineHeight() float64 {
	return textmetrics.LineHeightOr(ts.lh, textmetrics.FontFamily(ts.fontFamily))
}

// measure is the size of text (already normalised) in this style.
func (ts textStyle) measure(text string) (w, h float64) {
	s := textmetrics.MeasureLineHeight(text, textmetrics.FontFamily(ts.fontFamily), ts.fontSize, ts.lh)
	return s.Width, s.Height
}

// widestWord is the width of the widest word of text (already
// normalised) in this style: what a line must hold for the text to break
// only between words (textmetrics.WidestWord).
func (ts textStyle) widestWord(text string) float64 {
	return textmetrics.WidestWord(text, textmetrics.FontFamily(ts.fontFamily), ts.fontSize)
}

// wrap breaks text to maxWidth as Excalidraw's wrapText does.
func (ts textStyle) wrap(text string, maxWidth float64) string {
	return textmetrics.Wrap(text, textmetrics.FontFamily(ts.fontFamily), ts.fontSize, maxWidth)
}

// textFields appends the text-specific fields of newTextElement, in its
// order.
// Text whose size used a declared fallback width is marked for the
// editor to re-measure (MarkMeasure).
func textFields(el *ojson.Object, text, originalText string, ts textStyle, containerID any, autoResize bool) *ojson.Object {
	el.
		Set("text", text).
		Set("fontSize", jsNum(ts.fontSize)).
		Set("fontFamily", ts.fontFamily).
		Set("textAlign", ts.textAlign).
		Set("verticalAlign", ts.verticalAlign).
		Set("containerId", containerID).
		Set("originalText", originalText).
		Set("autoResize", autoResize).
		Set("lineHeight", ts.lineHeight())
	MarkMeasure(el)
	return el
}

// freeTextStyle reads a text input's typography.
func freeTextStyle(in *input, family int) textStyle {
	return textStyle{
		fontSize:      orFloat(in.FontSize, defaultFontSize),
		fontFamily:    family,
		textAlign:     orString(in.TextAlign, "left"),
		verticalAlign: orString(in.VerticalAlign, "top"),
	}
}

// buildText makes a free text element. Without a width the box fits the
// text (autoResize); with one (widened to the widest word, which would
// break otherwise) the text wraps to it, as the editor's fixed-width
// text does. x/y anchor the box the way newTextElement anchors it: by the left edge, centre or right edge for textAlign, and
// by the top or middle for verticalAlign (and, here, the bottom for
// "bottom").
func buildText(id string, in *input, ts textStyle, s style, st stamp) *ojson.Object {
	original := textmetrics.NormalizeText(*in.Text)
	width := in.Width
	if width != nil {
		// A width narrower than a word would break it: the word wins.
		width = new(max(*width, ts.widestWord(original)))
	}
	text, w, h := fitText(original, ts, width)
	autoResize := in.Width == nil
	b := geom.Shape{X: *in.X, Y: *in.Y, W: w, H: h, Angle: normalizeAngle(orFloat(in.Angle, 0))}
	switch ts.textAlign {
	case "center":
		b.X -= w / 2
	case "right":
		b.X -= w
	}
	switch ts.verticalAlign {
	case "middle":
		b.Y -= h / 2
	case "bottom":
		b.Y -= h
	}
	return textFields(baseElement(id, "text", b, s, st), text, original, ts, nil, autoResize)
}

// fitText is a free text's text and size: unwrapped and measured when
// width is nil, else wrapped to *width, which it keeps.
func fitText(original string, ts textStyle, width *float64) (text string, w, h float64) {
	if width == nil {
		w, h = ts.measure(original)
		return original, w, h
	}
	text = ts.wrap(original, *width)
	_, h = ts.measure(text)
	return text, *width, h
}
