package build

import (
	"strings"
	"testing"
	"unicode"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// A box of LabelBox's size holds its label as built: the container does
// not grow, and every line break of the wrapped label is one the text
// had or falls between words (never inside one), for each shape, font
// and kind of label.
func TestLabelBoxFitsWithoutBreakingWords(t *testing.T) {
	labels := []string{
		"API",
		"Authentication service",
		"PostgreSQL",
		"An order service that takes orders from the web shop and the mobile app",
		"Supercalifragilisticexpialidocious gateway",
		"Line one\nLine two is longer than the first",
		"订单服务",
		"Kafka · events → consumers",
	}
	for _, typ := range []string{"rectangle", "ellipse", "diamond"} {
		for _, font := range []int{5, 6, 8} {
			for _, label := range labels {
				w, h := LabelBox(typ, label, font, 20, 200, 120, 60)
				ts := textStyle{fontSize: 20, fontFamily: font, textAlign: "center", verticalAlign: "middle"}
				got := layoutShapeLabel(typ, geom.Shape{W: w, H: h}, textmetrics.NormalizeText(label), ts)
				if got.container.W != w || got.container.H != h {
					t.Errorf("%s font %d %q: %.1f×%.1f grew to %.1f×%.1f", typ, font, label, w, h, got.container.W, got.container.H)
				}
				if bad := midWordBreak(label, got.text); bad != "" {
					t.Errorf("%s font %d %q: broken inside a word at %q:\n%s", typ, font, label, bad, got.text)
				}
			}
		}
	}
}

// A short label gets the minimum box; a longer one wraps to at most the
// width asked for, and one long word widens the box past it.
func TestLabelBoxSizes(t *testing.T) {
	if w, h := LabelBox("rectangle", "API", 5, 20, 200, 120, 60); w != 120 || h != 60 {
		t.Errorf("short label: %.1f×%.1f, want the minimum 120×60", w, h)
	}
	long := "An order service that takes orders from the web shop and the mobile app"
	w, h := LabelBox("rectangle", long, 5, 20, 200, 120, 60)
	if w > 200+2*boundTextPadding || h <= 60 {
		t.Errorf("long label: %.1f×%.1f, want at most %d wide and taller than one line", w, h, 200+2*boundTextPadding)
	}
	word := strings.Repeat("x", 40)
	ww, _ := (textStyle{fontSize: 20, fontFamily: 5}).measure(word)
	if w, _ := LabelBox("rectangle", word, 5, 20, 200, 120, 60); w < ww {
		t.Errorf("a %.1f px word in a %.1f px box", ww, w)
	}
}

// midWordBreak is the text around the first line break of wrapped that
// the original did not have and that falls between two letters or
// digits of a spaced script ("" if none). Breaks between CJK characters
// are Excalidraw's to make.
func midWordBreak(original, wrapped string) string {
	orig := []rune(textmetrics.NormalizeText(original))
	i := 0
	for _, r := range wrapped {
		if i < len(orig) && r == orig[i] {
			i++
			continue
		}
		if r != '\n' {
			continue
		}
		// A break Wrap added: in place of spaces, or between runes.
		if i < len(orig) && orig[i] == ' ' {
			for i < len(orig) && orig[i] == ' ' {
				i++
			}
			continue
		}
		if i == 0 || i >= len(orig) {
			continue
		}
		prev, next := orig[i-1], orig[i]
		if wordRune(prev) && wordRune(next) {
			return string(orig[max(0, i-5):min(len(orig), i+5)])
		}
	}
	return ""
}

func wordRune(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !unicode.Is(unicode.Han, r)
}
