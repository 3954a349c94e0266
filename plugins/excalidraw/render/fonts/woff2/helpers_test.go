package woff2

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/go-text/typesetting/font"

	"github.com/dshgo/dsh/internal/testkit/testenv"
	"github.com/dshgo/dsh/plugins/excalidraw/editor"
)

// editorFonts returns every .woff2 file of the editor's build, by path
// under fonts/ ("Virgil/Virgil-Regular.woff2"), or ends the test when the
// editor is not built. Under the race detector, which makes decoding ten
// times slower, one Xiaolai file in ten stands for the 209 (every other
// family whole); make test runs the package without it too, on all.
func editorFonts(tb testing.TB) map[string][]byte {
	tb.Helper()
	fsys := editor.Assets()
	if fsys == nil {
		testenv.Missing(tb, "the editor is not built (its fonts are copied by the build): run make editor")
	}
	files := map[string][]byte{}
	xiaolai := 0
	err := fs.WalkDir(fsys, "fonts", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".woff2" {
			return err
		}
		if raceEnabled && strings.HasPrefix(p, "fonts/Xiaolai/") {
			xiaolai++
			if xiaolai%10 != 1 {
				return nil
			}
		}
		b, err := fs.ReadFile(fsys, p)
		files[strings.TrimPrefix(p, "fonts/")] = b
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) == 0 {
		tb.Fatal("the editor's build has no fonts/**/*.woff2")
	}
	return files
}

// editorFont returns the smallest file of the editor's build
// whose path starts with prefix.
func editorFont(tb testing.TB, prefix string) []byte {
	tb.Helper()
	var b []byte
	for name, f := range editorFonts(tb) {
		if strings.HasPrefix(name, prefix) && (b == nil || len(f) < len(b)) {
			b = f
		}
	}
	if b == nil {
		tb.Fatalf("no font %s* in the editor's build", prefix)
	}
	return b
}

// largestFont returns the largest file of the editor's build whose path
// starts with prefix (for Excalifont, its Latin file).
func largestFont(tb testing.TB, prefix string) []byte {
	tb.Helper()
	var b []byte
	for name, f := range editorFonts(tb) {
		if strings.HasPrefix(name, prefix) && len(f) > len(b) {
			b = f
		}
	}
	if b == nil {
		tb.Fatalf("no font %s* in the editor's build", prefix)
	}
	return b
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sfntTables reads an SFNT file's table directory independently of
// writeSFNT and returns each table's data (unpadded) by tag.
func sfntTables(b []byte) (map[string][]byte, error) {
	if len(b) < 12 {
		return nil, fmt.Errorf("%d bytes", len(b))
	}
	n := int(binary.BigEndian.Uint16(b[4:]))
	if len(b) < 12+16*n {
		return nil, fmt.Errorf("directory of %d tables in %d bytes", n, len(b))
	}
	tables := map[string][]byte{}
	for i := range n {
		rec := b[12+16*i:]
		tag := string(rec[:4])
		off, length := binary.BigEndian.Uint32(rec[8:]), binary.BigEndian.Uint32(rec[12:])
		if uint64(off)+uint64(length) > uint64(len(b)) {
			return nil, fmt.Errorf("table %q [%d, +%d) past the end", tag, off, length)
		}
		tables[tag] = b[off : off+length]
	}
	return tables, nil
}

// parseFace parses an SFNT file with go-text, turning its panics (on a
// bad loca, for one) into errors.
func parseFace(sfnt []byte) (face *font.Face, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("font.ParseTTF panicked: %v", r)
		}
	}()
	return font.ParseTTF(bytes.NewReader(sfnt))
}

// errNoOutline is outline's error for a glyph go-text finds no outline
// for.
var errNoOutline = errors.New("no outline")

// outline returns glyph gid's outline from go-text, turning a panic into
// an error.
func outline(face *font.Face, gid font.GID) (out font.GlyphOutline, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("GlyphDataOutline(%d) panicked: %v", gid, r)
		}
	}()
	out, ok := face.GlyphDataOutline(gid)
	if !ok {
		return out, fmt.Errorf("GlyphDataOutline(%d): %w", gid, errNoOutline)
	}
	return out, nil
}

// fontInfo is what the tests check outlines against: the glyph count
// from maxp and the font's bounding box from head.
type fontInfo struct {
	numGlyphs              int
	xMin, yMin, xMax, yMax int16
}

