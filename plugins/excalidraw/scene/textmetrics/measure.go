package textmetrics

import (
	"math"
	"sort"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// sourceFile is one font file the generated tables were read from.
type sourceFile struct {
	file   string
	size   int
	sha256 string
}

// advRun maps the code points lo..hi (inclusive) to advances in font units:
// all adv when off < 0, else advs[off+(r-lo)] of the owning faceTable.
type advRun struct {
	lo, hi rune
	adv    uint16
	off    int32
}

// kernPair is the adjustment, in font units, between l followed by r.
type kernPair struct {
	l, r rune
	v    int16
}

// faceTable is one family's shipped font files merged into a single code
// point → advance map (see the generator).
type faceTable struct {
	name                         string
	unitsPerEm                   int
	ascender, descender, lineGap int
	sources                      []FaceSource
	runs                         []advRun
	advs                         []uint16
	kern                         []kernPair
	prepared                     bool
	latin                        [256]int32 // advance of r < 256, -1 if absent
	kernIndex                    [257]int32 // kern[kernIndex[l]:kernIndex[l+1]] start with l, for l < 256
	unitsPerEmF                  float64
}

// familyTable is one FONT_FAMILY entry.
type familyTable struct {
	id                                          FontFamily
	name, cssFamily                             string
	lineHeight                                  float64
	metaUnitsPerEm, metaAscender, metaDescender int
	deprecated                                  bool
	standIn                                     string       // file-less family measured with this family's files
	faces                                       []*faceTable // the family's files, then its shipped fallbacks
}

// emojiEm is the advance of an emoji in em: Noto Color Emoji's 2550 units
// per 2048 em (every colour glyph has that advance).
const emojiEm = 2550.0 / 2048.0

func (t *faceTable) prepare() {
	if t.prepared {
		return
	}
	t.prepared = true
	t.unitsPerEmF = float64(t.unitsPerEm)
	for r := rune(0); r < 256; r++ {
		t.latin[r] = t.lookup(r)
	}
	sort.Slice(t.kern, func(i, j int) bool {
		if t.kern[i].l != t.kern[j].l {
			return t.kern[i].l < t.kern[j].l
		}
		return t.kern[i].r < t.kern[j].r
	})
	i := 0
	for l := 0; l <= 256; l++ {
		for i < len(t.kern) && int(t.kern[i].l) < l {
			i++
		}
		t.kernIndex[l] = int32(i)
	}
}

// lookup returns r's advance in font units, -1 if the table lacks r.
func (t *faceTable) lookup(r rune) int32 {
	i := sort.Search(len(t.runs), func(i int) bool { return t.runs[i].hi >= r })
	if i == len(t.runs) || t.runs[i].lo > r {
		return -1
	}
	run := t.runs[i]
	if run.off < 0 {
		return int32(run.adv)
	}
	return int32(t.advs[int(run.off)+int(r-run.lo)])
}

// advance is lookup with the Latin-1 fast path.
func (t *faceTable) advance(r rune) int32 {
	if r >= 0 && r < 256 {
		return t.latin[r]
	}
	return t.lookup(r)
}

// kerning returns the pair adjustment of l followed by r, in font units.
// Pairs cover Latin-1, Greek and Cyrillic (see the generator); a left
// character below 256 is found through kernIndex, others by search.
func (t *faceTable) kerning(l, r rune) int32 {
	if l < 0 || r < 0 {
		return 0
	}
	var lo, hi int
	if l < 256 {
		lo, hi = int(t.kernIndex[l]), int(t.kernIndex[l+1])
	} else {
		lo = sort.Search(len(t.kern), func(i int) bool { return t.kern[i].l >= l })
		hi = sort.Search(len(t.kern), func(i int) bool { return t.kern[i].l > l })
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch {
		case t.kern[m].r < r:
			lo = m + 1
		case t.kern[m].r > r:
			hi = m
		default:
			return int32(t.kern[m].v)
		}
	}
	return 0
}

// resolve returns the first table of the family's chain that has r.
func (f *familyTable) resolve(r rune) (*faceTable, int32) {
	for _, t := range f.faces {
		if a := t.advance(r); a >= 0 {
			return t, a
		}
	}
	return nil, -1
}

// canvasSpace maps the ASCII whitespace canvas replaces by U+0020 before
// measuring (HTML "text preparation algorithm").
func canvasSpace(r rune) rune {
	switch r {
	case '\t', '\n', '\f', '\r':
		return ' '
	}
	return r
}

// zeroWidth reports characters drawn with no advance whether or not a font
// covers them: default-ignorables (hidden by HarfBuzz) and controls.
func zeroWidth(r rune) bool {
	return classOf(r)&clsIgnorable != 0 || r < 0x20 || (r >= 0x7f && r < 0xa0)
}

// fallbackEm is the declared width, in em, of a character that neither
// the family nor the declared fallback fonts cover (rule 6 of the package
// documentation): the advance of '0' in Liberation Sans, the typical width
// of a proportional glyph.
func fallbackEm(rune) float64 {
	return float64(faceLiberationSans.advance('0')) / faceLiberationSans.unitsPerEmF
}

// FallbackWidth returns the width in px that MeasureLine gives r on its own
// in family f, and whether the declared fallback rule produced it (used is
// false when the family's files, or Xiaolai for Excalifont, cover r, and for
// zero-width default-ignorables and controls). See the package documentation
// for the rule: emoji 2550/2048 em, marks 0, East Asian wide/fullwidth 1 em,
// others Liberation Sans's advance or that of its '0'.
func FallbackWidth(r rune, f FontFamily, fontSize float64) (w float64, used bool) {
	fam := family(f)
	r = canvasSpace(r)
	if zeroWidth(r) {
		return 0, false
	}
	if t, a := fam.resolve(r); t != nil {
		return float64(a) * fontSize / t.unitsPerEmF, false
	}
	if classOf(r)&(clsEmojiMost|clsRegionalIndicator) != 0 {
		return emojiEm * fontSize, true
	}
	switch {
	case unicode.In(r, unicode.Mn, unicode.Me):
		return 0, true
	case wide(r):
		return fontSize, true
	}
	return fallbackRun([]rune{r}, fontSize, false), true
}

// measureLine sums advances and pair adjustments of s in family fam.
// Runs of characters the family lacks are measured with the declared
// fallback fonts (fallback.go), shaped as one run as the browser does.
func measureLine(s string, fam *familyTable, size float64, round bool) float64 {
	total := 0.0
	var prev *faceTable
	var prevRune rune
	var pending []rune // characters waiting to be shaped by the fallback
	flush := func() {
		if len(pending) > 0 {
			total += fallbackRun(pending, size, round)
			pending = pending[:0]
		}
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if classOf(r)&(clsEmojiMost|clsRegionalIndicator|clsEmojiAny) != 0 {
			if end := emojiSpan(s, i); end > i {
				single := end == i+n
				if !single {
					flush()
					total += px(emojiEm*size, round)
					prev = nil
					i = end
					continue
				}
				if t, _ := fam.resolve(r); t == nil {
					flush()
					total += px(emojiEm*size, round)
					prev = nil
					i = end
					continue
				}
			}
		}
		i += n
		r = canvasSpace(r)
		if zeroWidth(r) {
			continue
		}
		t, a := fam.resolve(r)
		if t == nil {
			prev = nil
			switch {
			case unicode.In(r, unicode.Mn, unicode.Me):
				// A mark joins the fallback run it follows (shaping
				// places it); after the family's own glyph it adds nothing.
				if len(pending) > 0 {
					pending = append(pending, r)
				}
			case wide(r):
				flush()
				total += px(size, round)
			default:
				pending = append(pending, r)
			}
			continue
		}
		flush()
		scale := size / t.unitsPerEmF
		total += px(float64(a)*scale, round)
		if prev == t {
			if k := t.kerning(prevRune, r); k != 0 {
				total += float64(k) * scale
			}
		}
		prev, prevRune = t, r
	}
	flush()
	return total
}

// wide reports East Asian Wide and Fullwidth characters, which every CJK
// system font draws 1 em wide.
func wide(r rune) bool {
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return true
	}
	return false
}

// emojiSpan returns the end of the emoji presentation sequence starting at
// byte offset i, or -1: the sequences of Excalidraw's emoji expression, plus
// an \p{Emoji} character (a keycap base such as '1' or '#', an arrow, …)
// followed by VS16 and an optional keycap mark, which browsers also draw with
// the emoji font.
func emojiSpan(s string, i int) int {
	if e := emojiMatch(s, i); e > i {
		return e
	}
	r, n := runeAt(s, i)
	if n == 0 || classOf(r)&clsEmojiAny == 0 {
		return -1
	}
	v, vn := runeAt(s, i+n)
	if vn == 0 || v != 0xFE0F {
		return -1
	}
	j := i + n + vn
	if k, kn := runeAt(s, j); kn > 0 && k == 0x20E3 {
		j += kn
	}
	return j
}

// px optionally rounds a glyph advance to whole pixels (Skia's
// SkScalarRoundToInt, halves up).
func px(w float64, round bool) float64 {
	if round {
		return math.Floor(w + 0.5)
	}
	return w
}
