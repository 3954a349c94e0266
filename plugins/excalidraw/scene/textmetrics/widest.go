package textmetrics

import "strings"

// WidestWord is the width in px of the widest piece of text that Wrap
// must keep on one line unless it breaks it inside a word: the widest of
// the tokens Excalidraw's wrapper packs (words, with a trailing hyphen;
// emoji sequences), whitespace aside. A text wrapped to at least this
// width breaks only between words.
func WidestWord(text string, f FontFamily, fontSize float64) float64 {
	fam := family(f)
	widest := 0.0
	for _, line := range strings.Split(NormalizeText(text), "\n") {
		for _, tok := range tokenize(line) {
			if strings.TrimFunc(tok, isSpace) == "" {
				continue
			}
			widest = max(widest, measureLine(tok, fam, fontSize, false))
		}
	}
	return widest
}
