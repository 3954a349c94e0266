package textmetrics

import (
	"github.com/dshgo/dsh/internal/jsmath"
	"math"
	"strconv"
	"strings"
)

// FontFamily is an Excalidraw fontFamily id, as stored in text elements.
type FontFamily int

// The font families of Excalidraw 0.18.1 (FONT_FAMILY). 4 is unused: it was
// Assistant, or a custom font in some hosts.
const (
	Virgil         FontFamily = 1
	Helvetica      FontFamily = 2
	Cascadia       FontFamily = 3
	Excalifont     FontFamily = 5
	Nunito         FontFamily = 6
	LilitaOne      FontFamily = 7
	ComicShanns    FontFamily = 8
	LiberationSans FontFamily = 9
)

// DefaultFamily is the family of new text elements (DEFAULT_FONT_FAMILY).
const DefaultFamily = Excalifont

// DefaultFontSize is the font size of new text elements (DEFAULT_FONT_SIZE).
const DefaultFontSize = defaultFontSize

// BoundTextPadding is the padding between a container and its bound text on
// each side (BOUND_TEXT_PADDING).
const BoundTextPadding = boundTextPadding

// SourceVersion is the @excalidraw/excalidraw version the tables come from.
const SourceVersion = sourceVersion

// familyByID indexes familyTables; built in init.
var familyByID map[FontFamily]*familyTable

// String returns the family's name as Excalidraw spells it ("Lilita One").
func (f FontFamily) String() string {
	if t, ok := familyByID[f]; ok {
		return t.name
	}
	return "FontFamily(" + strconv.Itoa(int(f)) + ")"
}

// Known reports whether f is a font family of Excalidraw 0.18.1.
func Known(f FontFamily) bool {
	_, ok := familyByID[f]
	return ok
}

// Families returns every known family, by ascending id.
func Families() []FontFamily {
	out := make([]FontFamily, 0, len(familyTables))
	for i := range familyTables {
		out = append(out, familyTables[i].id)
	}
	return out
}

// family returns f's table, or DefaultFamily's for an unknown id.
func family(f FontFamily) *familyTable {
	if t, ok := familyByID[f]; ok {
		return t
	}
	return familyByID[DefaultFamily]
}

// LineHeight returns the unitless line height Excalidraw 0.18.1 gives new text
// elements of family f (FONT_METADATA[f].metrics.lineHeight): 1.25 for
// Virgil, Excalifont and Comic Shanns, 1.35 for Nunito, 1.2 for Cascadia,
// 1.15 for Helvetica, Lilita One and Liberation Sans. Unknown families get
// Excalifont's, as in Excalidraw.
func LineHeight(f FontFamily) float64 {
	return family(f).lineHeight
}

// CSSFontFamily returns the font-family list Excalidraw uses for f in the
// canvas font string, e.g. "Excalifont, Xiaolai, Segoe UI Emoji".
func CSSFontFamily(f FontFamily) string {
	if t, ok := familyByID[f]; ok {
		return t.cssFamily
	}
	return "Segoe UI Emoji" // what getFontFamilyString returns for unknown ids
}

// FontString returns the canvas font string Excalidraw measures with
// (getFontString), e.g. "20px Excalifont, Xiaolai, Segoe UI Emoji".
func FontString(f FontFamily, fontSize float64) string {
	return strconv.FormatFloat(fontSize, 'f', -1, 64) + "px " + CSSFontFamily(f)
}

// FaceSource is one font file behind a family: its path under the package's
// dist/prod/fonts, its SHA-256, and the @font-face descriptors Excalidraw
// registers it with (an empty UnicodeRange means the whole file).
type FaceSource struct {
	File         string
	SHA256       string
	UnicodeRange string
	Weight       string
}

// Sources returns the font files f is measured with, in fallback order (for
// Excalifont the Xiaolai files follow Excalifont's). For Helvetica these are
// the Liberation Sans stand-in's files. A browser test can register them with
// the FontFace API to reproduce the measurements.
func Sources(f FontFamily) []FaceSource {
	var out []FaceSource
	for _, ft := range family(f).faces {
		out = append(out, ft.sources...)
	}
	return out
}

// Size is the size of a text element in px.
type Size struct {
	Width, Height float64
}

// Measure returns the size Excalidraw 0.18.1 gives a text element with this
// text (measureText): the text is normalized as Excalidraw stores it (CRLF and
// CR become LF, a tab becomes 8 spaces), the width is the widest line's
// MeasureLine (an empty line measures as a single space) and the height is
// fontSize × LineHeight(f) × number of lines.
func Measure(text string, f FontFamily, fontSize float64) Size {
	return MeasureLineHeight(text, f, fontSize, 0)
}