func readFontInfo(sfnt []byte) (fontInfo, error) {
	tables, err := sfntTables(sfnt)
	if err != nil {
		return fontInfo{}, err
	}
	maxp, head := tables["maxp"], tables["head"]
	if len(maxp) < 6 || len(head) < 54 {
		return fontInfo{}, fmt.Errorf("maxp %d bytes, head %d bytes", len(maxp), len(head))
	}
	i16 := func(b []byte) int16 { return int16(binary.BigEndian.Uint16(b)) }
	return fontInfo{
		numGlyphs: int(binary.BigEndian.Uint16(maxp[4:])),
		xMin:      i16(head[36:]), yMin: i16(head[38:]), xMax: i16(head[40:]), yMax: i16(head[42:]),
	}, nil
}

// checkGlyphs parses every glyph record of a font's glyf, as loca (long)
// locates them, independently of glyphBuilder: each must be a simple or
// composite glyph taking its record's bytes, give or take 3 of padding.
func checkGlyphs(sfnt []byte) error {
	tables, err := sfntTables(sfnt)
	if err != nil {
		return err
	}
	glyf, loca := tables["glyf"], tables["loca"]
	be := binary.BigEndian
	for i := 0; i+8 <= len(loca); i += 4 {
		rec := glyf[be.Uint32(loca[i:]):be.Uint32(loca[i+4:])]
		if len(rec) == 0 {
			continue
		}
		n, err := glyphLength(rec)
		if err != nil {
			return fmt.Errorf("glyph %d: %v", i/4, err)
		}
		if len(rec)-n > 3 {
			return fmt.Errorf("glyph %d: %d bytes, %d used", i/4, len(rec), n)
		}
	}
	return nil
}

// glyphLength returns how many bytes of rec its glyph takes.
func glyphLength(rec []byte) (int, error) {
	be := binary.BigEndian
	short := errors.New("record too short")
	if len(rec) < 10 {
		return 0, short
	}
	nContours := int16(be.Uint16(rec))
	p := 10
	if nContours < 0 {
		// As §5.1 has it, instructions follow the components if any of
		// them says so (OFF says the last one).
		instructions := false
		for more := true; more; {
			if len(rec) < p+4 {
				return 0, short
			}
			flags := be.Uint16(rec[p:])
			p += 4
			switch {
			case flags&0x0001 != 0:
				p += 4
			default:
				p += 2
			}
			switch {
			case flags&0x0008 != 0:
				p += 2
			case flags&0x0040 != 0:
				p += 4
			case flags&0x0080 != 0:
				p += 8
			}
			instructions = instructions || flags&0x0100 != 0
			more = flags&0x0020 != 0
		}
		if instructions {
			if len(rec) < p+2 {
				return 0, short
			}
			p += 2 + int(be.Uint16(rec[p:]))
		}
		if p > len(rec) {
			return 0, short
		}
		return p, nil
	}
	if len(rec) < p+2*int(nContours)+2 {
		return 0, short
	}
	nPoints := 0
	for c := range int(nContours) {
		end := int(be.Uint16(rec[p+2*c:]))
		if end+1 < nPoints {
			return 0, fmt.Errorf("endPtsOfContours decreasing")
		}
		nPoints = end + 1
	}
	p += 2 * int(nContours)
	p += 2 + int(be.Uint16(rec[p:]))
	xLen, yLen := 0, 0
	for n := 0; n < nPoints; {
		if p >= len(rec) {
			return 0, short
		}
		f := rec[p]
		p++
		repeat := 1
		if f&0x08 != 0 {
			if p >= len(rec) {
				return 0, short
			}
			repeat += int(rec[p])
			p++
		}
		if f&0xC0 != 0 && (n > 0 || f&0x80 != 0) {
			return 0, fmt.Errorf("flag %#02x of point %d", f, n)
		}
		for range repeat {
			switch f & 0x12 {
			case 0x02, 0x12:
				xLen++
			case 0x00:
				xLen += 2
			}
			switch f & 0x24 {
			case 0x04, 0x24:
				yLen++
			case 0x00:
				yLen += 2
			}
		}
		n += repeat
		if n > nPoints {
			return 0, fmt.Errorf("flags repeat past the last point")
		}
	}
	p += xLen + yLen
	if p > len(rec) {
		return 0, short
	}
	return p, nil
}
