// Package fonts reads Excalidraw's font files (the woff2 files of the
// pinned package, which the editor's build copies) and lays text out with
// them: which file draws each character, HarfBuzz shaping for advances and
// kerning, glyph outlines for rasterizing, and the files an SVG embeds.
package fonts

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/go-text/typesetting/font"
	ot "github.com/go-text/typesetting/font/opentype"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"

	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts/woff2"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// Set is the fonts of one fonts directory, decoded on first use. It is
// safe for concurrent use.
type Set struct {
	fsys fs.FS // holds <Family>/<file>.woff2, as Excalidraw's dist/prod/fonts

	mu    sync.Mutex
	faces map[string]*Face // by file
	chain map[int][]*Face  // by fontFamily id, in fallback order
	// fallbacks are tried when no face of a family has a character.
	fallbacks []*Face

	shapeMu sync.Mutex // HarfbuzzShaper keeps buffers between calls
	shaper  shaping.HarfbuzzShaper
}

// New is the set of fonts under fsys (the editor build's fonts/ folder).
func New(fsys fs.FS) *Set {
	return &Set{fsys: fsys, faces: map[string]*Face{}, chain: map[int][]*Face{}}
}

// Face is one font file: its woff2 bytes (for an SVG to embed), the
// characters its @font-face covers, and the parsed font.
type Face struct {
	File   string // path under the fonts folder
	WOFF2  []byte
	Ranges []Range // empty: every character
	Family string  // the CSS family Excalidraw registers the file under
	set    *Set
	ttf    []byte          // a fallback font's TrueType file (no woff2)
	script func(rune) bool // a fallback font answers only for these; nil: all
	once   sync.Once
	mu     sync.Mutex // go-text's Face caches lookups without a lock
	face   *font.Face
	upem   float64
	err    error

	subOnce sync.Once // the subsetter, read on the first Subset
	sub     *subsetter
	subErr  error
}

// Range is one span of a unicode-range descriptor.
type Range struct{ Lo, Hi rune }

func (f *Face) covers(r rune) bool {
	if len(f.Ranges) == 0 {
		return true
	}
	for _, x := range f.Ranges {
		if r >= x.Lo && r <= x.Hi {
			return true
		}
	}
	return false
}

// Has reports whether the face draws r.
func (f *Face) Has(r rune) bool {
	if !f.covers(r) || (f.script != nil && !f.script(r)) || !f.parsed() {
		return false
	}
	f.mu.Lock()
	_, ok := f.face.NominalGlyph(r)
	f.mu.Unlock()
	return ok
}

// UnitsPerEm is the font's design grid.
func (f *Face) UnitsPerEm() float64 { return f.upem }

func parseRanges(s string) []Range {
	var out []Range
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimPrefix(strings.TrimSpace(part), "U+")
		if part == "" {
			continue
		}
		lo, hi, found := strings.Cut(part, "-")
		a, err := strconv.ParseUint(lo, 16, 32)
		if err != nil {
			continue
		}
		b := a
		if found {
			if b, err = strconv.ParseUint(hi, 16, 32); err != nil {
				continue
			}
		}
		out = append(out, Range{rune(a), rune(b)})
	}
	return out
}

// Faces are the files of a family in the order a character is looked up
// in them (Excalifont's own, then Xiaolai's). A file is read and parsed
// the first time a character in its unicode-range is drawn.
func (s *Set) Faces(family int) []*Face {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.chain[family]; ok {
		return c
	}
	fam := textmetrics.FontFamily(family)
	if !textmetrics.Known(fam) {
		fam = textmetrics.DefaultFamily
	}
	var chain []*Face
	for _, src := range textmetrics.Sources(fam) {
		f, ok := s.faces[src.File]
		if !ok {
			f = &Face{File: src.File, Ranges: parseRanges(src.UnicodeRange), Family: path.Dir(src.File), set: s}
			s.faces[src.File] = f
		}
		chain = append(chain, f)
	}
	s.chain[family] = chain
	return chain
}

// fallback is the faces tried for a character no face of its family has:
// Xiaolai's, which Excalidraw ships for CJK, then the fallback fonts the
// text is measured with (textmetrics: Liberation Serif for Latin, Greek
// and Cyrillic, DejaVu Sans for other scripts, as Debian's Chromium).
func (s *Set) fallback() []*Face {
	excalifont := s.Faces(int(textmetrics.Excalifont))
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fallbacks != nil {
		return s.fallbacks
	}
	out := []*Face{}
	for _, f := range excalifont {
		if f.Family == "Xiaolai" {
			out = append(out, f)
		}
	}
	for _, ff := range textmetrics.FallbackFontFiles() {
		out = append(out, &Face{File: ff.Name, Family: ff.Name, set: s, ttf: ff.TTF, script: ff.Covers})
	}
	s.fallbacks = out
	return out
}

