// Package textmetrics measures and wraps text the way Excalidraw 0.18.1 does,
// so that text elements created server-side get the width, height and line
// breaks the editor would compute for them.
//
// Excalidraw sizes a text element from canvas measurements
// (CanvasRenderingContext2D.measureText) made with its own web fonts:
// width is the widest line's advance width, height is
// lineCount × fontSize × lineHeight. This package reproduces that from the
// real metrics of the font files that the npm package
// @excalidraw/excalidraw@0.18.1 ships, extracted into metrics_table.go by the
// generator in gen/:
//
//   - per family: unitsPerEm, hhea ascender/descender, the advance width of
//     every code point the family's files cover (subset files merged through
//     their unicode-range descriptors, later-declared faces winning, as in the
//     browser), and the pair adjustments that shaping "ab" produces for
//     characters of Basic Latin + Latin-1, Greek and Cyrillic (GPOS
//     kerning, plus the fi/fl ligatures of Nunito) when both characters come
//     from the same file;
//   - the unitless line height per family (FONT_METADATA) and the CSS font
//     family list Excalidraw puts in the canvas font string;
//   - the character classes of Excalidraw's line-breaking rules.
//
// A line's width is Σ advance × fontSize / unitsPerEm plus the pair
// adjustments of adjacent characters. Kerning next to spaces is not applied:
// Chromium shapes space-separated words separately, so space pairs never
// reach the font.
//
// # Families
//
// Virgil (1), Helvetica (2), Cascadia (3), Excalifont (5, the default),
// Nunito (6), Lilita One (7), Comic Shanns (8) and Liberation Sans (9).
// Excalifont falls back to Xiaolai, the CJK hand-drawn font that ships with
// the package, so CJK text in Excalifont is measured with Xiaolai's real
// advances. Helvetica ships no file: Excalidraw asks the browser for the
// local "Helvetica". It is measured with Liberation Sans, which the package
// ships and which has the metrics of Arial, itself metric-compatible with
// Helvetica; fontconfig's metric aliases likewise resolve Helvetica to a
// face with these widths (Nimbus Sans, TeX Gyre Heros, Liberation Sans or
// Arimo) on Linux. Unknown family ids are measured as DefaultFamily and get its line
// height (Excalidraw's getLineHeight falls back the same way).
//
// # Fallback rule
//
// A character that none of the family's files (nor Xiaolai, for Excalifont)
// cover is drawn by the browser with another font. Its width is:
//
//  1. default-ignorable code points (ZWJ, ZWSP, variation selectors, soft
//     hyphen, …) and C0/C1 controls are zero-width, covered or not, as
//     HarfBuzz hides them (not a fallback);
//  2. an emoji sequence (a Regional Indicator pair, or an
//     Extended_Pictographic/Emoji_Presentation character with its modifier,
//     VS16, keycap, tag and ZWJ continuations, exactly the sequences
//     Excalidraw's emoji regex groups, plus any \p{Emoji} character followed
//     by VS16, such as the keycap "1️⃣") counts as one emoji of 2550/2048 em,
//     the advance of Noto Color Emoji, unless it is a single code point the
//     family covers (©, ™, … then use the family's glyph);
//  3. nonspacing and enclosing marks (Mn, Me) after one of the family's own
//     glyphs: 0 (after a fallback character they are shaped with it);
//  4. East Asian Wide and Fullwidth characters (CJK ideographs, kana, Hangul,
//     fullwidth forms): 1 em, the advance of every CJK system font;
//  5. anything else is measured with the declared fallback fonts, which
//     ship in fonts/ (FallbackFonts): Liberation Serif (Times New Roman
//     metrics: the browser's default font, which Excalidraw's font strings
//     fall through to) for Latin, Greek and Cyrillic, then DejaVu Sans
//     (Debian's fallback for other scripts: Hebrew, Arabic, Armenian,
//     Georgian, …). A run of such characters is shaped as one run, with
//     HarfBuzz's rules (github.com/go-text/typesetting), so Arabic joining
//     forms and lam-alef ligatures get their real advances. This is what
//     Chromium on Debian draws, to within float rounding
//     (editor.TestNonLatinTextWidths); other systems may pick other fonts;
//  6. a character no declared fallback has either: the advance of '0' in
//     Liberation Sans (1139/2048 ≈ 0.556 em, the typical width of a
//     proportional glyph).
//
// FallbackWidth reports the width a single character gets and whether this
// rule was used.
//
// # Wrapping
//
// Wrap reimplements element/textWrapping.ts of 0.18.1: existing newlines are
// kept, a line that fits is left alone, otherwise the (NFC-normalized) line is
// split into tokens (break before and after whitespace, after hyphens, around
// CJK characters unless held by opening/closing punctuation, before CJK
// currency, between closing and opening brackets; emoji sequences are tokens
// of their own) and tokens are packed greedily; whitespace never starts a
// wrap, trailing whitespace is dropped at a break and trimmed to what fits on
// the last line, and a token wider than the line is broken by characters
// (unless it contains an emoji). testdata/conformance.json holds the
// tokenizer's and wrapper's output from the package's own code, which the
// tests compare against.
//
// # Known differences from a browser
//
// Chromium on Linux without subpixel positioning rounds every glyph advance
// to whole pixels; MeasureLineWith with RoundGlyphAdvances models that.
// Contextual substitutions beyond character pairs (e.g. "ffi") and kerning
// outside Latin-1, Greek and Cyrillic are not modelled in the shipped fonts
// (the declared fallback fonts are fully shaped). Excalidraw's per-character width cache
// is keyed by UTF-16 code unit, so in the browser two astral characters with
// the same high surrogate share the first one's width while wrapping by
// characters; this package uses each character's own width.
//
// # Regenerating
//
// The table is committed; the fonts are not. To regenerate (needs Node, npm
// and the npm registry), run "go generate" in this directory: it runs
// "npm ci" in gen/ (which pins @excalidraw/excalidraw and fontkit in
// package-lock.json) and gen/generate.mjs, which rewrites metrics_table.go
// and testdata/conformance.json.
package textmetrics

//go:generate sh -c "cd gen && npm ci && node generate.mjs --out ../metrics_table.go --vectors ../testdata/conformance.json"
