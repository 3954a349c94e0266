package textmetrics

import (
	"math"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// This file reimplements the line wrapping of Excalidraw 0.18.1
// (element/textWrapping.ts) on top of a line-width function.

// runeAt decodes the code point at byte offset i (utf8.RuneError, 0 past the
// end).
func runeAt(s string, i int) (rune, int) {
	if i >= len(s) {
		return utf8.RuneError, 0
	}
	return utf8.DecodeRuneInString(s[i:])
}

// emojiMatch returns the end of the emoji sequence starting at byte offset i,
// or -1. The sequences are those of Excalidraw's emoji expression: a pair of
// Regional Indicators, or an Extended_Pictographic/Emoji_Presentation
// character followed by an optional joiner (a modifier, VS16 with an optional
// keycap, or a tag sequence) and any number of ZWJ-linked flags or emoji
// (each with its optional joiner).
func emojiMatch(s string, i int) int {
	r, n := runeAt(s, i)
	if n == 0 {
		return -1
	}
	c := classOf(r)
	if c&clsRegionalIndicator != 0 {
		if r2, n2 := runeAt(s, i+n); n2 > 0 && classOf(r2)&clsRegionalIndicator != 0 {
			return i + n + n2
		}
	}
	if c&clsEmojiMost == 0 {
		return -1
	}
	j := emojiJoiner(s, i+n)
	for {
		z, zn := runeAt(s, j)
		if zn == 0 || z != 0x200D {
			return j
		}
		k := j + zn
		a, an := runeAt(s, k)
		if an == 0 {
			return j
		}
		if classOf(a)&clsRegionalIndicator != 0 {
			if b, bn := runeAt(s, k+an); bn > 0 && classOf(b)&clsRegionalIndicator != 0 {
				j = k + an + bn
				continue
			}
		}
		if classOf(a)&clsEmojiAny == 0 {
			return j
		}
		j = emojiJoiner(s, k+an)
	}
}

// emojiJoiner skips the optional joiner at byte offset j.
func emojiJoiner(s string, j int) int {
	r, n := runeAt(s, j)
	switch {
	case n == 0:
		return j
	case classOf(r)&clsEmojiModifier != 0:
		return j + n
	case r == 0xFE0F:
		if k, kn := runeAt(s, j+n); kn > 0 && k == 0x20E3 {
			return j + n + kn
		}
		return j + n
	case r >= 0xE0020 && r <= 0xE007E:
		k := j + n
		for {
			t, tn := runeAt(s, k)
			if tn == 0 {
				return j
			}
			if t == 0xE007F {
				return k + tn
			}
			if t < 0xE0020 || t > 0xE007E {
				return j
			}
			k += tn
		}
	}
	return j
}

// containsEmoji reports whether Excalidraw's emoji expression matches
// anywhere in s.
func containsEmoji(s string) bool {
	for i := 0; i < len(s); {
		if emojiMatch(s, i) > i {
			return true
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	return false
}

// breakBetween reports a zero-width break opportunity between prev and cur.
func breakBetween(prev, cur rune) bool {
	p, c := classOf(prev), classOf(cur)
	switch {
	case c&clsSpace != 0: // before whitespace
		return true
	case p&(clsSpace|clsHyphen) != 0: // after whitespace and hyphens
		return true
	case c&(clsCJK|clsCurrency) != 0 && p&(clsOpening|clsCJKOpening) == 0:
		return true // before CJK and currency, unless held by an opening symbol
	case p&clsCJK != 0 && c&(clsHyphen|clsClosing|clsCJKClosing) == 0:
		return true // after CJK, unless followed by a hyphen or closing symbol
	case c&clsCJKOpening != 0 && p&(clsCJKOpening|clsOpening) == 0:
		return true // before a run of CJK opening symbols
	case p&clsCJKClosing != 0 && c&(clsCJKClosing|clsClosing) == 0:
		return true // after a run of CJK closing symbols
	case p&clsClosing != 0 && c&clsClosing == 0 && c&clsOpening != 0:
		return true // between closing and opening symbols
	}
	return false
}

// tokenize splits a line (after NFC normalization) into the tokens
// Excalidraw's wrapper packs: emoji sequences are tokens of their own, and
// the text between them is cut at every break opportunity.
func tokenize(line string) []string {
	s := norm.NFC.String(line)
	var tokens []string
	p := 0
	for q := 0; q < len(s); {
		if e := emojiMatch(s, q); e > q {
			if q > p {
				tokens = append(tokens, s[p:q])
			}
			tokens = append(tokens, s[q:e])
			p, q = e, e
			continue
		}
		cur, n := utf8.DecodeRuneInString(s[q:])
		if q > p {
			prev, _ := utf8.DecodeLastRuneInString(s[:q])
			if breakBetween(prev, cur) {
				tokens = append(tokens, s[p:q])
				p = q
			}
		}
		q += n
	}
	if p < len(s) {
		tokens = append(tokens, s[p:])
	}
	return tokens
}

// wrapText wraps every line of text to maxWidth.
func wrapText(text string, maxWidth float64, lineWidth func(string) float64) string {
	if math.IsNaN(maxWidth) || math.IsInf(maxWidth, 0) || maxWidth < 0 {
		return text
	}
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		if lineWidth(line) <= maxWidth {
			lines = append(lines, line)
			continue
		}
		lines = append(lines, wrapLine(line, maxWidth, lineWidth)...)
	}
	return strings.Join(lines, "\n")
}

// singleRune reports whether s is exactly one code point.
func singleRune(s string) bool {
	if s == "" {
		return false
	}
	_, n := utf8.DecodeRuneInString(s)
	return n == len(s)
}

func hasSpace(s string) bool {
	for _, r := range s {
		if isSpace(r) {
			return true
		}
	}
	return false
}

// trimEnd is JavaScript's String.prototype.trimEnd.
func trimEnd(s string) string {
	return strings.TrimRightFunc(s, isSpace)
}

// wrapLine greedily packs the tokens of one line that does not fit.
func wrapLine(line string, maxWidth float64, lineWidth func(string) float64) []string {
	var lines []string
	tokens := tokenize(line)
	current := ""
	currentWidth := 0.0
	for i := 0; i < len(tokens); {
		token := tokens[i]
		test := current + token
		var testWidth float64
		if singleRune(token) {
			// Single characters are added with their own width (no kerning
			// with the previous character), as Excalidraw does.
			testWidth = currentWidth + lineWidth(token)
		} else {
			testWidth = lineWidth(test)
		}
		if hasSpace(token) || testWidth <= maxWidth {
			current, currentWidth = test, testWidth
			i++
			continue
		}
		if current == "" {
			// The token alone is too wide: break it by characters.
			parts := wrapWord(token, maxWidth, lineWidth)
			trailing := ""
			if len(parts) > 0 {
				trailing = parts[len(parts)-1]
				lines = append(lines, parts[:len(parts)-1]...)
			}
			current, currentWidth = trailing, lineWidth(trailing)
			i++
			continue
		}
		// Start a new line; the token is retried there.
		lines = append(lines, trimEnd(current))
		current, currentWidth = "", 0
	}
	if current != "" {
		lines = append(lines, trimLine(current, maxWidth, lineWidth))
	}
	return lines
}

// wrapWord breaks a word by characters; words with emoji stay whole.
func wrapWord(word string, maxWidth float64, lineWidth func(string) float64) []string {
	if containsEmoji(word) {
		return []string{word}
	}
	var lines []string
	current := ""
	currentWidth := 0.0
	for _, r := range word {
		ch := string(r)
		w := lineWidth(ch)
		if currentWidth+w <= maxWidth {
			current += ch
			currentWidth += w
			continue
		}
		if current != "" {
			lines = append(lines, current)
		}
		current, currentWidth = ch, w
	}
	if current != "" {
		lines = append(lines, current)
	}
	return lines
}

// lineTerminator is what "." in a JavaScript regular expression refuses.
func lineTerminator(r rune) bool {
	return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029
}

// splitTrailingSpace splits line as /^(.+?)(\s+)$/ does: the shortest
// non-empty head without line terminators followed by whitespace to the end.
func splitTrailingSpace(line string) (head, spaces string, ok bool) {
	k := len(strings.TrimRightFunc(line, isSpace)) // start of the trailing run
	if k == len(line) {
		return "", "", false
	}
	if k == 0 {
		_, n := utf8.DecodeRuneInString(line)
		k = n
		if k == len(line) {
			return "", "", false
		}
	}
	head = line[:k]
	if strings.IndexFunc(head, lineTerminator) >= 0 {
		return "", "", false
	}
	return head, line[k:], true
}

// trimLine drops the trailing whitespace of the last line that does not fit
// within maxWidth.
func trimLine(line string, maxWidth float64, lineWidth func(string) float64) string {
	if lineWidth(line) <= maxWidth {
		return line
	}
	trimmed, spaces, ok := splitTrailingSpace(line)
	if !ok {
		trimmed, spaces = trimEnd(line), ""
	}
	trimmedWidth := lineWidth(trimmed)
	for _, r := range spaces {
		w := trimmedWidth + lineWidth(string(r))
		if w > maxWidth {
			break
		}
		trimmed += string(r)
		trimmedWidth = w
	}
	return trimmed
}