// parsed reads and parses the face's file once; a file that is missing
// or does not parse draws nothing, and Err says why.
func (f *Face) parsed() bool {
	f.once.Do(func() {
		if f.ttf != nil {
			f.face, f.err = parseTTF(f.ttf)
			if f.err == nil {
				f.upem = float64(f.face.Upem())
			}
			return
		}
		fsys := f.set.fsys
		if fsys == nil {
			f.err = fmt.Errorf("fonts: no fonts folder (build the editor: make editor)")
			return
		}
		b, err := fs.ReadFile(fsys, f.File)
		if err != nil {
			f.err = fmt.Errorf("fonts: %w (build the editor: make editor)", err)
			return
		}
		f.WOFF2 = b
		f.face, f.err = parseWOFF2(b)
		if f.err != nil {
			f.err = fmt.Errorf("fonts: %s: %w", f.File, f.err)
			return
		}
		f.upem = float64(f.face.Upem())
	})
	return f.err == nil
}

// parseWOFF2 decodes a woff2 file and parses the font in it. The parsers
// index tables by offsets from the file, so a malformed file may panic
// them: that is an error here, never a crash.
func parseWOFF2(b []byte) (face *font.Face, err error) {
	defer func() {
		if r := recover(); r != nil {
			face, err = nil, fmt.Errorf("malformed font: %v", r)
		}
	}()
	sfnt, err := woff2.Decode(b)
	if err != nil {
		return nil, err
	}
	return font.ParseTTF(bytes.NewReader(sfnt))
}

// parseTTF parses a TrueType file, a panic of the parser being an error.
func parseTTF(b []byte) (face *font.Face, err error) {
	defer func() {
		if r := recover(); r != nil {
			face, err = nil, fmt.Errorf("malformed font: %v", r)
		}
	}()
	return font.ParseTTF(bytes.NewReader(b))
}

// Err is why the face draws nothing, nil once it has parsed.
func (f *Face) Err() error {
	f.parsed()
	return f.err
}

// Glyph is one glyph of a laid-out line: the face it comes from, its id,
// and its pen position (x from the line's start, in px at the layout's
// size; y offset, down).
type Glyph struct {
	Face *Face
	ID   font.GID
	X, Y float64
}

// Line is a laid-out line: its glyphs and advance width in px.
type Line struct {
	Glyphs []Glyph
	Width  float64
	// Used are the faces the line draws with, for an SVG to embed.
	Used []*Face
}

// Layout shapes one line of text in family at size px: each character
// in the first face of the family that has it, words shaped separately
// (as Chromium's word cache does, so no kerning across spaces).
// Characters no face has take no glyph and the advance of a space.
func (s *Set) Layout(text string, family int, size float64) (Line, error) {
	faces := s.Faces(family)
	if s.fsys == nil {
		return Line{}, fmt.Errorf("fonts: no fonts folder (build the editor: make editor)")
	}
	var line Line
	rs := []rune(text)
	pen := 0.0
	used := map[*Face]bool{}
	fallback := s.fallback()
	faceOf := func(r rune) *Face { return faceIn(r, faces, fallback) }
	for i := 0; i < len(rs); {
		r := rs[i]
		if r == '\t' || r == '\n' || r == '\r' || r == '\f' {
			r = ' '
		}
		f := faceOf(r)
		if f == nil {
			if unicode.IsControl(r) || unicode.Is(unicode.Mn, r) {
				i++
				continue
			}
			pen += size * 0.3 // no font has it: leave a gap
			i++
			continue
		}
		// A run: following characters in the same face, up to a space.
		j := i + 1
		if r != ' ' {
			for j < len(rs) && rs[j] != ' ' && faceOf(rs[j]) == f {
				j++
			}
		}
		if !used[f] {
			used[f] = true
			line.Used = append(line.Used, f)
		}
		pen = s.shape(&line, rs[i:j], f, size, pen)
		i = j
	}
	line.Width = pen
	return line, nil
}

// FaceOf is the face that draws r in family: the family's first face
// that has it, else Xiaolai's, else the fallback fonts text is measured
// with (nil when none has it). It is the one choice of a font for a
// character, the PNG's (Layout) and the SVG's (the faces it embeds and
// names): CJK in a family without it (Virgil, Helvetica, Cascadia...) is
// drawn in Xiaolai, Excalidraw's hand-drawn CJK font, in both, where a
// browser would pick whatever system font it has.
func (s *Set) FaceOf(r rune, family int) *Face {
	return faceIn(r, s.Faces(family), s.fallback())
}

func faceIn(r rune, faces, fallback []*Face) *Face {
	for _, f := range faces {
		if f.Has(r) {
			return f
		}
	}
	for _, f := range fallback {
		if f.Has(r) {
			return f
		}
	}
	return nil
}

