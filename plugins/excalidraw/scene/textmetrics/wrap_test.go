package textmetrics

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWrapKeepsFittingText(t *testing.T) {
	for _, f := range Families() {
		for _, text := range []string{"", "Hello", "Hello world", "two\nlines", "a\n\nb", "trailing   "} {
			if got := Wrap(text, f, 20, 1000); got != text {
				t.Errorf("%v: Wrap(%q) = %q", f, text, got)
			}
		}
	}
}

func TestWrapExactFit(t *testing.T) {
	for _, f := range Families() {
		w := MeasureLine("Hello world", f, 20)
		if got := Wrap("Hello world", f, 20, w); got != "Hello world" {
			t.Errorf("%v: exact fit wrapped: %q", f, got)
		}
		if got := Wrap("Hello world", f, 20, math.Nextafter(w, 0)); got != "Hello\nworld" {
			t.Errorf("%v: just too narrow: %q", f, got)
		}
		// The wider word exactly fits: the space is dropped at the break.
		hw := math.Max(MeasureLine("Hello", f, 20), MeasureLine("world", f, 20))
		if got := Wrap("Hello world", f, 20, hw); got != "Hello\nworld" {
			t.Errorf("%v: first word exact fit: %q", f, got)
		}
	}
}

func TestWrapLongWordsByCharacters(t *testing.T) {
	word := "Supercalifragilisticexpialidocious"
	for _, f := range Families() {
		max := 5 * 20.0 // 5 em
		got := Wrap(word, f, 20, max)
		lines := strings.Split(got, "\n")
		if len(lines) < 2 || strings.Join(lines, "") != word {
			t.Fatalf("%v: %q", f, got)
		}
		for i, l := range lines {
			if w := sumChars(l, f, 20); w > max {
				t.Errorf("%v: line %q is %v wide", f, l, w)
			}
			// Greedy: the next line's first character would not have fit.
			if i+1 < len(lines) {
				next, _ := utf8.DecodeRuneInString(lines[i+1])
				if sumChars(l+string(next), f, 20) <= max {
					t.Errorf("%v: %q could take %q", f, l, next)
				}
			}
		}
		// Text after a broken word continues on its last line when it fits.
		got = Wrap(word+" ok", f, 20, max)
		if !strings.HasSuffix(got, " ok") && !strings.HasSuffix(got, "\nok") {
			t.Errorf("%v: %q", f, got)
		}
	}
	if got := Wrap("abc", Excalifont, 20, 0); got != "a\nb\nc" {
		t.Errorf("zero width: %q", got)
	}
}

func TestWrapKeepsExistingNewlines(t *testing.T) {
	text := "first line of text\n\nsecond line of text"
	got := Wrap(text, Excalifont, 20, 100)
	parts := strings.Split(got, "\n\n")
	if len(parts) != 2 {
		t.Fatalf("blank line lost: %q", got)
	}
	if strings.ReplaceAll(parts[0], "\n", " ") != "first line of text" ||
		strings.ReplaceAll(parts[1], "\n", " ") != "second line of text" {
		t.Errorf("%q", got)
	}
	// CRLF and tabs are normalized like Excalidraw stores text.
	if got := Wrap("a\r\nb\tc", Excalifont, 20, 1000); got != "a\nb        c" {
		t.Errorf("normalization: %q", got)
	}
}

func TestWrapWhitespace(t *testing.T) {
	f := Excalifont
	w := MeasureLine("hello", f, 20)
	// Spaces at a break are dropped from the line end, never start a line.
	got := Wrap("hello     hello", f, 20, w+1)
	if got != "hello\nhello" {
		t.Errorf("%q", got)
	}
	// Trailing spaces of the last line are kept only as far as they fit.
	space := MeasureLine(" ", f, 20)
	got = Wrap("hello hello   ", f, 20, w+2*space+0.01)
	if got != "hello\nhello  " {
		t.Errorf("%q", got)
	}
	// Hyphens break after themselves.
	got = Wrap("state-of-the-art", f, 20, MeasureLine("state-of-", f, 20))
	if got != "state-of-\nthe-art" {
		t.Errorf("%q", got)
	}
}

