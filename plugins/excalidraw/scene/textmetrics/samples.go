package textmetrics

import "strconv"

// Sample is a string to measure in a browser with Excalidraw's fonts and
// compare with this package.
type Sample struct {
	Name     string     // short identifier, unique per family
	Text     string     // may contain "\n"
	Family   FontFamily //
	FontSize float64    // px
	// MaxWidth, when positive, is a wrapping width to compare Wrap with the
	// browser's wrapText; 0 means measure only.
	MaxWidth float64
}

// sampleTexts is the corpus every family is measured with.
var sampleTexts = []struct {
	name     string
	text     string
	sizes    []float64
	maxWidth float64 // in em of the sample's size; 0 = no wrapping
}{
	{"pangram", "The quick brown fox jumps over the lazy dog", []float64{16, 20, 28, 36}, 0},
	{"upper", "SPHINX OF BLACK QUARTZ, JUDGE MY VOW", []float64{20}, 0},
	{"digits", "0123456789 +-*/= (42) [3.14] {x: 1}", []float64{20}, 0},
	{"punct", `!"#$%&'()*,-./:;<=>?@[\]^_` + "`{|}~", []float64{20}, 0},
	{"kerning", "AVATAR Toyota WAVE Yellow LTA Pay Tea VA AW", []float64{20, 36}, 0},
	{"ligatures", "office floor fluffy affinity", []float64{20}, 0},
	{"latin1", "Ærøskøbing façade naïve Größe déjà vu ¿Qué? ¡Sí! £5 €10 ©®", []float64{20}, 0},
	{"latin-ext", "Łódź Dvořák Şişli Ğ ő ű œ ŀ", []float64{20}, 0},
	{"cyrillic", "Съешь же ещё этих мягких французских булок", []float64{20}, 0},
	{"greek", "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία", []float64{20}, 0},
	{"cjk-zh", "这是一个中文句子，用于测试宽度。", []float64{20}, 0},
	{"cjk-ja", "日本語の文章「かぎ括弧」も、句読点も。", []float64{20}, 0},
	{"cjk-ko", "한국어 문장은 띄어쓰기를 사용합니다.", []float64{20}, 0},
	{"fullwidth", "ＡＢＣ　１２３！", []float64{20}, 0},
	{"emoji", "ok 😀 👍🏽 👨‍👩‍👧 🇩🇪 ❤️ done", []float64{20}, 0},
	{"mixed", "Deploy → prod (v2.1) — 完成 ✓", []float64{20}, 0},
	{"spaces", "  two  spaces   three   ", []float64{20}, 0},
	{"multiline", "first line\nsecond, longer line\n\nafter an empty line", []float64{20}, 0},
	{"long100", "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.", []float64{12, 20}, 0},
	{"wrap-sentence", "Agents create diagrams on the server and place text inside shapes that must wrap nicely.", []float64{20}, 10},
	{"wrap-longword", "Supercalifragilisticexpialidocious antidisestablishmentarianism", []float64{20}, 6},
	{"wrap-cjk", "这是一个中文句子，用于测试换行。日本語の文章「かぎ括弧」も。", []float64{20}, 5},
	{"wrap-hyphen", "well-known state-of-the-art hyphen-separated compound-words", []float64{20}, 7},
}

// Samples returns a corpus of strings per family (every Known family, every
// corpus entry) for a browser test to measure with canvas measureText, using
// FontString for the font, and compare with Measure/MeasureLine (and Wrap
// when MaxWidth is set).
func Samples() []Sample {
	var out []Sample
	for _, f := range Families() {
		for _, st := range sampleTexts {
			for _, size := range st.sizes {
				s := Sample{
					Name:     st.name,
					Text:     st.text,
					Family:   f,
					FontSize: size,
				}
				if len(st.sizes) > 1 {
					s.Name = st.name + "@" + strconv.FormatFloat(size, 'f', -1, 64)
				}
				if st.maxWidth > 0 {
					s.MaxWidth = st.maxWidth * size
				}
				out = append(out, s)
			}
		}
	}
	return out
}
