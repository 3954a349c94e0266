package textmetrics

import (
	"bytes"
	"embed"
	"sync"
	"unicode"

	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
)

// The declared fallback: the fonts a browser draws a character with when
// no font of the element's family covers it. Excalidraw's font strings
// name no generic family ("20px Excalifont, Xiaolai, Segoe UI Emoji"), so
// Chromium falls through to its default standard font — Times New Roman,
// which Linux resolves to the metric-compatible Liberation Serif — and,
// for what that lacks (Arabic, Georgian, …), to the system's fallback for
// the script, DejaVu Sans on Debian. Both ship with dsh (fonts/, with
// their licences) so that agent-made text in Greek, Cyrillic, Hebrew,
// Armenian or Arabic is sized as Debian's Chromium draws it, shaped with
// HarfBuzz's rules (go-text/typesetting), Arabic joining and ligatures
// included. Other systems may draw these scripts with other fonts; the
// editor re-measures such text (see the package documentation).
//
//go:embed fonts/LiberationSerif-Regular.ttf fonts/DejaVuSans.ttf
var fallbackFonts embed.FS

// FallbackFonts names the declared fallback, in the order it is tried.
var FallbackFonts = []string{"Liberation Serif 2.1.5 (Times New Roman metrics)", "DejaVu Sans 2.37"}

type fallbackFace struct {
	face *font.Face
	upem float64
}

var (
	fallbackOnce  sync.Once
	fallbackFaces []fallbackFace

	// shaperMu guards the shaper, which keeps per-call buffers, and the
	// fallback faces, whose glyph lookups fill a cache.
	shaperMu sync.Mutex
	shaper   shaping.HarfbuzzShaper
)

func loadFallback() []fallbackFace {
	fallbackOnce.Do(func() {
		for _, name := range []string{"fonts/LiberationSerif-Regular.ttf", "fonts/DejaVuSans.ttf"} {
			b, err := fallbackFonts.ReadFile(name)
			if err != nil {
				panic("textmetrics: embedded fallback font missing: " + name)
			}
			f, err := font.ParseTTF(bytes.NewReader(b))
			if err != nil {
				panic("textmetrics: embedded fallback font " + name + ": " + err.Error())
			}
			fallbackFaces = append(fallbackFaces, fallbackFace{face: f, upem: float64(f.Upem())})
		}
	})
	return fallbackFaces
}

// fallbackFor is the index of the first declared fallback font that has
// r, or -1. Liberation Serif stands for the Times New Roman metrics of
// Debian's fonts-liberation 1.07, which Chromium uses there and which
// cover Latin, Greek and Cyrillic only; the 2.x file shipped here also has
// Hebrew and more, which Chromium draws with DejaVu Sans. So Liberation
// Serif answers only for those three scripts (and the script-neutral
// characters between them).
func fallbackFor(r rune) int {
	faces := loadFallback()
	shaperMu.Lock()
	defer shaperMu.Unlock()
	switch language.LookupScript(r) {
	case language.Latin, language.Greek, language.Cyrillic, language.Common, language.Inherited:
		if _, ok := faces[0].face.NominalGlyph(r); ok {
			return 0
		}
	}
	if _, ok := faces[1].face.NominalGlyph(r); ok {
		return 1
	}
	return -1
}

// fallbackRun measures a run of characters none of the family's fonts
// cover: each maximal piece drawn by one declared fallback font is shaped
// as the browser shapes it; characters no fallback font has get the
// declared width of fallbackEm. size is the font size in px; round rounds
// every glyph advance to whole pixels.
func fallbackRun(rs []rune, size float64, round bool) float64 {
	total := 0.0
	for i := 0; i < len(rs); {
		fi := fallbackFor(rs[i])
		j := i + 1
		for j < len(rs) && (fallbackFor(rs[j]) == fi || (fi >= 0 && unicode.In(rs[j], unicode.Mn, unicode.Me))) {
			j++
		}
		if fi < 0 {
			for _, r := range rs[i:j] {
				total += px(fallbackEm(r)*size, round)
			}
		} else {
			total += shapeWidth(rs[i:j], loadFallback()[fi], size, round)
		}
		i = j
	}
	return total
}

// shapeWidth is the advance of rs shaped with f at size px. The shaper
// runs at one unit per font unit (Size = unitsPerEm), so advances come
// out exact and are scaled afterwards, as Chromium's float positions are.
func shapeWidth(rs []rune, f fallbackFace, size float64, round bool) float64 {
	script, dir := ShapingScript(rs)
	shaperMu.Lock()
	out := shaper.Shape(shaping.Input{
		Text: rs, RunStart: 0, RunEnd: len(rs),
		Face: f.face, Size: fixed.I(int(f.upem)),
		Script: script, Direction: dir, Language: language.NewLanguage("und"),
	})
	shaperMu.Unlock()
	scale := size / f.upem
	total := 0.0
	for _, g := range out.Glyphs {
		total += px(float64(g.Advance)/64*scale, round)
	}
	return total
}

// FallbackFont is one declared fallback font file, for a renderer that
// draws what it measures.
type FallbackFont struct {
	Name string
	TTF  []byte
	// Covers reports whether the browser draws r with this font when the
	// family lacks it: Liberation Serif answers only for Latin, Greek and
	// Cyrillic (and script-neutral characters), DejaVu Sans for the rest.
	Covers func(r rune) bool
}

// FallbackFontFiles are the declared fallback fonts, in the order they are
// tried (see FallbackFonts).
func FallbackFontFiles() []FallbackFont {
	out := make([]FallbackFont, 0, 2)
	for i, name := range []string{"fonts/LiberationSerif-Regular.ttf", "fonts/DejaVuSans.ttf"} {
		b, err := fallbackFonts.ReadFile(name)
		if err != nil {
			panic("textmetrics: embedded fallback font missing: " + name)
		}
		covers := func(rune) bool { return true }
		if i == 0 {
			covers = func(r rune) bool {
				switch language.LookupScript(r) {
				case language.Latin, language.Greek, language.Cyrillic, language.Common, language.Inherited:
					return true
				}
				return false
			}
		}
		out = append(out, FallbackFont{Name: FallbackFonts[i], TTF: b, Covers: covers})
	}
	return out
}

// ShapingScript is the script and direction a run of characters is shaped
// with, as the browser itemizes it: the first character's script that is
// not Common or Inherited, right to left for the scripts written so.
func ShapingScript(rs []rune) (language.Script, di.Direction) {
	script := language.Common
	for _, r := range rs {
		if s := language.LookupScript(r); s != language.Common && s != language.Inherited {
			script = s
			break
		}
	}
	switch script {
	case language.Arabic, language.Hebrew, language.Syriac, language.Thaana, language.Nko:
		return script, di.DirectionRTL
	}
	return script, di.DirectionLTR
}
