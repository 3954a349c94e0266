package textmetrics

import "sort"

// Character classes of Excalidraw's textWrapping.ts (COMMON, CJK and EMOJI),
// plus Default_Ignorable_Code_Point. The generator evaluates the package's
// own regular expressions for every code point and stores the result in
// classRanges.
const (
	clsSpace             uint16 = 1 << iota // COMMON.WHITESPACE: JavaScript \s
	clsHyphen                               // COMMON.HYPHEN: "-"
	clsOpening                              // COMMON.OPENING: < ( [ {
	clsClosing                              // COMMON.CLOSING: > ) ] } . , : ; ! ? … /
	clsCJK                                  // CJK.CHAR: Han, Hiragana, Katakana, Hangul and some symbols
	clsCJKOpening                           // CJK.OPENING: （［｛〈《「『【 …
	clsCJKClosing                           // CJK.CLOSING: ）］｝〉》」』】。、 …
	clsCurrency                             // CJK.CURRENCY: ￥￦￡￠＄
	clsRegionalIndicator                    // \p{RI}
	clsEmojiModifier                        // \p{Emoji_Modifier}
	clsEmojiMost                            // EMOJI.MOST: Extended_Pictographic or Emoji_Presentation
	clsEmojiAny                             // EMOJI.ANY: \p{Emoji}
	clsIgnorable                            // \p{Default_Ignorable_Code_Point}
)

// classRange gives bits to the code points lo..hi.
type classRange struct {
	lo, hi rune
	bits   uint16
}

var latinClasses [256]uint16

func initClasses() {
	for r := rune(0); r < 256; r++ {
		latinClasses[r] = searchClass(r)
	}
}

func searchClass(r rune) uint16 {
	i := sort.Search(len(classRanges), func(i int) bool { return classRanges[i].hi >= r })
	if i < len(classRanges) && classRanges[i].lo <= r {
		return classRanges[i].bits
	}
	return 0
}

// classOf returns r's class bits.
func classOf(r rune) uint16 {
	if r >= 0 && r < 256 {
		return latinClasses[r]
	}
	return searchClass(r)
}

func isSpace(r rune) bool { return classOf(r)&clsSpace != 0 }