func (s *Set) shape(line *Line, rs []rune, f *Face, size, pen float64) float64 {
	script, dir := textmetrics.ShapingScript(rs)
	s.shapeMu.Lock()
	f.mu.Lock()
	out := s.shaper.Shape(shaping.Input{
		Text: rs, RunStart: 0, RunEnd: len(rs), Face: f.face, Size: fixed.I(int(f.upem)),
		Script: script, Direction: dir, Language: language.NewLanguage("und"),
	})
	f.mu.Unlock()
	s.shapeMu.Unlock()
	scale := size / f.upem
	for _, g := range out.Glyphs {
		line.Glyphs = append(line.Glyphs, Glyph{Face: f, ID: g.GlyphID,
			X: pen + float64(g.XOffset)/64*scale, Y: -float64(g.YOffset) / 64 * scale})
		pen += float64(g.Advance) / 64 * scale
	}
	return pen
}

// SegOp is what an outline segment does.
type SegOp uint8

const (
	MoveTo SegOp = iota
	LineTo
	QuadTo
	CubeTo
)

// Seg is one outline segment in px, y down, relative to the glyph's pen
// position on the baseline.
type Seg struct {
	Op SegOp
	P  [3][2]float64
}

var outlines sync.Map // outlineKey → []Seg at 1 px per em

type outlineKey struct {
	f  *Face
	id font.GID
}

// Outline is the glyph's outline at size px.
func (g Glyph) Outline(size float64) []Seg {
	k := outlineKey{g.Face, g.ID}
	v, ok := outlines.Load(k)
	if !ok {
		v, _ = outlines.LoadOrStore(k, unitOutline(g.Face, g.ID))
	}
	unit := v.([]Seg)
	out := make([]Seg, len(unit))
	for i, s := range unit {
		out[i].Op = s.Op
		for j := range s.P {
			out[i].P[j] = [2]float64{s.P[j][0] * size, s.P[j][1] * size}
		}
	}
	return out
}

func unitOutline(f *Face, id font.GID) []Seg {
	f.mu.Lock()
	o, ok := f.face.GlyphDataOutline(id)
	f.mu.Unlock()
	if !ok {
		return nil
	}
	inv := 1 / f.upem
	out := make([]Seg, 0, len(o.Segments))
	for _, s := range o.Segments {
		var seg Seg
		switch s.Op {
		case ot.SegmentOpMoveTo:
			seg.Op = MoveTo
		case ot.SegmentOpLineTo:
			seg.Op = LineTo
		case ot.SegmentOpQuadTo:
			seg.Op = QuadTo
		case ot.SegmentOpCubeTo:
			seg.Op = CubeTo
		}
		for j, a := range s.Args {
			seg.P[j] = [2]float64{float64(a.X) * inv, -float64(a.Y) * inv}
		}
		out = append(out, seg)
	}
	return out
}

// cssNames are the font-family names Excalidraw registers each folder's
// files under.
var cssNames = map[string]string{
	"Excalifont": "Excalifont", "Xiaolai": "Xiaolai", "Virgil": "Virgil", "Cascadia": "Cascadia",
	"Nunito": "Nunito", "Lilita": "Lilita One", "ComicShanns": "Comic Shanns", "Liberation": "Liberation Sans",
}

// CSSFamily is the font-family name Excalidraw registers the face's file
// under, for an @font-face rule.
func (f *Face) CSSFamily() string {
	if n, ok := cssNames[f.Family]; ok {
		return n
	}
	return f.Family
}

// RangeString is the face's unicode-range descriptor ("" for all).
func (f *Face) RangeString() string {
	var b strings.Builder
	for i, r := range f.Ranges {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "U+%x", r.Lo)
		if r.Hi != r.Lo {
			fmt.Fprintf(&b, "-%x", r.Hi)
		}
	}
	return b.String()
}

// FaceChars is a face and the characters of a text it draws.
type FaceChars struct {
	Face  *Face
	Chars []rune // sorted, each once
}

// FacesFor are the faces an SVG embeds for text in family, each with the
// characters it draws there (FaceOf's choice), in first-use order.
// Helvetica's own faces (a local font in Excalidraw) and fallback fonts
// without a woff2 file are left out: the viewer's fonts draw those.
func (s *Set) FacesFor(text string, family int) []FaceChars {
	if s.fsys == nil {
		return nil
	}
	faces, fallback := s.Faces(family), s.fallback()
	var out []FaceChars
	var last *Face
	at := -1
	for _, r := range text {
		f := faceIn(r, faces, fallback)
		if f == nil || f.WOFF2 == nil || (family == 2 && f.Family != "Xiaolai") {
			continue
		}
		if f != last {
			at = slices.IndexFunc(out, func(fc FaceChars) bool { return fc.Face == f })
			if at < 0 {
				out = append(out, FaceChars{Face: f})
				at = len(out) - 1
			}
			last = f
		}
		out[at].Chars = append(out[at].Chars, r)
	}
	for i := range out {
		slices.Sort(out[i].Chars)
		out[i].Chars = slices.Compact(out[i].Chars)
	}
	return out
}
