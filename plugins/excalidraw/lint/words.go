package lint

import (
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
	"golang.org/x/text/unicode/norm"
)

// midWordBreaks: a text whose stored lines split a word, which happens
// when the word is wider than the text may be (Excalidraw then breaks it
// by characters).
func (s *scene) midWordBreaks() {
	for _, e := range s.scopedTexts() {
		if e.typ != "text" || e.blank || e.orig == "" || e.txt == e.orig || !strings.Contains(e.txt, "\n") {
			continue
		}
		words := brokenWords(e.txt, e.orig)
		if len(words) == 0 {
			continue
		}
		fam, fs := fontOf(e)
		widest := 0.0
		quoted := make([]string, len(words))
		for i, w := range words {
			widest = math.Max(widest, textmetrics.MeasureLine(w, fam, fs))
			quoted[i] = fmt.Sprintf("%q", w)
		}
		broken := strings.Join(capList(quoted), ", ")
		if c := s.containerOf(e); c != nil {
			w := containerWidthFor(c.typ, widest, fs)
			var fix map[string]any
			if c.typ == "rectangle" || c.typ == "ellipse" || c.typ == "diamond" {
				// repair_scene widens it; its label is fitted again.
				fix = map[string]any{"action": "resize", "id": c.id, "width": w, "height": round2(c.h)}
			}
			s.report(CodeLabelBrokenMidWord, []string{e.id, c.id}, fix,
				"the label of %s breaks %s across lines; make %q at least %g px wide, or shorten the word or the font size",
				s.name(c), broken, c.id, w)
			continue
		}
		s.report(CodeLabelBrokenMidWord, []string{e.id}, nil,
			"%s breaks %s across lines; make it at least %g px wide, or shorten the word or the font size",
			s.name(e), broken, math.Ceil(widest))
	}
}

// containerWidthFor is the least width of a container of this type whose
// label may be w px wide (textmetrics.BoundTextMaxWidth, inverted).
func containerWidthFor(typ string, w, fontSize float64) float64 {
	fits := func(width float64) bool { return textmetrics.BoundTextMaxWidth(typ, width, fontSize) >= w }
	hi := math.Max(1, math.Ceil(w))
	for !fits(hi) && hi < 1e7 {
		hi *= 2
	}
	lo := 0.0
	for hi-lo > 0.5 {
		mid := (lo + hi) / 2
		if fits(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return math.Ceil(hi)
}

// brokenWords lists the words the line breaks of text split that
// original (the same text unwrapped) keeps whole: a line break in text
// that is not in original and falls between two letters or digits of
// one word. Breaks at original's spaces or line breaks, after a hyphen
// or beside CJK (which wraps between any two characters) are not. When
// text is not original wrapped (a stale text, another wrapper's
// changes), nothing is listed.
func brokenWords(text, original string) []string {
	t := norm.NFC.String(textmetrics.NormalizeText(text))
	o := norm.NFC.String(textmetrics.NormalizeText(original))
	var words []string
	i, j := 0, 0
	for i < len(t) {
		tr, tn := utf8.DecodeRuneInString(t[i:])
		if j >= len(o) {
			// What is left of text may only be the wrapper's whitespace.
			if !unicode.IsSpace(tr) {
				return nil
			}
			i += tn
			continue
		}
		or, on := utf8.DecodeRuneInString(o[j:])
		switch {
		case tr == or:
			i, j = i+tn, j+on
		case tr == '\n' && unicode.IsSpace(or):
			// A wrap at a space: the spaces are dropped.
			i += tn
			for j < len(o) {
				r, n := utf8.DecodeRuneInString(o[j:])
				if r == '\n' || !unicode.IsSpace(r) {
					break
				}
				j += n
			}
		case tr == '\n':
			// A break the original does not have.
			prev, _ := utf8.DecodeLastRuneInString(t[:i])
			if wordRune(prev) && wordRune(or) {
				w := wordAround(o, j)
				if len(words) == 0 || words[len(words)-1] != w {
					words = append(words, w)
				}
			}
			i += tn
		case unicode.IsSpace(or):
			j += on // spaces the wrapper trimmed at a line's end
		default:
			return nil
		}
	}
	return words
}

// wordRune: a letter, digit or combining mark of a script that separates
// its words with spaces.
func wordRune(r rune) bool {
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) {
		return false
	}
	return !unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
}

// wordAround is the word of s that the break before byte offset j
// splits: the letters, digits and marks on either side of it.
func wordAround(s string, j int) string {
	a := j
	for a > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:a])
		if !wordRune(r) {
			break
		}
		a -= n
	}
	b := j
	for b < len(s) {
		r, n := utf8.DecodeRuneInString(s[b:])
		if !wordRune(r) {
			break
		}
		b += n
	}
	return s[a:b]
}
