package build

import (
	"encoding/json"
	"strings"
)

// fontFamily is one of Excalidraw's FONT_FAMILY entries. id 4 is unused:
// Excalidraw once used it for a font it no longer ships.
type fontFamily struct {
	id   int
	name string // the schema's spelling: lowercase, words joined by '-'
}

// fontFamilies are the fonts 0.18.1 ships, in id order.
var fontFamilies = []fontFamily{
	{1, "virgil"},
	{2, "helvetica"},
	{3, "cascadia"},
	{5, "excalifont"},
	{6, "nunito"},
	{7, "lilita-one"},
	{8, "comic-shanns"},
	{9, "liberation-sans"},
}

// defaultFontFamily is DEFAULT_FONT_FAMILY (Excalifont).
const defaultFontFamily = 5

// defaultFontSize is DEFAULT_FONT_SIZE.
const defaultFontSize = 20

// fontKey folds a font name for lookup: case, spaces, '-' and '_' do not
// matter, so "Lilita One", "lilita-one" and "LILITA_ONE" are one font.
func fontKey(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r == ' ' || r == '-' || r == '_' {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// parseFontFamily reads a fontFamily input: a font id or name. Absent
// (empty raw) gives the default; ok is false for anything else.
func parseFontFamily(raw json.RawMessage) (int, bool) {
	if len(raw) == 0 {
		return defaultFontFamily, true
	}
	var n float64
	if err := json.Unmarshal(raw, &n); err == nil {
		id := int(n)
		return id, float64(id) == n && fontByID(id)
	}
	var name string
	if err := json.Unmarshal(raw, &name); err != nil {
		return 0, false
	}
	key := fontKey(name)
	for _, f := range fontFamilies {
		if fontKey(f.name) == key {
			return f.id, true
		}
	}
	return 0, false
}

// fontByID reports whether id is a font 0.18.1 ships.
func fontByID(id int) bool {
	for _, f := range fontFamilies {
		if f.id == id {
			return true
		}
	}
	return false
}
