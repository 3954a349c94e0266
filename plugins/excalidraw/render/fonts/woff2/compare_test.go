package woff2

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/go-text/typesetting/font"
	tdewolff "github.com/tdewolff/font"
)

// TestMatchesTdewolff compares Decode with an independent decoder,
// github.com/tdewolff/font's ParseWOFF2, on every font of the editor's
// build that it decodes into something go-text reads (it overflows a
// short loca on large fonts and rejects the overlapSimpleBitmap): every
// glyph's outline, its advance and the cmap must be equal.
func TestMatchesTdewolff(t *testing.T) {
	files := editorFonts(t)
	compared := map[string]int{} // by family
	for _, name := range sortedKeys(files) {
		theirs, err := tdewolff.ParseWOFF2(files[name])
		if err != nil {
			continue
		}
		if _, err := checkOutlines(theirs); err != nil {
			continue
		}
		mine, err := Decode(files[name])
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := sameFont(mine, theirs); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		compared[strings.Split(name, "/")[0]]++
	}
	t.Logf("compared %v", compared)
	for _, family := range []string{"Excalifont", "Virgil", "Cascadia", "Lilita", "ComicShanns"} {
		if compared[family] == 0 {
			t.Errorf("no %s font was compared", family)
		}
	}
}

// sameFont compares two decodings of a font through go-text and returns
// what differs.
func sameFont(mine, theirs []byte) error {
	info, err := readFontInfo(mine)
	if err != nil {
		return err
	}
	a, err := parseFace(mine)
	if err != nil {
		return err
	}
	b, err := parseFace(theirs)
	if err != nil {
		return err
	}
	if ca, cb := cmapOf(a), cmapOf(b); !reflect.DeepEqual(ca, cb) {
		return errors.New("cmaps differ")
	}
	for i := range info.numGlyphs {
		gid := font.GID(i)
		oa, err := outline(a, gid)
		if err != nil {
			return err
		}
		ob, err := outline(b, gid)
		if err != nil {
			return fmt.Errorf("tdewolff: %w", err)
		}
		if !reflect.DeepEqual(oa, ob) {
			return fmt.Errorf("glyph %d: outlines differ:\n%v\n%v", i, oa, ob)
		}
		if a.HorizontalAdvance(gid) != b.HorizontalAdvance(gid) {
			return fmt.Errorf("glyph %d: advances %g and %g", i, a.HorizontalAdvance(gid), b.HorizontalAdvance(gid))
		}
	}
	return nil
}

func cmapOf(f *font.Face) map[rune]font.GID {
	m := map[rune]font.GID{}
	for it := f.Cmap.Iter(); it.Next(); {
		r, g := it.Char()
		m[r] = g
	}
	return m
}
