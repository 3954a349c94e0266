package textmetrics

import (
	"bufio"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The committed table must say where it came from: the package version and
// every font file with its hash.
func TestTableHeaderNamesSourceAndFiles(t *testing.T) {
	f, err := os.Open("metrics_table.go")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var header []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "package ") {
			break
		}
		header = append(header, line)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(header, "\n")
	if !strings.HasPrefix(header[0], "// Code generated ") || !strings.HasSuffix(header[0], "DO NOT EDIT.") {
		t.Errorf("first line is not a generated-code marker: %q", header[0])
	}
	if !strings.Contains(header[0], "@excalidraw/excalidraw@0.18.1") {
		t.Errorf("header does not name @excalidraw/excalidraw@0.18.1: %q", header[0])
	}
	if sourcePackage != "@excalidraw/excalidraw" || sourceVersion != "0.18.1" || SourceVersion != "0.18.1" {
		t.Errorf("source = %s@%s", sourcePackage, sourceVersion)
	}
	if !strings.Contains(text, fontParser) {
		t.Errorf("header does not name the font parser %s", fontParser)
	}
	sha := regexp.MustCompile(`^[0-9a-f]{64}$`)
	for _, sf := range sourceFiles {
		if !sha.MatchString(sf.sha256) {
			t.Errorf("%s: bad sha256 %q", sf.file, sf.sha256)
		}
		if !strings.HasSuffix(sf.file, ".woff2") || sf.size <= 0 {
			t.Errorf("bad source file %+v", sf)
		}
		want := "//\t" + sf.file + " " + strconv.Itoa(sf.size) + " sha256:" + sf.sha256
		if !strings.Contains(text, want) {
			t.Errorf("header lacks %q", want)
		}
	}
	// What 0.18.1 ships, per folder of dist/prod/fonts (Assistant is shipped
	// but registered by no family, so it is not read).
	wantCount := map[string]int{
		"Virgil": 1, "Cascadia": 1, "Liberation": 1, "Excalifont": 7,
		"Nunito": 5, "Lilita": 2, "ComicShanns": 4, "Xiaolai": 209,
	}
	got := map[string]int{}
	for _, sf := range sourceFiles {
		got[strings.SplitN(sf.file, "/", 2)[0]]++
	}
	for dir, n := range wantCount {
		if got[dir] != n {
			t.Errorf("%s: %d files, want %d", dir, got[dir], n)
		}
	}
	if len(got) != len(wantCount) {
		t.Errorf("font folders = %v", got)
	}
	// Every face's source is listed with the same hash.
	byFile := map[string]string{}
	for _, sf := range sourceFiles {
		byFile[sf.file] = sf.sha256
	}
	for _, ft := range allFaceTables() {
		for _, src := range ft.sources {
			if byFile[src.File] != src.SHA256 {
				t.Errorf("%s: source %s hash %s not in header list", ft.name, src.File, src.SHA256)
			}
		}
	}
}

func allFaceTables() []*faceTable {
	seen := map[*faceTable]bool{}
	var out []*faceTable
	for _, fam := range familyTables {
		for _, ft := range fam.faces {
			if !seen[ft] {
				seen[ft] = true
				out = append(out, ft)
			}
		}
	}
	return out
}