func TestWrapCJK(t *testing.T) {
	text := "这是一个中文句子，用于测试换行。"
	for _, f := range []FontFamily{Excalifont, Virgil, Nunito} {
		got := Wrap(text, f, 20, 100) // 5 em: five ideographs
		lines := strings.Split(got, "\n")
		if strings.Join(lines, "") != text || len(lines) < 3 {
			t.Fatalf("%v: %q", f, got)
		}
		for _, l := range lines {
			if strings.HasPrefix(l, "，") || strings.HasPrefix(l, "。") {
				t.Errorf("%v: line starts with closing punctuation: %q", f, got)
			}
			if MeasureLine(l, f, 20) > 100+1e-9 {
				t.Errorf("%v: line %q too wide", f, l)
			}
		}
	}
	// Opening brackets stay with what follows, closing with what precedes.
	got := Wrap("日本語の文章「かぎ括弧」も、句読点も。", Excalifont, 20, 60)
	for _, l := range strings.Split(got, "\n") {
		if strings.HasSuffix(l, "「") || strings.HasPrefix(l, "」") || strings.HasPrefix(l, "、") {
			t.Errorf("bad break in %q", got)
		}
	}
}

func TestWrapEmoji(t *testing.T) {
	// An emoji sequence is one token and is never split.
	got := Wrap("family 👨‍👩‍👧 time", Excalifont, 20, 60)
	if !strings.Contains(got, "👨‍👩‍👧") {
		t.Errorf("%q", got)
	}
	// An emoji splits a word into tokens, and an emoji sequence wider than
	// the line is not broken into its code points.
	got = Wrap("ab😀cd", Excalifont, 20, 60)
	if got != "ab😀\ncd" {
		t.Errorf("%q", got)
	}
	if got := Wrap("👨‍👩‍👧", Excalifont, 20, 5); got != "👨‍👩‍👧" {
		t.Errorf("%q", got)
	}
	if got := Wrap("x 👨‍👩‍👧", Excalifont, 20, 5); got != "x\n👨‍👩‍👧" {
		t.Errorf("%q", got)
	}
}

func TestWrapInvalidWidths(t *testing.T) {
	text := "some text that would wrap"
	for _, w := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1} {
		if got := Wrap(text, Excalifont, 20, w); got != text {
			t.Errorf("Wrap(%v) = %q", w, got)
		}
	}
}

// Properties over the sample corpus: wrapping loses no visible character,
// keeps lines within the width (up to kerning that the wrapper, like
// Excalidraw's, does not see when adding single characters), and is stable.
func TestWrapProperties(t *testing.T) {
	strip := func(s string) string {
		return strings.Map(func(r rune) rune {
			if isSpace(r) {
				return -1
			}
			return r
		}, s)
	}
	for _, s := range Samples() {
		for _, em := range []float64{3, 6, 12} {
			max := em * s.FontSize
			got := Wrap(s.Text, s.Family, s.FontSize, max)
			if strip(got) != strip(tokenizeNFC(s.Text)) {
				t.Errorf("%v %s: characters changed: %q", s.Family, s.Name, got)
			}
			for _, l := range strings.Split(got, "\n") {
				if utf8.RuneCountInString(l) <= 1 || containsEmoji(l) {
					continue
				}
				if w := MeasureLine(l, s.Family, s.FontSize); w > max+0.05*s.FontSize {
					t.Errorf("%v %s: line %q is %v > %v", s.Family, s.Name, l, w, max)
				}
			}
		}
	}
}

// tokenizeNFC is the text as the wrapper sees it (NFC per line).
func tokenizeNFC(text string) string {
	var lines []string
	for _, l := range strings.Split(NormalizeText(text), "\n") {
		lines = append(lines, strings.Join(tokenize(l), ""))
	}
	return strings.Join(lines, "\n")
}