// MeasureLineHeight is Measure for a text element with its own unitless
// lineHeight, which sets the height (fontSize × lineHeight × lines) as it
// does in Excalidraw: an existing element keeps the line height it has,
// whatever its family's default. A lineHeight that is not a positive
// finite number means the family's (LineHeightOr).
func MeasureLineHeight(text string, f FontFamily, fontSize, lineHeight float64) Size {
	fam := family(f)
	lh := LineHeightOr(lineHeight, f)
	lines := strings.Split(NormalizeText(text), "\n")
	width := 0.0
	for _, line := range lines {
		if line == "" {
			line = " "
		}
		width = math.Max(width, measureLine(line, fam, fontSize, false))
	}
	return Size{Width: width, Height: fontSize * lh * float64(len(lines))}
}

// LineHeightOr is lineHeight when it is a usable line height (a positive
// finite number), else the default of family f (LineHeight): an element's
// own value wins, the family's stands in only when it has none.
func LineHeightOr(lineHeight float64, f FontFamily) float64 {
	if lineHeight > 0 && !math.IsInf(lineHeight, 0) {
		return lineHeight
	}
	return LineHeight(f)
}

// MeasureLine returns the advance width in px of one line of text, as canvas
// measureText reports it with Excalidraw's font string: the sum of the glyph
// advances scaled by fontSize/unitsPerEm, plus pair adjustments (kerning) of
// adjacent characters from the same font file. Characters the family lacks
// get the declared fallback width (see the package documentation and
// FallbackWidth). Newlines are measured as spaces, as canvas does; split
// multi-line text first (Measure does).
func MeasureLine(s string, f FontFamily, fontSize float64) float64 {
	return measureLine(s, family(f), fontSize, false)
}

// Options adjusts MeasureLineWith.
type Options struct {
	// RoundGlyphAdvances rounds each glyph advance to whole pixels before
	// summing, as Chromium does where subpixel positioning is off (typically
	// Linux at device scale factor 1). Kerning stays fractional.
	RoundGlyphAdvances bool
}

// MeasureLineWith is MeasureLine with options.
func MeasureLineWith(s string, f FontFamily, fontSize float64, o Options) float64 {
	return measureLine(s, family(f), fontSize, o.RoundGlyphAdvances)
}

// Wrap wraps text to maxWidth px as Excalidraw 0.18.1 wraps the text of a
// bound text element (wrapText): existing line breaks are kept, lines that
// fit are unchanged, longer lines break at Excalidraw's break opportunities
// and words longer than a line break by characters. maxWidth is the width
// available to the text, i.e. the container's width minus padding (see
// BoundTextMaxWidth). The text is first normalized as Excalidraw stores it
// (line endings, tabs). A NaN, infinite or negative maxWidth returns the
// normalized text unwrapped.
func Wrap(text string, f FontFamily, fontSize float64, maxWidth float64) string {
	fam := family(f)
	return wrapText(NormalizeText(text), maxWidth, func(s string) float64 {
		return measureLine(s, fam, fontSize, false)
	})
}

// BoundTextMaxWidth returns the width Excalidraw gives the text bound to a
// container (getBoundTextMaxWidth): containerType is the container element's
// type ("rectangle", "ellipse", "diamond", "arrow", …) and width its width.
// Arrow labels take 70% of the arrow's width, but at least 11 × fontSize.
func BoundTextMaxWidth(containerType string, width, fontSize float64) float64 {
	switch containerType {
	case "arrow":
		return math.Max(arrowLabelWidthFraction*width, fontSize*arrowLabelFontSizeToMinWidthRatio)
	case "ellipse":
		return jsmath.Round(width/2*math.Sqrt2) - boundTextPadding*2
	case "diamond":
		return jsmath.Round(width/2) - boundTextPadding*2
	default:
		return width - boundTextPadding*2
	}
}

// NormalizeText is text as Excalidraw stores it (its normalizeText): CRLF
// and CR become LF, a tab becomes 8 spaces (tabs neither render nor
// measure reliably). Measure and Wrap normalize their text with it, and
// whoever writes a text element's text stores it so.
func NormalizeText(s string) string {
	if strings.ContainsAny(s, "\r\t") {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		s = strings.ReplaceAll(s, "\r", "\n")
		s = strings.ReplaceAll(s, "\t", "        ")
	}
	return s
}

func init() {
	familyByID = make(map[FontFamily]*familyTable, len(familyTables))
	for i := range familyTables {
		familyByID[familyTables[i].id] = &familyTables[i]
	}
	for i := range familyTables {
		for _, ft := range familyTables[i].faces {
			ft.prepare()
		}
	}
	initClasses()
}

// Covered reports whether every character of text is drawn with one of
// family f's own fonts (or is invisible): its width is then what any
// browser with Excalidraw's fonts measures. When it is false, some
// characters got a declared width — the fallback fonts, an emoji, a CJK
// em — which a browser on another system may draw differently.
func Covered(text string, f FontFamily) bool {
	fam := family(f)
	for _, r := range text {
		r = canvasSpace(r)
		if zeroWidth(r) {
			continue
		}
		if t, _ := fam.resolve(r); t == nil {
			return false
		}
	}
	return true
}