func TestTablesAreWellFormed(t *testing.T) {
	for _, ft := range allFaceTables() {
		if ft.unitsPerEm <= 0 || ft.ascender <= 0 || ft.descender >= 0 {
			t.Errorf("%s: bad metrics %d/%d/%d", ft.name, ft.unitsPerEm, ft.ascender, ft.descender)
		}
		if len(ft.sources) == 0 {
			t.Errorf("%s: no sources", ft.name)
		}
		prevHi := rune(-1)
		for _, r := range ft.runs {
			if r.lo > r.hi || r.lo <= prevHi {
				t.Fatalf("%s: run %+v out of order", ft.name, r)
			}
			prevHi = r.hi
			if r.off >= 0 && int(r.off)+int(r.hi-r.lo) >= len(ft.advs) {
				t.Fatalf("%s: run %+v past the pool (%d)", ft.name, r, len(ft.advs))
			}
		}
		for _, k := range ft.kern {
			inPairs := func(r rune) bool { return r >= 0x21 && r <= 0xff || r >= 0x370 && r <= 0x4ff }
			if !inPairs(k.l) || !inPairs(k.r) || k.v == 0 {
				t.Errorf("%s: unexpected pair %+v", ft.name, k)
			}
			if ft.advance(k.l) < 0 || ft.advance(k.r) < 0 {
				t.Errorf("%s: pair %+v for characters the table lacks", ft.name, k)
			}
			if got := ft.kerning(k.l, k.r); got != int32(k.v) {
				t.Errorf("%s: kerning(%q,%q) = %d, want %d", ft.name, k.l, k.r, got, k.v)
			}
		}
	}
	prev := rune(-1)
	for _, c := range classRanges {
		if c.lo > c.hi || c.lo <= prev || c.bits == 0 {
			t.Fatalf("class range %+v out of order", c)
		}
		prev = c.hi
	}
}

// Every family covers printable ASCII with positive advances (the space
// included), from its own files.
func TestEveryFamilyCoversASCII(t *testing.T) {
	for _, f := range Families() {
		fam := family(f)
		for r := rune(0x20); r <= 0x7e; r++ {
			ft, a := fam.resolve(r)
			if ft == nil {
				t.Errorf("%v lacks %q", f, r)
				continue
			}
			if ft != fam.faces[0] {
				t.Errorf("%v: %q comes from %s, not the family's own files", f, r, ft.name)
			}
			if a <= 0 {
				t.Errorf("%v: %q has advance %d", f, r, a)
			}
			if w, used := FallbackWidth(r, f, 20); used || w <= 0 {
				t.Errorf("%v: FallbackWidth(%q) = %v, %v", f, r, w, used)
			}
		}
	}
}

// The tables' vertical metrics agree with Excalidraw's FONT_METADATA, except
// for Helvetica whose metadata describes the real Helvetica.
func TestVerticalMetricsMatchFontMetadata(t *testing.T) {
	for _, fam := range familyTables {
		ft := fam.faces[0]
		if fam.standIn != "" {
			if fam.id != Helvetica || ft != faceLiberationSans {
				t.Errorf("%s: unexpected stand-in %q", fam.name, fam.standIn)
			}
			continue
		}
		if ft.unitsPerEm != fam.metaUnitsPerEm || ft.ascender != fam.metaAscender || ft.descender != fam.metaDescender {
			t.Errorf("%s: file %d/%d/%d, FONT_METADATA %d/%d/%d", fam.name,
				ft.unitsPerEm, ft.ascender, ft.descender, fam.metaUnitsPerEm, fam.metaAscender, fam.metaDescender)
		}
	}
}

func TestFamilyChains(t *testing.T) {
	if got := family(Excalifont).faces; len(got) != 2 || got[1] != faceXiaolai {
		t.Errorf("Excalifont chain = %v", names(got))
	}
	for _, f := range Families() {
		if f == Excalifont {
			continue
		}
		if got := family(f).faces; len(got) != 1 {
			t.Errorf("%v chain = %v", f, names(got))
		}
	}
	// Subset files were merged: Excalifont has Latin, Cyrillic and Greek.
	for _, r := range []rune{'a', 'ž', 'Ж', 'λ'} {
		if faceExcalifont.advance(r) < 0 {
			t.Errorf("Excalifont lacks %q", r)
		}
	}
	if faceXiaolai.advance('中') != 1000 || faceXiaolai.advance('a') >= 0 {
		t.Errorf("Xiaolai: 中=%d a=%d", faceXiaolai.advance('中'), faceXiaolai.advance('a'))
	}
}

func names(ts []*faceTable) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.name)
	}
	return out
}
