package woff2

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"github.com/go-text/typesetting/font"
	ot "github.com/go-text/typesetting/font/opentype"

	"github.com/dshgo/dsh/plugins/excalidraw/editor"
)

// FuzzDecode checks that Decode never panics and that what it returns,
// when not an error, is a font that parses. Most tables pass through
// Decode untouched, and go-text may reject or even panic on those (a
// mutated GDEF, a missing cmap), which says nothing of the decoder; so
// the whole font must be a well-formed SFNT (go-text's loader reads its
// directory; checksums; a long loca consistent with glyf; every glyph
// record well-formed), and the tables Decode makes, with a minimal
// maxp and cmap, a font go-text reads every glyph's outline of without
// panicking.
func FuzzDecode(f *testing.F) {
	if editor.Assets() != nil {
		f.Add(editorFont(f, "Excalifont/")) // the smallest, for speed
		f.Add(editorFont(f, "Nunito/"))     // with an overlapSimpleBitmap
	}
	f.Add(woff2File{flavor: flavorCFF, tables: cffTables()}.encode())
	f.Add(woff2File{flavor: flavorCFF, tables: cffTables(), meta: []byte("m"), priv: []byte("p")}.encode())
	f.Fuzz(func(t *testing.T, b []byte) {
		sfnt, err := Decode(b)
		if err != nil {
			return
		}
		if err := checkDecoded(sfnt); err != nil {
			t.Fatal(err)
		}
	})
}

// checkDecoded checks what Decode returned, as FuzzDecode says.
func checkDecoded(sfnt []byte) error {
	if _, err := ot.NewLoader(bytes.NewReader(sfnt)); err != nil {
		return err
	}
	for _, check := range []func([]byte) error{checkSFNT, checkGlyfLoca, checkGlyphs} {
		if err := check(sfnt); err != nil {
			return err
		}
	}
	tables, _ := sfntTables(sfnt)
	if tables["glyf"] == nil {
		return nil
	}
	n := binary.BigEndian.Uint16(tables["maxp"][4:])
	own, err := writeSFNT(flavorTrueType, []sfntTable{
		{"head", bytes.Clone(tables["head"])},
		{"maxp", binary.BigEndian.AppendUint16([]byte{0, 0, 0x50, 0}, n)},
		{"cmap", cffTables()[5].data},
		{"loca", tables["loca"]},
		{"glyf", tables["glyf"]},
	})
	if err != nil {
		return err
	}
	face, err := parseFace(own)
	if err != nil {
		return fmt.Errorf("glyf, loca and head: %v", err)
	}
	for gid := range int(n) {
		if _, err := outline(face, font.GID(gid)); err != nil && !errors.Is(err, errNoOutline) {
			return err
		}
	}
	return nil
}
