package textmetrics

import (
	"math"
	"strings"
	"sync"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestFamilyIdentity(t *testing.T) {
	cases := []struct {
		f    FontFamily
		id   int
		name string
		lh   float64
		css  string
	}{
		{Virgil, 1, "Virgil", 1.25, "Virgil, Segoe UI Emoji"},
		{Helvetica, 2, "Helvetica", 1.15, "Helvetica, Segoe UI Emoji"},
		{Cascadia, 3, "Cascadia", 1.2, "Cascadia, Segoe UI Emoji"},
		{Excalifont, 5, "Excalifont", 1.25, "Excalifont, Xiaolai, Segoe UI Emoji"},
		{Nunito, 6, "Nunito", 1.35, "Nunito, Segoe UI Emoji"},
		{LilitaOne, 7, "Lilita One", 1.15, "Lilita One, Segoe UI Emoji"},
		{ComicShanns, 8, "Comic Shanns", 1.25, "Comic Shanns, Segoe UI Emoji"},
		{LiberationSans, 9, "Liberation Sans", 1.15, "Liberation Sans, Segoe UI Emoji"},
	}
	if got := Families(); len(got) != len(cases) {
		t.Fatalf("Families() = %v", got)
	}
	for i, c := range cases {
		if int(c.f) != c.id || Families()[i] != c.f {
			t.Errorf("%v: id %d", c.f, int(c.f))
		}
		if !Known(c.f) || c.f.String() != c.name || LineHeight(c.f) != c.lh || CSSFontFamily(c.f) != c.css {
			t.Errorf("%d: Known=%v String=%q LineHeight=%v CSS=%q", c.id, Known(c.f), c.f, LineHeight(c.f), CSSFontFamily(c.f))
		}
	}
	if DefaultFamily != Excalifont || DefaultFontSize != 20 {
		t.Errorf("defaults: %v %v", DefaultFamily, DefaultFontSize)
	}
	for _, f := range []FontFamily{0, 4, 10, 100, 1000, -1} {
		if Known(f) {
			t.Errorf("Known(%d)", f)
		}
		if LineHeight(f) != 1.25 {
			t.Errorf("LineHeight(%d) = %v, want Excalifont's", f, LineHeight(f))
		}
		if MeasureLine("Hello", f, 20) != MeasureLine("Hello", DefaultFamily, 20) {
			t.Errorf("unknown %d not measured as the default family", f)
		}
	}
	if FontFamily(4).String() != "FontFamily(4)" || CSSFontFamily(4) != "Segoe UI Emoji" {
		t.Errorf("unknown family: %q %q", FontFamily(4), CSSFontFamily(4))
	}
	if got := FontString(Excalifont, 20); got != "20px Excalifont, Xiaolai, Segoe UI Emoji" {
		t.Errorf("FontString = %q", got)
	}
	if got := FontString(Nunito, 16.5); got != "16.5px Nunito, Segoe UI Emoji" {
		t.Errorf("FontString = %q", got)
	}
}

// Known advances straight from the fonts.
func TestKnownAdvances(t *testing.T) {
	cases := []struct {
		f    FontFamily
		s    string
		want float64 // font units
		upem float64
	}{
		{LiberationSans, "A", 1366, 2048}, // Arial's A
		{LiberationSans, " ", 569, 2048},
		{LiberationSans, "0", 1139, 2048},
		{Helvetica, "A", 1366, 2048},
		{Cascadia, "W", 1200, 2048}, // monospace
		{Cascadia, "i", 1200, 2048},
		{ComicShanns, "m", 550, 1000}, // monospace
	}
	for _, c := range cases {
		if got := MeasureLine(c.s, c.f, 20); !near(got, c.want*20/c.upem) {
			t.Errorf("%v %q = %v, want %v", c.f, c.s, got, c.want*20/c.upem)
		}
	}
}

func TestWidthsPositiveAndScaleWithSize(t *testing.T) {
	texts := []string{"a", "Hello, world!", "The quick brown fox jumps over the lazy dog", "中文", "👍"}
	for _, f := range Families() {
		for _, s := range texts {
			prev := 0.0
			for size := 1.0; size <= 120; size += 7 {
				w := MeasureLine(s, f, size)
				if w <= prev {
					t.Fatalf("%v %q: width %v at size %v not above %v", f, s, w, size, prev)
				}
				prev = w
				if w2 := MeasureLine(s, f, 2*size); math.Abs(w2-2*w) > 1e-9*w2 {
					t.Fatalf("%v %q: not linear in size: %v vs 2×%v", f, s, w2, w)
				}
			}
		}
		if MeasureLine("", f, 20) != 0 {
			t.Errorf("%v: empty line has width", f)
		}
		// Appending a visible character widens the line.
		if MeasureLine("abc", f, 20) <= MeasureLine("ab", f, 20) {
			t.Errorf("%v: abc not wider than ab", f)
		}
	}
}

func sumChars(s string, f FontFamily, size float64) float64 {
	w := 0.0
	for _, r := range s {
		w += MeasureLine(string(r), f, size)
	}
	return w
}

func TestKerning(t *testing.T) {
	// Families with pair adjustments apply them; the others are additive.
	withKern := map[FontFamily]string{
		Nunito:         "AV",
		LiberationSans: "AV",
		Helvetica:      "AV",
		LilitaOne:      "AV",
		Excalifont:     `",`,
	}
	for _, f := range Families() {
		ft := family(f).faces[0]
		pair, ok := withKern[f]
		if !ok {
			if len(ft.kern) != 0 {
				t.Errorf("%v: unexpected %d pairs", f, len(ft.kern))
			}
			if w, sum := MeasureLine("AVATAR Toyota", f, 20), sumChars("AVATAR Toyota", f, 20); !near(w, sum) {
				t.Errorf("%v: %v != sum of characters %v", f, w, sum)
			}
			continue
		}
		if len(ft.kern) == 0 {
			t.Fatalf("%v: no pairs", f)
		}
		r := []rune(pair)
		k := float64(ft.kerning(r[0], r[1]))
		if k >= 0 {
			t.Errorf("%v: %q adjustment %v, want negative", f, pair, k)
		}
		w, sum := MeasureLine(pair, f, 20), sumChars(pair, f, 20)
		if !near(w, sum+k*20/float64(ft.unitsPerEm)) {
			t.Errorf("%v: %q = %v, characters %v, adjustment %v", f, pair, w, sum, k)
		}
		// No kerning across a space (Chromium shapes words separately), nor
		// in the other direction of an asymmetric pair.
		spaced := string(r[0]) + " " + string(r[1])
		if w, sum := MeasureLine(spaced, f, 20), sumChars(spaced, f, 20); !near(w, sum) {
			t.Errorf("%v: %q = %v, want %v", f, spaced, w, sum)
		}
	}
	// Nunito's fi ligature is narrower than f + i.
	if MeasureLine("fi", Nunito, 20) >= sumChars("fi", Nunito, 20) {
		t.Errorf("Nunito fi ligature not applied")
	}
}

func TestMeasureMultiLine(t *testing.T) {
	for _, f := range Families() {
		for _, size := range []float64{12, 20, 36} {
			lh := LineHeight(f)
			cases := []struct {
				text  string
				lines int
				width float64
			}{
				{"", 1, MeasureLine(" ", f, size)},
				{"one", 1, MeasureLine("one", f, size)},
				{"one\nthree", 2, math.Max(MeasureLine("one", f, size), MeasureLine("three", f, size))},
				{"a\n\n\nb", 4, math.Max(math.Max(MeasureLine("a", f, size), MeasureLine("b", f, size)), MeasureLine(" ", f, size))},
				{"x\r\nlonger line\ry", 3, MeasureLine("longer line", f, size)},
				{"\tz", 1, MeasureLine("        z", f, size)},
				{"trailing\n", 2, MeasureLine("trailing", f, size)},
			}
			for _, c := range cases {
				got := Measure(c.text, f, size)
				want := Size{Width: c.width, Height: size * lh * float64(c.lines)}
				if !near(got.Width, want.Width) || got.Height != want.Height {
					t.Errorf("%v %v %q = %+v, want %+v", f, size, c.text, got, want)
				}
			}
		}
	}
	// Excalidraw's numbers for the default element: 20px Excalifont, one line.
	if h := Measure("Hello", Excalifont, 20).Height; h != 25 {
		t.Errorf("height = %v, want 25", h)
	}
	if h := Measure("a\nb\nc", Nunito, 20).Height; h != 20*1.35*3 {
		t.Errorf("Nunito 3 lines = %v", h)
	}
}

func TestFallback(t *testing.T) {
	const size = 20.0
	em := func(x float64) float64 { return x * size }
	lib := func(r rune) float64 { return float64(faceLiberationSans.advance(r)) * size / 2048 }
	// The declared fallback's own advance of r (fonts/, in order).
	declared := func(i int, r rune) float64 {
		f := loadFallback()[i]
		g, ok := f.face.NominalGlyph(r)
		if !ok {
			t.Fatalf("fallback %d lacks %U", i, r)
		}
		return float64(f.face.HorizontalAdvance(g)) * size / f.upem
	}
	cases := []struct {
		r    rune
		f    FontFamily
		want float64
		used bool
	}{
		{'中', Virgil, em(1), true},      // CJK: 1 em
		{'中', Nunito, em(1), true},      //
		{'中', Excalifont, em(1), false}, // Xiaolai ships it: 1000/1000
		{'あ', LiberationSans, em(1), true},
		{'Ａ', Cascadia, em(1), true}, // fullwidth form
		{'한', Excalifont, float64(faceXiaolai.advance('한')) * size / 1000, false},
		{'한', ComicShanns, em(1), true},
		{'😀', Excalifont, em(emojiEm), true},
		{'😀', LiberationSans, em(emojiEm), true},
		{'\u200d', Excalifont, 0, false}, // ZWJ: default-ignorable
		{'\u00ad', Nunito, 0, false},     // soft hyphen is hidden even if covered
		{'\ufe0f', Virgil, 0, false},
		{'\x01', Virgil, 0, false},
		{'\u0e01', Excalifont, lib('0'), true},     // Thai: neither the family nor a declared fallback
		{'λ', Nunito, declared(0, 'λ'), true},      // Greek: Liberation Serif (Times metrics)
		{'ب', Virgil, declared(1, 'ب'), true},      // Arabic: DejaVu Sans, isolated form
		{'Ֆ', ComicShanns, declared(1, 'Ֆ'), true}, // Armenian: DejaVu Sans
		{'\u0301', LilitaOne, 0, true},             // missing combining mark
		{'\t', Virgil, MeasureLine(" ", Virgil, size), false},
		{'a', Virgil, MeasureLine("a", Virgil, size), false},
	}
	for _, c := range cases {
		w, used := FallbackWidth(c.r, c.f, size)
		if !near(w, c.want) || used != c.used {
			t.Errorf("FallbackWidth(%U, %v) = %v, %v; want %v, %v", c.r, c.f, w, used, c.want, c.used)
		}
		if got := MeasureLine(string(c.r), c.f, size); !near(got, w) {
			t.Errorf("MeasureLine(%U, %v) = %v, FallbackWidth %v", c.r, c.f, got, w)
		}
	}
	if faceXiaolai.advance('한') >= 1000 {
		t.Errorf("Xiaolai's Hangul should be narrower than 1 em")
	}
}

func TestEmojiSequencesCountOnce(t *testing.T) {
	one := emojiEm * 20
	for _, s := range []string{"😀", "👍🏽", "👨‍👩‍👧", "🇩🇪", "❤️", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "©️", "1️⃣", "#️⃣", "↔️"} {
		for _, f := range []FontFamily{Excalifont, Nunito, LiberationSans} {
			if got := MeasureLine(s, f, 20); !near(got, one) {
				t.Errorf("%v %q = %v, want one emoji %v", f, s, got, one)
			}
		}
	}
	// A single pictographic character the font has uses the font's glyph.
	if w, used := FallbackWidth('©', LiberationSans, 20); used || !near(w, 1509*20/2048.0) {
		t.Errorf("© in Liberation Sans = %v, %v", w, used)
	}
	// Without VS16 a digit is text.
	if got, want := MeasureLine("1", Virgil, 20), sumChars("1", Virgil, 20); !near(got, want) || got >= one {
		t.Errorf("1 = %v", got)
	}
	if got, want := MeasureLine("a😀b", Virgil, 20), MeasureLine("a", Virgil, 20)+one+MeasureLine("b", Virgil, 20); !near(got, want) {
		t.Errorf("a😀b = %v, want %v", got, want)
	}
}

func TestRoundGlyphAdvances(t *testing.T) {
	for _, f := range Families() {
		s := "Hello, rounded world"
		w := MeasureLineWith(s, f, 17, Options{RoundGlyphAdvances: true})
		if len(family(f).faces[0].kern) == 0 && w != math.Trunc(w) {
			t.Errorf("%v: rounded width %v not integral", f, w)
		}
		if exact := MeasureLine(s, f, 17); math.Abs(w-exact) > float64(len(s))*0.5+1e-9 {
			t.Errorf("%v: rounded %v too far from %v", f, w, exact)
		}
		if MeasureLineWith(s, f, 17, Options{}) != MeasureLine(s, f, 17) {
			t.Errorf("%v: zero Options differ from MeasureLine", f)
		}
	}
}

func TestBoundTextMaxWidth(t *testing.T) {
	cases := []struct {
		typ         string
		width, size float64
		want        float64
	}{
		{"rectangle", 200, 20, 190},
		{"ellipse", 200, 20, 141 - 10},
		{"diamond", 201, 20, 101 - 10},
		{"arrow", 400, 20, 280},
		{"arrow", 100, 20, 220},
	}
	for _, c := range cases {
		if got := BoundTextMaxWidth(c.typ, c.width, c.size); got != c.want {
			t.Errorf("BoundTextMaxWidth(%q, %v, %v) = %v, want %v", c.typ, c.width, c.size, got, c.want)
		}
	}
	if BoundTextPadding != 5 {
		t.Errorf("BoundTextPadding = %v", BoundTextPadding)
	}
}

func TestSources(t *testing.T) {
	src := Sources(Excalifont)
	if len(src) != 7+209 {
		t.Fatalf("Excalifont sources: %d", len(src))
	}
	if !strings.HasPrefix(src[0].File, "Excalifont/") || !strings.HasPrefix(src[len(src)-1].File, "Xiaolai/") {
		t.Errorf("order: %s … %s", src[0].File, src[len(src)-1].File)
	}
	for _, s := range src {
		if s.UnicodeRange == "" || s.Weight != "400" {
			t.Errorf("%+v", s)
		}
	}
	if s := Sources(Helvetica); len(s) != 1 || s[0].File != "Liberation/LiberationSans-Regular.woff2" {
		t.Errorf("Helvetica sources: %+v", s)
	}
	for _, s := range Sources(Nunito) {
		if s.Weight != "500" {
			t.Errorf("Nunito face weight %q (Excalidraw registers the Medium instance as 500)", s.Weight)
		}
	}
}

func TestSamples(t *testing.T) {
	samples := Samples()
	seen := map[string]bool{}
	perFamily := map[FontFamily]int{}
	for _, s := range samples {
		key := s.Family.String() + "/" + s.Name
		if seen[key] {
			t.Errorf("duplicate sample %s", key)
		}
		seen[key] = true
		perFamily[s.Family]++
		if s.Text == "" || s.FontSize <= 0 || s.MaxWidth < 0 || !Known(s.Family) {
			t.Errorf("bad sample %+v", s)
		}
		if Measure(s.Text, s.Family, s.FontSize).Width <= 0 {
			t.Errorf("sample %s measures 0", key)
		}
	}
	for _, f := range Families() {
		if perFamily[f] < 20 {
			t.Errorf("%v: %d samples", f, perFamily[f])
		}
	}
}

func BenchmarkMeasure(b *testing.B) {
	line := "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore."
	if n := len([]rune(line)); n != 100 {
		b.Fatalf("line has %d characters", n)
	}
	for _, f := range []FontFamily{Excalifont, Nunito} {
		b.Run(f.String(), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_ = Measure(line, f, 20)
			}
		})
	}
}

