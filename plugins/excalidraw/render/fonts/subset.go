package fonts

import (
	"encoding/binary"
	"fmt"
	"slices"
	"sync"

	tdfont "github.com/tdewolff/font"

	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts/woff2"
)

// subsetCacheBytes bounds the woff2 subsets kept for reuse.
const subsetCacheBytes = 16 << 20

// subsetQuality is the Brotli quality of a subset's woff2.
const subsetQuality = 9

// subsetter is what cutting a face down needs, read once per face: the
// font's tables (tdewolff's parse of the decoded woff2) and the glyphs no
// character maps to (ligatures and alternates the shaper may substitute).
type subsetter struct {
	sfnt    *tdfont.SFNT
	uncoded []uint16
}

// subsetKey is a face and the characters a subset of it draws.
type subsetKey struct {
	face  *Face
	chars string
}

var subsets = struct {
	sync.Mutex
	m    map[subsetKey][]byte
	size int
}{m: map[subsetKey][]byte{}}

// Subset is the face's woff2 file cut down to the glyphs chars draw, for
// an SVG to embed, as Excalidraw's export subsets its fonts. Every glyph
// keeps its id, advance and the font's layout tables (kerning, ligatures),
// so text shapes exactly as with the whole file; glyphs no character in
// chars maps to are left empty, except those only substitutions reach
// (no character maps to them), which are kept. Subsets are cached by face
// and characters. A face that cannot be subset gives its whole file.
func (f *Face) Subset(chars []rune) ([]byte, error) {
	if !f.parsed() {
		return nil, f.err
	}
	if f.WOFF2 == nil {
		return nil, fmt.Errorf("fonts: %s has no woff2 file", f.File)
	}
	chars = slices.Clone(chars)
	slices.Sort(chars)
	chars = slices.Compact(chars)
	k := subsetKey{f, string(chars)}
	subsets.Lock()
	b, ok := subsets.m[k]
	subsets.Unlock()
	if ok {
		return b, nil
	}
	b, err := f.subset(chars)
	if err != nil {
		return f.WOFF2, nil
	}
	subsets.Lock()
	if subsets.size+len(b) > subsetCacheBytes {
		clear(subsets.m)
		subsets.size = 0
	}
	if _, ok := subsets.m[k]; !ok {
		subsets.m[k] = b
		subsets.size += len(b)
	}
	subsets.Unlock()
	return b, nil
}

// subsetter reads the face's tables once.
func (f *Face) subsetter() (*subsetter, error) {
	f.subOnce.Do(func() {
		f.sub, f.subErr = newSubsetter(f)
	})
	return f.sub, f.subErr
}

func newSubsetter(f *Face) (s *subsetter, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("fonts: %s: malformed font: %v", f.File, r)
		}
	}()
	raw, err := woff2.Decode(f.WOFF2)
	if err != nil {
		return nil, err
	}
	sf, err := tdfont.ParseSFNT(raw, 0)
	if err != nil {
		return nil, err
	}
	if !sf.IsTrueType || sf.Glyf == nil || sf.Loca == nil {
		return nil, fmt.Errorf("fonts: %s: not a TrueType font", f.File)
	}
	coded := make([]bool, sf.NumGlyphs())
	f.mu.Lock()
	it := f.face.Cmap.Iter()
	for it.Next() {
		if _, g := it.Char(); int(g) < len(coded) {
			coded[g] = true
		}
	}
	f.mu.Unlock()
	s = &subsetter{sfnt: sf}
	for g, c := range coded {
		if !c {
			s.uncoded = append(s.uncoded, uint16(g))
		}
	}
	return s, nil
}

// subset writes the face with only the glyphs of chars (and those
// substitutions reach) as woff2.
func (f *Face) subset(chars []rune) (out []byte, err error) {
	s, err := f.subsetter()
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("fonts: %s: malformed font: %v", f.File, r)
		}
	}()
	sf := s.sfnt
	n := int(sf.NumGlyphs())
	keep := make([]bool, n)
	add := func(g uint16) {
		if int(g) >= n || keep[g] {
			return
		}
		deps, err := sf.Glyf.Dependencies(g)
		if err != nil {
			return
		}
		for _, d := range deps {
			if int(d) < n {
				keep[d] = true
			}
		}
	}
	add(0)
	for _, g := range s.uncoded {
		add(g)
	}
	for _, r := range chars {
		if g := sf.GlyphIndex(r); g != 0 {
			add(g)
		}
	}
	// glyf with the kept glyphs only, and loca in the long format.
	var glyf []byte
	loca := make([]byte, 4*(n+1))
	for g := range n {
		binary.BigEndian.PutUint32(loca[4*g:], uint32(len(glyf)))
		if !keep[g] {
			continue
		}
		glyf = append(glyf, sf.Glyf.Get(uint16(g))...)
		for len(glyf)%4 != 0 {
			glyf = append(glyf, 0)
		}
	}
	binary.BigEndian.PutUint32(loca[4*n:], uint32(len(glyf)))
	tables := make(map[string][]byte, len(sf.Tables))
	for tag, t := range sf.Tables {
		tables[tag] = t
	}
	head := slices.Clone(sf.Tables["head"])
	if len(head) < 54 {
		return nil, fmt.Errorf("fonts: %s: short head table", f.File)
	}
	binary.BigEndian.PutUint16(head[50:], 1) // indexToLocFormat: long
	tables["head"], tables["glyf"], tables["loca"] = head, glyf, loca
	// post without glyph names (version 3), as subsetters write it.
	if post := tables["post"]; len(post) >= 32 {
		p := slices.Clone(post[:32])
		binary.BigEndian.PutUint32(p, 0x00030000)
		tables["post"] = p
	}
	delete(tables, "DSIG")
	return woff2.Encode(tables, subsetQuality)
}
