package build

import (
	"encoding/json"
	"testing"
)

func TestParseFontFamily(t *testing.T) {
	cases := []struct {
		in   string
		want int
		ok   bool
	}{
		{"", defaultFontFamily, true},
		{"1", 1, true},
		{"5", 5, true},
		{"9", 9, true},
		{"4", 0, false},
		{"10", 0, false},
		{`"excalifont"`, 5, true},
		{`"Lilita One"`, 7, true},
		{`"lilita-one"`, 7, true},
		{`"COMIC_SHANNS"`, 8, true},
		{`"liberation-sans"`, 9, true},
		{`"comic sans"`, 0, false},
		{`true`, 0, false},
		{`1.5`, 0, false},
	}
	for _, c := range cases {
		got, ok := parseFontFamily(json.RawMessage(c.in))
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("parseFontFamily(%s) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestFontNamesAreSchemaSpelling(t *testing.T) {
	for _, f := range fontFamilies {
		got, ok := parseFontFamily(json.RawMessage(`"` + f.name + `"`))
		if !ok || got != f.id {
			t.Errorf("name %q does not parse back to %d", f.name, f.id)
		}
	}
}
