package woff2

import (
	"strings"
	"testing"
)

func TestParseDirectory(t *testing.T) {
	var dir []byte
	dir = appendEntry(dir, testTable{tag: "head", data: make([]byte, 54)})
	dir = appendEntry(dir, testTable{tag: "glyf", data: make([]byte, 100), origLength: 300, transformed: true})
	dir = appendEntry(dir, testTable{tag: "loca", data: nil, origLength: 20, transformed: true})
	dir = appendEntry(dir, testTable{tag: "hmtx", version: 1, data: make([]byte, 9), origLength: 40, transformed: true})
	dir = appendEntry(dir, testTable{tag: "zzzz", data: make([]byte, 5)})
	dir = append(dir, 0xAA) // not part of the directory
	r := newReader(dir, "table directory")
	tables, total, err := parseDirectory(r, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := []tableEntry{
		{tag: "head", origLength: 54, length: 54, offset: 0},
		{tag: "glyf", origLength: 300, transformed: true, length: 100, offset: 54},
		{tag: "loca", origLength: 20, transformed: true, length: 0, offset: 154},
		{tag: "hmtx", origLength: 40, transformed: true, length: 9, offset: 154},
		{tag: "zzzz", origLength: 5, length: 5, offset: 163},
	}
	if len(tables) != len(want) {
		t.Fatalf("got %+v", tables)
	}
	for i := range want {
		if tables[i] != want[i] {
			t.Errorf("entry %d: got %+v, want %+v", i, tables[i], want[i])
		}
	}
	if total != 168 || r.len() != 1 {
		t.Errorf("total %d, %d bytes left; want 168, 1", total, r.len())
	}

	// A known tag may also be written explicitly, and glyf/loca at
	// version 3 are not transformed: no transformLength follows.
	dir = []byte{3<<6 | 0x3F, 'g', 'l', 'y', 'f', 0x10, 3<<6 | 11, 0x08}
	tables, total, err = parseDirectory(newReader(dir, "table directory"), 2)
	if err != nil || tables[0].tag != "glyf" || tables[0].transformed || tables[1].transformed || total != 0x18 {
		t.Errorf("null-transformed glyf and loca: %+v, %d, %v", tables, total, err)
	}
}

func TestParseDirectoryErrors(t *testing.T) {
	// entry is a directory entry whose lengths are both length.
	entry := func(tag string, version byte, transformed bool, length uint32) []byte {
		b := append([]byte{version<<6 | explicitTag}, tag...)
		b = appendBase128(b, length)
		if transformed {
			b = appendBase128(b, length)
		}
		return b
	}
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	glyf := entry("glyf", 0, true, 10)
	loca := entry("loca", 0, true, 0)
	for _, tc := range []struct {
		name string
		dir  []byte
		n    int
		err  string
	}{
		{"truncated", []byte{1}, 1, "truncated"},
		{"truncated tag", []byte{0x3F, 'a', 'b'}, 1, "truncated"},
		{"fewer entries than numTables", entry("head", 0, false, 54), 2, "truncated"},
		{"bad length", []byte{1, 0x80, 0x01}, 1, "leading zero"},
		{"transformed cmap", entry("cmap", 1, true, 4), 1, "unknown transform 1 of \"cmap\""},
		{"glyf version 1", cat(entry("glyf", 1, true, 10), loca), 2, "unknown transform 1 of \"glyf\""},
		{"glyf version 2", cat(entry("glyf", 2, true, 10), loca), 2, "unknown transform 2 of \"glyf\""},
		{"hmtx version 2", entry("hmtx", 2, true, 4), 1, "unknown transform 2 of \"hmtx\""},
		{"twice", cat(entry("head", 0, false, 54), entry("head", 0, false, 54)), 2, "twice"},
		{"glyf alone", glyf, 1, "come together"},
		{"loca alone", loca, 1, "come together"},
		{"glyf transformed, loca not", cat(glyf, entry("loca", 3, false, 8)), 2, "both be transformed"},
		{"loca with data", cat(glyf, entry("loca", 0, true, 4)), 2, "transformLength 4"},
		{"too large", cat(entry("aaaa", 0, false, 40<<20), entry("bbbb", 0, false, 30<<20)), 2, "more than"},
	} {
		if _, _, err := parseDirectory(newReader(tc.dir, "table directory"), tc.n); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.err)
		}
	}
}
