package lint

import (
	"math"
	"strconv"
	"strings"
)

// rgba is a colour with channels in [0, 1], not premultiplied.
type rgba struct{ r, g, b, a float64 }

var white = rgba{1, 1, 1, 1}

// namedColors are the CSS names found in Excalidraw files: "transparent"
// (the default background), and the basic keywords older files and
// hand-edited ones use. Excalidraw's palette itself is all hex.
var namedColors = map[string]string{
	"transparent": "#00000000",
	"black":       "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#008000",
	"blue": "#0000ff", "yellow": "#ffff00", "orange": "#ffa500", "purple": "#800080",
	"gray": "#808080", "grey": "#808080", "silver": "#c0c0c0", "maroon": "#800000",
	"olive": "#808000", "lime": "#00ff00", "aqua": "#00ffff", "cyan": "#00ffff",
	"teal": "#008080", "navy": "#000080", "fuchsia": "#ff00ff", "magenta": "#ff00ff",
	"pink": "#ffc0cb", "brown": "#a52a2a", "lightgray": "#d3d3d3", "lightgrey": "#d3d3d3",
	"darkgray": "#a9a9a9", "darkgrey": "#a9a9a9",
}

// parseColor reads #rgb, #rgba, #rrggbb, #rrggbbaa, rgb()/rgba() with
// 0–255 channels, and the names above.
func parseColor(s string) (rgba, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if n, ok := namedColors[s]; ok {
		s = n
	}
	if strings.HasPrefix(s, "rgb") {
		return parseRGBFunc(s)
	}
	if !strings.HasPrefix(s, "#") {
		return rgba{}, false
	}
	h := s[1:]
	if len(h) == 3 || len(h) == 4 {
		var b strings.Builder
		for _, c := range h {
			b.WriteRune(c)
			b.WriteRune(c)
		}
		h = b.String()
	}
	if len(h) != 6 && len(h) != 8 {
		return rgba{}, false
	}
	v, err := strconv.ParseUint(h, 16, 32)
	if err != nil {
		return rgba{}, false
	}
	if len(h) == 6 {
		v = v<<8 | 0xff
	}
	return rgba{float64(v>>24&0xff) / 255, float64(v>>16&0xff) / 255, float64(v>>8&0xff) / 255, float64(v&0xff) / 255}, true
}

func parseRGBFunc(s string) (rgba, bool) {
	open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || close < open {
		return rgba{}, false
	}
	parts := strings.FieldsFunc(s[open+1:close], func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
	if len(parts) != 3 && len(parts) != 4 {
		return rgba{}, false
	}
	c := rgba{a: 1}
	ch := []*float64{&c.r, &c.g, &c.b, &c.a}
	for i, p := range parts {
		pct := strings.HasSuffix(p, "%")
		f, err := strconv.ParseFloat(strings.TrimSuffix(p, "%"), 64)
		if err != nil || !finite(f) {
			return rgba{}, false
		}
		switch {
		case pct:
			f /= 100
		case i < 3:
			f /= 255
		}
		*ch[i] = math.Max(0, math.Min(1, f))
	}
	return c, true
}

// over composites c over an opaque backdrop.
func (c rgba) over(b rgba) rgba {
	mix := func(x, y float64) float64 { return x*c.a + y*(1-c.a) }
	return rgba{mix(c.r, b.r), mix(c.g, b.g), mix(c.b, b.b), 1}
}

// fade multiplies the alpha by an element's opacity (0–100).
func (c rgba) fade(opacity float64) rgba {
	c.a *= opacity / 100
	return c
}

// luminance is WCAG 2.x relative luminance.
func (c rgba) luminance() float64 {
	lin := func(v float64) float64 {
		if v <= 0.04045 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.r) + 0.7152*lin(c.g) + 0.0722*lin(c.b)
}

// contrast is the WCAG contrast ratio of two opaque colours, 1 to 21.
func contrast(a, b rgba) float64 {
	la, lb := a.luminance(), b.luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// hue is the colour's hue in degrees [0, 360) and its chroma (the
// largest channel less the smallest, 0 for greys).
func (c rgba) hue() (deg, chroma float64) {
	hi, lo := math.Max(c.r, math.Max(c.g, c.b)), math.Min(c.r, math.Min(c.g, c.b))
	chroma = hi - lo
	if chroma == 0 {
		return 0, 0
	}
	switch hi {
	case c.r:
		deg = 60 * math.Mod((c.g-c.b)/chroma, 6)
	case c.g:
		deg = 60 * ((c.b-c.r)/chroma + 2)
	default:
		deg = 60 * ((c.r-c.g)/chroma + 4)
	}
	if deg < 0 {
		deg += 360
	}
	return deg, chroma
}

// sameHue reports whether two opaque colours are shades of one hue: both
// coloured (chroma at least minPairChroma) and at most maxPairHueGap
// degrees apart, as a palette's stroke shade and its light fill are.
func sameHue(a, b rgba) bool {
	ha, ca := a.hue()
	hb, cb := b.hue()
	d := math.Abs(ha - hb)
	return ca >= minPairChroma && cb >= minPairChroma && math.Min(d, 360-d) <= maxPairHueGap
}

// normColor is a colour's spelling for counting distinct colours.
func normColor(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
