package render

import (
	"math"
	"strings"
	"sync"

	"github.com/mazznoer/csscolorparser"
)

// ParseColor reads a CSS colour as a browser's canvas does: hex, rgb(),
// hsl(), names, "transparent". ok is false for text a canvas would ignore
// (it keeps the previous colour; callers draw nothing instead).
func ParseColor(s string) (Color, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Color{}, false
	}
	if v, ok := colorCache.Load(s); ok {
		c := v.(parsedColor)
		return c.c, c.ok
	}
	p, err := csscolorparser.Parse(s)
	c := parsedColor{ok: err == nil}
	if c.ok {
		r, g, b, a := p.Clamp().RGBA255()
		c.c = Color{r, g, b, a}
	}
	colorCache.Store(s, c)
	return c.c, c.ok
}

type parsedColor struct {
	c  Color
	ok bool
}

// colorCache holds parsed colours: a scene uses a handful, thousands of
// times.
var colorCache sync.Map

// ThemeFilter is Excalidraw's dark theme, the CSS filter
// "invert(93%) hue-rotate(180deg)" applied to every colour drawn (images
// excepted): invert mixes each channel with its complement, and the hue
// rotation is the Filter Effects matrix for 180°, both in sRGB and clamped
// after each step, as the browser's filter chain is.
func ThemeFilter(c Color) Color {
	const amount = 0.93
	inv := func(v uint8) float64 {
		f := float64(v) / 255
		return f*(1-amount) + (1-f)*amount
	}
	r, g, b := inv(c.R), inv(c.G), inv(c.B)
	// hue-rotate(180deg): cos = -1, sin = 0.
	m := [3][3]float64{
		{0.213 - 0.787, 0.715 + 0.715, 0.072 + 0.072},
		{0.213 + 0.213, 0.715 - 0.285, 0.072 + 0.072},
		{0.213 + 0.213, 0.715 + 0.715, 0.072 - 0.928},
	}
	out := func(row [3]float64) uint8 {
		v := row[0]*r + row[1]*g + row[2]*b
		return uint8(math.Round(math.Max(0, math.Min(1, v)) * 255))
	}
	return Color{out(m[0]), out(m[1]), out(m[2]), c.A}
}
