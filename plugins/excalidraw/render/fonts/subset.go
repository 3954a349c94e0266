package fonts

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/font/opentype/tables"

	tdfont "github.com/tdewolff/font"

	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts/woff2"
)

// subsetCacheBytes bounds the woff2 subsets kept for reuse.
const subsetCacheBytes = 16 << 20

// subsetQuality is the Brotli quality of a subset's woff2.
const subsetQuality = 9

// subsetter is what cutting a face down needs, read once per face: the
// decoded font file, a TrueType font. Each subset parses it anew:
// tdewolff's Subset changes the font it cuts.
type subsetter struct {
	raw []byte
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
// an SVG to embed, as Excalidraw's export subsets its fonts. Text in chars
// shapes with it exactly as with the whole file. When no substitution
// (ligature, contextual form) and no positioning but pair kerning can
// touch those glyphs, the subset holds just them, renumbered, with their
// kerning as a 'kern' table (compact). Otherwise every glyph keeps its id,
// those neither chars nor a substitution from them reach are emptied, and
// the substitutions stay whole, the positioning too unless it is pair
// kerning only, then a 'kern' table (hollow). Subsets are cached by face
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

// PurgeSubsets drops the cached subsets: the next SVG of any text cuts
// its fonts again, as a measurement of a first render needs.
func PurgeSubsets() {
	subsets.Lock()
	defer subsets.Unlock()
	clear(subsets.m)
	subsets.size = 0
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
	return &subsetter{raw: raw}, nil
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
	sf, err := tdfont.ParseSFNT(s.raw, 0)
	if err != nil {
		return nil, err
	}
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
	for _, r := range chars {
		if g := sf.GlyphIndex(r); g != 0 {
			add(g)
		}
	}
	substituted, kern, kernOnly := func() (bool, []kernPair, bool) {
		f.mu.Lock()
		defer f.mu.Unlock() // also when a malformed table panics
		gsub := &f.face.GSUB
		substituted := touches(gsub.Lookups, featureLookups(&gsub.Layout, defaultSubst, len(gsub.Lookups)), keep)
		if substituted {
			closure(gsub.Lookups, substLookups(&gsub.Layout, len(gsub.Lookups)), keep, add)
		}
		kern, kernOnly := kerning(f.face, keep)
		return substituted, kern, kernOnly
	}()
	if !substituted && kernOnly {
		if b, ok := f.compact(sf, chars, keep, kern); ok {
			return b, nil
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
	if name, ok := tables["name"]; ok {
		tables["name"] = trimName(name)
	}
	if kernOnly {
		delete(tables, "GPOS")
		if len(kern) > 0 {
			tables["kern"] = kernTable(kern, nil)
		}
	}
	delete(tables, "DSIG")
	return woff2.Encode(tables, subsetQuality)
}

// compact is the subset of just the kept glyphs, renumbered in id order,
// with their pair kerning as a 'kern' table; false when the subset's
// cmap does not map chars to their glyphs.
func (f *Face) compact(sf *tdfont.SFNT, chars []rune, keep []bool, kern []kernPair) ([]byte, bool) {
	ids := make([]uint16, 0, len(chars)+1)
	newID := make(map[uint16]uint16, len(chars)+1)
	for g, k := range keep {
		if k {
			newID[uint16(g)] = uint16(len(ids))
			ids = append(ids, uint16(g))
		}
	}
	tags := []string{"OS/2", "cmap", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "post"}
	for _, t := range []string{"cvt ", "fpgm", "gasp", "prep"} {
		if _, ok := sf.Tables[t]; ok {
			tags = append(tags, t)
		}
	}
	sub, err := sf.Subset(slices.Clone(ids), tdfont.SubsetOptions{Tables: tags})
	if err != nil || len(ids) != int(sub.NumGlyphs()) {
		return nil, false
	}
	for _, r := range chars {
		if g := sf.GlyphIndex(r); g != 0 && sub.GlyphIndex(r) != newID[g] {
			return nil, false
		}
	}
	tables := make(map[string][]byte, len(sub.Tables)+2)
	for tag, t := range sub.Tables {
		tables[tag] = t
	}
	if name, ok := sf.Tables["name"]; ok {
		tables["name"] = trimName(name) // the subsetter empties it
	}
	if len(kern) > 0 {
		tables["kern"] = kernTable(kern, newID)
	}
	b, err := woff2.Encode(tables, subsetQuality)
	return b, err == nil
}

// kernPair is the advance adjustment of a glyph followed by another, in
// font units.
type kernPair struct {
	left, right uint16
	value       int16
}

// Layout features a browser applies by default; lookups of other
// features do not act on plain text.
var defaultSubst = map[string]bool{
	"ccmp": true, "locl": true, "rlig": true, "liga": true, "clig": true, "calt": true, "rclt": true, "rvrn": true,
	"init": true, "medi": true, "fina": true, "isol": true, "med2": true, "fin2": true, "fin3": true, "rphf": true,
	"blwf": true, "half": true, "pstf": true, "nukt": true, "akhn": true, "pref": true, "abvs": true, "blws": true,
	"psts": true, "haln": true, "cjct": true, "vatu": true, "pres": true, "ljmo": true, "vjmo": true, "tjmo": true, "stch": true,
}

var defaultPos = map[string]bool{
	"kern": true, "dist": true, "mark": true, "mkmk": true, "curs": true, "abvm": true, "blwm": true,
}

// touches reports whether a subtable of the lookups (by index) covers a
// kept glyph: whether they can act on text drawn with those glyphs.
func touches(lookups []font.GSUBLookup, which []int, keep []bool) bool {
	for _, i := range which {
		for _, st := range lookups[i].Subtables {
			if covers(st.Cov(), keep) {
				return true
			}
		}
	}
	return false
}

func covers(cov tables.Coverage, keep []bool) bool {
	if cov == nil {
		return false
	}
	for g, k := range keep {
		if k {
			if _, ok := cov.Index(tables.GlyphID(g)); ok {
				return true
			}
		}
	}
	return false
}

// substLookups are the lookups shaping may apply: those of the default
// features (featureLookups) and those no feature names, which only
// contextual lookups call.
func substLookups(l *font.Layout, n int) []int {
	named := make([]bool, n)
	for _, f := range l.Features {
		for _, i := range f.LookupListIndices {
			if int(i) < n {
				named[i] = true
			}
		}
	}
	out := featureLookups(l, defaultSubst, n)
	for i, nm := range named {
		if !nm {
			out = append(out, i)
		}
	}
	return out
}

// closure adds to keep (through add) every glyph a substitution of the
// lookups (by index) can make from kept glyphs, until none is new: a
// superset of what shaping text of the kept glyphs produces. Contextual
// lookups only call other lookups, which it follows.
func closure(lookups []font.GSUBLookup, which []int, keep []bool, add func(uint16)) {
	gid := func(g tables.GlyphID) {
		if int(g) < len(keep) && !keep[g] {
			add(uint16(g))
		}
	}
	for {
		before := slices.Clone(keep)
		for _, i := range which {
			for _, st := range lookups[i].Subtables {
				for g, k := range before {
					if !k {
						continue
					}
					ci, ok := st.Cov().Index(tables.GlyphID(g))
					if !ok {
						continue
					}
					switch st := st.(type) {
					case tables.SingleSubs:
						switch d := st.Data.(type) {
						case tables.SingleSubstData1:
							gid(tables.GlyphID(int(g) + int(d.DeltaGlyphID)))
						case tables.SingleSubstData2:
							if ci < len(d.SubstituteGlyphIDs) {
								gid(d.SubstituteGlyphIDs[ci])
							}
						}
					case tables.MultipleSubs:
						if ci < len(st.Sequences) {
							for _, s := range st.Sequences[ci].SubstituteGlyphIDs {
								gid(s)
							}
						}
					case tables.AlternateSubs:
						if ci < len(st.AlternateSets) {
							for _, s := range st.AlternateSets[ci].AlternateGlyphIDs {
								gid(s)
							}
						}
					case tables.LigatureSubs:
						if ci >= len(st.LigatureSets) {
							continue
						}
						for _, l := range st.LigatureSets[ci].Ligatures {
							all := true
							for _, c := range l.ComponentGlyphIDs {
								all = all && int(c) < len(before) && before[c]
							}
							if all {
								gid(l.LigatureGlyph)
							}
						}
					case tables.ReverseChainSingleSubs:
						if ci < len(st.SubstituteGlyphIDs) {
							gid(st.SubstituteGlyphIDs[ci])
						}
					}
				}
			}
		}
		if slices.Equal(before, keep) {
			return
		}
	}
}

// kerning is the pair kerning of kept glyphs by the default features of
// face's GPOS (each pair's first glyph's advance adjustment, summed over
// lookups), and whether that is all those features do to them: false
// when another kind of positioning covers a kept glyph.
func kerning(face *font.Face, keep []bool) ([]kernPair, bool) {
	sums := map[[2]uint16]int{}
	for _, i := range featureLookups(&face.GPOS.Layout, defaultPos, len(face.GPOS.Lookups)) {
		done := map[[2]uint16]bool{} // a lookup's first subtable that applies to a pair wins
		for _, st := range face.GPOS.Lookups[i].Subtables {
			if !covers(st.Cov(), keep) {
				continue
			}
			pp, ok := st.(tables.PairPos)
			if !ok {
				return nil, false
			}
			for a, ka := range keep {
				if !ka {
					continue
				}
				ci, ok := pp.Data.Cov().Index(tables.GlyphID(a))
				if !ok {
					continue
				}
				for b, kb := range keep {
					p := [2]uint16{uint16(a), uint16(b)}
					if !kb || done[p] {
						continue
					}
					var v1, v2 tables.ValueRecord
					switch d := pp.Data.(type) {
					case tables.PairPosData1:
						if ci >= len(d.PairSets) {
							continue
						}
						rec, found := d.PairSets[ci].FindGlyph(tables.GlyphID(b))
						if !found {
							continue
						}
						v1, v2 = rec.ValueRecord1, rec.ValueRecord2
					case tables.PairPosData2:
						c1, _ := d.ClassDef1.Class(tables.GlyphID(a))
						c2, _ := d.ClassDef2.Class(tables.GlyphID(b))
						rec := d.Record(c1, c2)
						v1, v2 = rec.ValueRecord1, rec.ValueRecord2
					default:
						return nil, false
					}
					done[p] = true
					if v1.XPlacement != 0 || v1.YPlacement != 0 || v1.YAdvance != 0 || v2 != (tables.ValueRecord{}) {
						return nil, false
					}
					sums[p] += int(v1.XAdvance)
				}
			}
		}
	}
	var out []kernPair
	for p, v := range sums {
		if v != 0 && v >= math.MinInt16 && v <= math.MaxInt16 {
			out = append(out, kernPair{p[0], p[1], int16(v)})
		}
	}
	return out, true
}

// featureLookups are the lookups the features in tags use, each once,
// in lookup order: the features of each script's default language
// system (a browser shapes text without a lang attribute with those), or
// every feature when no script has one.
func featureLookups(l *font.Layout, tags map[string]bool, n int) []int {
	active := make([]bool, len(l.Features))
	withLangSys := false
	for _, sc := range l.Scripts {
		ls := sc.DefaultLangSys
		if ls == nil {
			continue
		}
		withLangSys = true
		for _, i := range append(slices.Clone(ls.FeatureIndices), ls.RequiredFeatureIndex) {
			if int(i) < len(active) {
				active[i] = true
			}
		}
	}
	use := make([]bool, n)
	for fi, f := range l.Features {
		if (withLangSys && !active[fi]) || !tags[f.Tag.String()] {
			continue
		}
		for _, i := range f.LookupListIndices {
			if int(i) < n {
				use[i] = true
			}
		}
	}
	var out []int
	for i, u := range use {
		if u {
			out = append(out, i)
		}
	}
	return out
}

// trimName is a 'name' table (format 0) with only its records of name ids
// 0–6 (copyright, family, style, unique id, full name, version,
// PostScript name), as subsetters keep it: the license texts go.
func trimName(name []byte) []byte {
	be := binary.BigEndian
	if len(name) < 6 || be.Uint16(name) != 0 {
		return name
	}
	count, storage := int(be.Uint16(name[2:])), int(be.Uint16(name[4:]))
	if 6+12*count > len(name) || storage > len(name) {
		return name
	}
	var recs, strs []byte
	for i := range count {
		r := name[6+12*i : 18+12*i]
		length, off := int(be.Uint16(r[8:])), int(be.Uint16(r[10:]))
		if be.Uint16(r[6:]) > 6 || storage+off+length > len(name) {
			continue
		}
		rec := slices.Clone(r)
		be.PutUint16(rec[10:], uint16(len(strs)))
		recs = append(recs, rec...)
		strs = append(strs, name[storage+off:storage+off+length]...)
	}
	out := make([]byte, 6, 6+len(recs)+len(strs))
	be.PutUint16(out[2:], uint16(len(recs)/12))
	be.PutUint16(out[4:], uint16(6+len(recs)))
	return append(append(out, recs...), strs...)
}

// kernTable is a 'kern' table (version 0, one format 0 subtable of
// horizontal kerning) of pairs, their glyphs renumbered by newID (nil:
// as they are).
func kernTable(pairs []kernPair, newID map[uint16]uint16) []byte {
	for i := range pairs {
		if newID != nil {
			pairs[i].left, pairs[i].right = newID[pairs[i].left], newID[pairs[i].right]
		}
	}
	slices.SortFunc(pairs, func(a, b kernPair) int {
		return int(uint32(a.left)<<16|uint32(a.right)) - int(uint32(b.left)<<16|uint32(b.right))
	})
	n := len(pairs)
	pow := 1
	for pow*2 <= n {
		pow *= 2
	}
	sel := bits.Len(uint(pow)) - 1
	be := binary.BigEndian
	b := make([]byte, 4+14+6*n)
	be.PutUint16(b[0:], 0) // version
	be.PutUint16(b[2:], 1) // one subtable
	be.PutUint16(b[4:], 0) // its version
	be.PutUint16(b[6:], uint16(14+6*n))
	be.PutUint16(b[8:], 1) // horizontal, format 0
	be.PutUint16(b[10:], uint16(n))
	be.PutUint16(b[12:], uint16(pow*6))
	be.PutUint16(b[14:], uint16(sel))
	be.PutUint16(b[16:], uint16(n*6-pow*6))
	for i, p := range pairs {
		o := 18 + 6*i
		be.PutUint16(b[o:], p.left)
		be.PutUint16(b[o+2:], p.right)
		be.PutUint16(b[o+4:], uint16(p.value))
	}
	return b
}
