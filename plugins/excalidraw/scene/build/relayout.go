package build

import (
	"strings"

	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// This file lays out the text of elements that already exist, with the
// rules the builder lays out new ones by, so that an edit (the service's
// update) and a new element agree on every pixel.

// TextLayout is a text element's text and box after a layout.
type TextLayout struct {
	// Text is the text as displayed: the original text wrapped where the
	// element wraps (to its container, or to its own fixed width).
	Text                string
	X, Y, Width, Height float64
	// Angle is the text's rotation: its container's, for a label.
	Angle float64
	// ContainerWidth and ContainerHeight are the container's size, grown
	// when the text needs more room than it has (box shapes only; an
	// arrow keeps its size). Zero for a free text.
	ContainerWidth, ContainerHeight float64
}

// LayoutLabel lays out the bound text t of container c as the builder lays
// out a new label: for a rectangle, ellipse or diamond, wrapped to the
// container's inner width, the container grown if the text does not fit,
// placed by textAlign and verticalAlign (layoutShapeLabel); for an arrow,
// wrapped to the arrow's label width and centred on its middle point
// (arrowLabel). The text laid out is t's originalText (its text when it
// has none); the elements are not modified. It is the editor's layout,
// which breaks a word wider than the label may be by characters: what
// lint predicts the editor shows. Edits fit labels with FitLabel.
func LayoutLabel(c, t *ojson.Object) TextLayout { return layoutLabel(c, t, false) }

// FitLabel is LayoutLabel as the builder fits a new label, so that no word
// breaks: a box shape is first widened to the label's widest word
// (wordsFit; ContainerWidth says how wide), an arrow's label wraps only
// between words. What an edit (the engine's relayout) lays labels out
// with.
func FitLabel(c, t *ojson.Object) TextLayout { return layoutLabel(c, t, true) }

func layoutLabel(c, t *ojson.Object, whole bool) TextLayout {
	ts := textStyleOf(t)
	original := OriginalText(t)
	typ, _ := c.String("type")
	if model.IsLinear(typ) {
		pts := globalPointsOf(c)
		if len(pts) == 0 {
			pts = []geom.Vec{geom.V(model.NumberOf(c, "x"), model.NumberOf(c, "y"))}
		}
		text, b := arrowLabel(pts, model.NumberOf(c, "width"), original, ts, whole)
		return textLayout(text, b, geom.Shape{W: model.NumberOf(c, "width"), H: model.NumberOf(c, "height")})
	}
	cb := geom.Shape{X: model.NumberOf(c, "x"), Y: model.NumberOf(c, "y"), W: model.NumberOf(c, "width"), H: model.NumberOf(c, "height"), Angle: model.NumberOf(c, "angle")}
	if whole {
		cb.W = wordsFit(typ, cb.W, original, ts)
	}
	lay := layoutShapeLabel(typ, cb, original, ts)
	return textLayout(lay.text, lay.box, lay.container)
}

// textLayout is a TextLayout of a text box and its container's (zero for
// none), with numbers as JSON writes them.
func textLayout(text string, b, container geom.Shape) TextLayout {
	return TextLayout{Text: text, X: jsNum(b.X), Y: jsNum(b.Y), Width: jsNum(b.W), Height: jsNum(b.H), Angle: jsNum(b.Angle),
		ContainerWidth: jsNum(container.W), ContainerHeight: jsNum(container.H)}
}

// FitText sizes a free text element to its text as the builder sizes a
// new one (fitText): an auto-resizing text (autoResize true or absent)
// takes its text unwrapped, as wide as its widest line; a fixed-width
// one (autoResize false: a width a person chose) keeps its width and
// wraps its originalText to it, as the editor does. The height is the
// lines times the font's line height. X, Y and Angle are t's; t is not
// modified.
func FitText(t *ojson.Object) TextLayout { return fitTextElement(t, false) }

// FitTextWords is FitText as the builder fits a new text: a fixed width
// narrower than the text's widest word widens to it, so that no word
// breaks. What an edit (the engine's remeasure) sizes free text with.
func FitTextWords(t *ojson.Object) TextLayout { return fitTextElement(t, true) }

func fitTextElement(t *ojson.Object, whole bool) TextLayout {
	autoResize := true
	if v, ok := t.Bool("autoResize"); ok {
		autoResize = v
	}
	ts := textStyleOf(t)
	var fixed *float64
	if !autoResize {
		w := model.NumberOf(t, "width")
		if whole {
			w = max(w, ts.widestWord(OriginalText(t)))
		}
		fixed = &w
	}
	text, w, h := fitText(OriginalText(t), ts, fixed)
	return textLayout(text, geom.Shape{X: model.NumberOf(t, "x"), Y: model.NumberOf(t, "y"), W: w, H: h, Angle: model.NumberOf(t, "angle")}, geom.Shape{})
}

// textStyleOf reads an existing text element's typography. A family the
// fonts do not know is measured as the default one and a missing or
// non-positive size as the default size, as the editor falls back. The
// element's own lineHeight sets its line spacing (see LineHeightOf).
func textStyleOf(t *ojson.Object) textStyle {
	fam := textmetrics.FontFamily(model.NumberOf(t, "fontFamily"))
	if !textmetrics.Known(fam) {
		fam = textmetrics.DefaultFamily
	}
	fs := model.NumberOf(t, "fontSize")
	if fs <= 0 {
		fs = defaultFontSize
	}
	align, _ := t.String("textAlign")
	valign, _ := t.String("verticalAlign")
	return textStyle{fontSize: fs, fontFamily: int(fam), textAlign: align, verticalAlign: valign, lh: LineHeightOf(t)}
}

// LineHeightOf is the unitless line height an existing text element is
// measured with: its lineHeight when that is a positive finite number
// (Excalidraw keeps it whatever the family's default is: older files,
// another editor's), else its family's (textmetrics.LineHeightOr). Every
// layout of an existing text (relayout, lint, measure) goes through it.
func LineHeightOf(t *ojson.Object) float64 {
	fam := textmetrics.FontFamily(model.NumberOf(t, "fontFamily"))
	if !textmetrics.Known(fam) {
		fam = textmetrics.DefaultFamily
	}
	return textmetrics.LineHeightOr(model.NumberOf(t, "lineHeight"), fam)
}

// OriginalText is the unwrapped text of a text element: originalText,
// or text when it has none. It is what layouts wrap.
func OriginalText(t *ojson.Object) string {
	if s, _ := t.String("originalText"); s != "" {
		return s
	}
	s, _ := t.String("text")
	return s
}

// globalPointsOf reads a linear element's points in scene coordinates
// (nil when they are malformed).
func globalPointsOf(el *ojson.Object) []geom.Vec {
	list, _ := el.Array("points")
	origin := geom.V(model.NumberOf(el, "x"), model.NumberOf(el, "y"))
	out := make([]geom.Vec, 0, len(list))
	for _, item := range list {
		pair, ok := item.([]any)
		if !ok || len(pair) != 2 {
			return nil
		}
		x, okx := ojson.AsFloat(pair[0])
		y, oky := ojson.AsFloat(pair[1])
		if !okx || !oky {
			return nil
		}
		out = append(out, origin.Add(geom.V(x, y)))
	}
	return out
}

// MeasureMark is the customData key dsh sets on a text element whose size
// it computed with a declared width for some character (see
// textmetrics.Covered and the fallback rule): the first browser that opens
// the scene measures such text with its own fonts, corrects it once and
// removes the mark. Its value is MeasureFallback.
const (
	MeasureMark     = "dshMeasure"
	MeasureFallback = "fallback"
)

// MarkMeasure sets or clears t's MeasureMark for its current text and
// font: set when the text is not covered by the family's fonts, removed
// when it is (customData itself goes when nothing else is in it).
func MarkMeasure(t *ojson.Object) {
	ts := textStyleOf(t)
	covered := textmetrics.Covered(OriginalText(t), textmetrics.FontFamily(ts.fontFamily))
	cd, _ := t.Object("customData")
	switch {
	case !covered:
		if cd == nil {
			cd = ojson.New()
			t.Set("customData", cd)
		}
		cd.Set(MeasureMark, MeasureFallback)
	case cd != nil && cd.Has(MeasureMark):
		cd.Delete(MeasureMark)
		if cd.Len() == 0 {
			t.Delete("customData")
		}
	}
}

// TextFit is what measure_text answers: a text's size as Excalidraw
// measures it, and the size of a container that holds it as a label.
type TextFit struct {
	// Text is the text as drawn (wrapped to MaxWidth when one was given).
	Text       string  `json:"text"`
	Lines      int     `json:"lines"`
	Width      float64 `json:"width"`
	Height     float64 `json:"height"`
	LineHeight float64 `json:"lineHeight"`
	Font       string  `json:"font"`
	// Container is the smallest container of the asked type (at least
	// the given width) whose label this text fits without growing it;
	// nil when no container type was asked.
	Container *ContainerFit `json:"container,omitempty"`
}

// ContainerFit is a container sized for a label, and the label's text as
// wrapped inside it.
type ContainerFit struct {
	Type   string  `json:"type"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	Text   string  `json:"text"`
}

// MeasureText measures text in a font family (an Excalidraw id; unknown
// ones measure as the default) and size, wrapped to maxWidth when it is
// positive, with the builder's own rules; with a container type
// (rectangle, ellipse, diamond) it also sizes a container for it as a
// label — containerWidth fixes the container's width (0: as narrow as the
// text allows), widened only as far as its widest word needs. lineHeight
// is an existing element's own (unitless); 0 measures as a new text, with
// the font's.
func MeasureText(text string, family int, fontSize, maxWidth float64, container string, containerWidth, lineHeight float64) TextFit {
	fam := textmetrics.FontFamily(family)
	if !textmetrics.Known(fam) {
		fam = textmetrics.DefaultFamily
	}
	if fontSize <= 0 {
		fontSize = defaultFontSize
	}
	ts := textStyle{fontSize: fontSize, fontFamily: int(fam), textAlign: "center", verticalAlign: "middle", lh: lineHeight}
	original := textmetrics.NormalizeText(text)
	var w *float64
	if maxWidth > 0 {
		w = &maxWidth
	}
	shown, tw, th := fitText(original, ts, w)
	if w == nil {
		tw, th = ts.measure(shown)
	}
	fit := TextFit{Text: shown, Lines: strings.Count(shown, "\n") + 1, Width: jsNum(tw), Height: jsNum(th),
		LineHeight: ts.lineHeight(), Font: textmetrics.FontString(fam, fontSize)}
	switch container {
	case "rectangle", "ellipse", "diamond":
		cw := containerWidth
		if cw <= 0 {
			_, ow, _ := fitText(original, ts, nil)
			cw = containerDimensionForText(ow, container)
		}
		lay := layoutShapeLabel(container, geom.Shape{W: wordsFit(container, cw, original, ts), H: 0}, original, ts)
		fit.Container = &ContainerFit{Type: container, Width: jsNum(lay.container.W), Height: jsNum(lay.container.H), Text: lay.text}
	}
	return fit
}