// NormalizeText stores text as Excalidraw does: line endings as LF, a tab
// as 8 spaces, a CRLF as one LF.
func TestNormalizeText(t *testing.T) {
	cases := map[string]string{
		"a\r\nb":       "a\nb",
		"a\rb":         "a\nb",
		"a\tb":         "a        b",
		"plain":        "plain",
		"a\r\nb\rc\td": "a\nb\nc        d",
		"\r\r\n\n":     "\n\n\n",
	}
	for in, want := range cases {
		if got := NormalizeText(in); got != want {
			t.Errorf("NormalizeText(%q) = %q, want %q", in, got, want)
		}
	}
}

// A line in the declared fallback can be measured from several
// goroutines at once (lint measures a write's two versions side by
// side): the fallback faces' glyph lookups, which fill a cache, do not
// race (go test -race) and every goroutine measures the same width.
func TestFallbackMeasuredAtOnce(t *testing.T) {
	line := "あい中 مرحبا Ωμέγα שלום ⴰⵣⵓⵍ"
	widths := make([]float64, 4)
	var wg sync.WaitGroup
	for k := range widths {
		wg.Go(func() { widths[k] = MeasureLine(line, LiberationSans, 20) })
	}
	wg.Wait()
	for _, w := range widths {
		if w != widths[0] || !(w > 0) {
			t.Fatalf("widths %v", widths)
		}
	}
}
