// Package svg writes a render.Picture as an SVG document shaped like
// Excalidraw's exportToSvg: rough strokes as paths, text as text with the
// fonts it uses embedded (@font-face, woff2), frames as clip paths, arrow
// labels cut out of their arrows with masks, and the dark theme as a
// filter on the root.
package svg

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"image"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// themeFilter and imageFilter are Excalidraw's THEME_FILTER and
// IMAGE_INVERT_FILTER: the dark theme, and its undoing for raster images.
const (
	themeFilter = "invert(93%) hue-rotate(180deg)"
	imageFilter = "invert(100%) hue-rotate(180deg) saturate(1.25)"
)

// Write writes pic as SVG. fs supplies the fonts to embed, each cut to
// the characters the picture draws with it; nil embeds none (text then
// falls back to the viewer's fonts).
func Write(out io.Writer, pic *render.Picture, fs *fonts.Set) error {
	return write(out, pic, fs, true)
}

// write is Write, with whole font files when subset is false.
func write(out io.Writer, pic *render.Picture, fs *fonts.Set, subset bool) error {
	w := &writer{Writer: bufio.NewWriterSize(out, 64<<10), subset: subset}
	width, height := pic.View.W(), pic.View.H()
	w.WriteString(`<svg version="1.1" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 `)
	w.num(width)
	w.WriteByte(' ')
	w.num(height)
	w.WriteString(`" width="`)
	w.num(width * pic.Scale)
	w.WriteString(`" height="`)
	w.num(height * pic.Scale)
	w.WriteByte('"')
	if pic.Dark {
		fmt.Fprintf(w, ` filter="%s"`, themeFilter)
	}
	w.WriteString(">\n<!-- svg-source:dsh (Excalidraw 0.18.1 rendering) -->\n<defs>")
	if err := w.fonts(pic, fs); err != nil {
		return err
	}
	clips := map[string]bool{}
	for i := range pic.Items {
		it := &pic.Items[i]
		if it.Clip != nil && !clips[it.Clip.FrameID] {
			clips[it.Clip.FrameID] = true
			c := it.Clip
			fmt.Fprintf(w, `<clipPath id="%s"><rect transform="%s" width="%s" height="%s" rx="%s" ry="%s"></rect></clipPath>`,
				attr("clip-"+c.FrameID), matrix(c.Transform), n(c.Box.W()), n(c.Box.H()), n(c.Radius), n(c.Radius))
		}
		if it.Knockout != nil {
			k := it.Knockout
			v := pic.View
			fmt.Fprintf(w, `<mask id="%s"><rect x="%s" y="%s" width="%s" height="%s" fill="#fff"></rect><rect x="%s" y="%s" width="%s" height="%s" fill="#000"></rect></mask>`,
				attr(fmt.Sprintf("mask-%d", i)), n(v.MinX), n(v.MinY), n(v.W()), n(v.H()), n(k.MinX), n(k.MinY), n(k.W()), n(k.H()))
		}
	}
	w.WriteString("</defs>\n")
	if pic.Background != nil {
		fmt.Fprintf(w, `<rect x="0" y="0" width="%s" height="%s" fill="%s"></rect>`+"\n", n(width), n(height), hex(*pic.Background))
	}
	fmt.Fprintf(w, `<g transform="translate(%s %s)">`+"\n", n(-pic.View.MinX), n(-pic.View.MinY))
	for i := range pic.Items {
		w.item(i, &pic.Items[i], pic.Dark)
	}
	w.WriteString("</g>\n</svg>\n")
	return w.Flush()
}

// writer is the SVG being written, with a scratch buffer for numbers and
// the font-family list of each text (by item), which names Xiaolai when
// the text draws characters with it.
type writer struct {
	*bufio.Writer
	buf      []byte
	families map[*render.Text]string
	subset   bool // fonts cut to the characters drawn; whole files otherwise
}

// num writes f as n does.
func (w *writer) num(f float64) {
	w.buf = appendNum(w.buf[:0], f)
	w.Write(w.buf)
}

// color writes c as #rrggbb.
func (w *writer) color(c render.Color) {
	w.buf = appendColor(w.buf[:0], c)
	w.Write(w.buf)
}

// attr writes s escaped for an attribute value.
func (w *writer) attr(s string) {
	if strings.ContainsAny(s, `&<>"`) {
		s = attrEscaper.Replace(s)
	}
	w.WriteString(s)
}

// matrix writes m as matrix() or translate().
func (w *writer) matrix(m render.Affine) {
	w.buf = appendMatrix(w.buf[:0], m)
	w.Write(w.buf)
}

func (w *writer) item(i int, it *render.Item, dark bool) {
	wraps := 0
	if it.Clip != nil {
		w.WriteString(`<g clip-path="url(#`)
		w.attr("clip-" + it.Clip.FrameID)
		w.WriteString(`)">`)
		wraps++
	}
	if it.Knockout != nil {
		w.WriteString(`<g mask="url(#mask-`)
		w.buf = strconv.AppendInt(w.buf[:0], int64(i), 10)
		w.Write(w.buf)
		w.WriteString(`)">`)
		wraps++
	}
	w.WriteString(`<g data-id="`)
	w.attr(it.ID)
	w.WriteString(`" transform="`)
	w.matrix(it.Transform)
	w.WriteByte('"')
	if it.Opacity < 1 {
		w.WriteString(` opacity="`)
		w.num(it.Opacity)
		w.WriteByte('"')
	}
	if len(it.Shapes) > 0 {
		w.WriteString(` stroke-linecap="round" stroke-linejoin="round"`)
	}
	w.WriteString(">")
	for j := range it.Shapes {
		w.shape(&it.Shapes[j])
	}
	if it.Text != nil {
		w.text(it.Text)
	}
	if it.Image != nil {
		writeImage(w, it, dark)
	}
	w.WriteString("</g>")
	for range wraps {
		w.WriteString("</g>")
	}
	w.WriteString("\n")
}

func (w *writer) shape(s *render.Shape) {
	w.WriteString(`<path d="`)
	w.buf = appendPath(w.buf[:0], s.Path)
	w.Write(w.buf)
	w.WriteByte('"')
	if s.Paint.Fill != nil {
		w.WriteString(` fill="`)
		w.color(*s.Paint.Fill)
		w.WriteByte('"')
		if a := s.Paint.Fill.A; a < 255 {
			w.WriteString(` fill-opacity="`)
			w.num(float64(a) / 255)
			w.WriteByte('"')
		}
		if s.Paint.EvenOdd {
			w.WriteString(` fill-rule="evenodd"`)
		}
	} else {
		w.WriteString(` fill="none"`)
	}
	if s.Paint.Stroke != nil && s.Paint.Width > 0 {
		w.WriteString(` stroke="`)
		w.color(*s.Paint.Stroke)
		w.WriteString(`" stroke-width="`)
		w.num(s.Paint.Width)
		w.WriteByte('"')
		if a := s.Paint.Stroke.A; a < 255 {
			w.WriteString(` stroke-opacity="`)
			w.num(float64(a) / 255)
			w.WriteByte('"')
		}
		if len(s.Paint.Dash) > 0 {
			w.WriteString(` stroke-dasharray="`)
			for i, d := range s.Paint.Dash {
				if i > 0 {
					w.WriteByte(' ')
				}
				w.num(d)
			}
			w.WriteByte('"')
		}
	} else {
		w.WriteString(` stroke="none"`)
	}
	w.WriteString("></path>")
}

// appendPath appends p as SVG path data.
func appendPath(buf []byte, p render.Path) []byte {
	pt := func(q render.Point) {
		buf = appendNum(buf, q.X)
		buf = append(buf, ' ')
		buf = appendNum(buf, q.Y)
	}
	for i, s := range p {
		if i > 0 {
			buf = append(buf, ' ')
		}
		switch s.Op {
		case render.MoveTo:
			buf = append(buf, 'M')
			pt(s.P[0])
		case render.LineTo:
			buf = append(buf, 'L')
			pt(s.P[0])
		case render.QuadTo:
			buf = append(buf, 'Q')
			pt(s.P[0])
			buf = append(buf, ' ')
			pt(s.P[1])
		case render.CubicTo:
			buf = append(buf, 'C')
			pt(s.P[0])
			buf = append(buf, ' ')
			pt(s.P[1])
			buf = append(buf, ' ')
			pt(s.P[2])
		case render.Close:
			buf = append(buf, 'Z')
		}
	}
	return buf
}

func (w *writer) text(t *render.Text) {
	anchor := "start"
	switch t.Anchor {
	case render.AnchorMiddle:
		anchor = "middle"
	case render.AnchorEnd:
		anchor = "end"
	}
	dir := "ltr"
	if t.RTL {
		dir = "rtl"
	}
	family, ok := w.families[t]
	if !ok {
		family = textmetrics.CSSFontFamily(textmetrics.FontFamily(t.Family))
	}
	for _, l := range t.Lines {
		w.WriteString(`<text x="`)
		w.num(l.X)
		w.WriteString(`" y="`)
		w.num(l.Y)
		w.WriteString(`" font-family="`)
		w.attr(family)
		w.WriteString(`" font-size="`)
		w.num(t.Size)
		w.WriteString(`px" fill="`)
		w.color(t.Color)
		w.WriteString(`" text-anchor="`)
		w.WriteString(anchor)
		w.WriteString(`" style="white-space: pre;" direction="`)
		w.WriteString(dir)
		w.WriteString(`" dominant-baseline="alphabetic"`)
		if t.Color.A < 255 {
			w.WriteString(` fill-opacity="`)
			w.num(float64(t.Color.A) / 255)
			w.WriteByte('"')
		}
		w.WriteString(">")
		w.WriteString(text(l.Text))
		w.WriteString("</text>")
	}
}

// writeImage writes an image element's file. Under a dark root a raster
// image gets the filter that undoes the theme, as in Excalidraw.
func writeImage(w *writer, it *render.Item, dark bool) {
	im := it.Image
	href := "data:" + im.MIME + ";base64," + base64.StdEncoding.EncodeToString(im.Data)
	filter := ""
	if dark && it.NoFilter {
		filter = fmt.Sprintf(` filter="%s"`, imageFilter)
	}
	if im.Src.W() > 0 && im.Src.H() > 0 {
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(im.Data)); err == nil {
			fmt.Fprintf(w, `<svg x="0" y="0" width="%s" height="%s" viewBox="%s %s %s %s" preserveAspectRatio="none"><image href="%s" width="%d" height="%d"%s></image></svg>`,
				n(im.W), n(im.H), n(im.Src.MinX), n(im.Src.MinY), n(im.Src.W()), n(im.Src.H()), href, cfg.Width, cfg.Height, filter)
			return
		}
	}
	fmt.Fprintf(w, `<image href="%s" width="%s" height="%s" preserveAspectRatio="none"%s></image>`, href, n(im.W), n(im.H), filter)
}

// fonts writes the @font-face rules of the faces the picture's texts draw
// with (fonts.FacesFor: the PNG's choice of face for each character),
// each face cut to the characters drawn with it, and notes the
// font-family list of each text: its family's, with Xiaolai after the
// first name when the text draws characters (CJK) with it.
func (w *writer) fonts(pic *render.Picture, fs *fonts.Set) error {
	if fs == nil {
		return nil
	}
	var faces []*fonts.Face
	chars := map[*fonts.Face][]rune{}
	w.families = map[*render.Text]string{}
	var all strings.Builder
	for i := range pic.Items {
		t := pic.Items[i].Text
		if t == nil {
			continue
		}
		all.Reset()
		for _, l := range t.Lines {
			all.WriteString(l.Text)
		}
		xiaolai := false
		for _, fc := range fs.FacesFor(all.String(), t.Family) {
			if _, ok := chars[fc.Face]; !ok {
				faces = append(faces, fc.Face)
			}
			chars[fc.Face] = append(chars[fc.Face], fc.Chars...)
			xiaolai = xiaolai || fc.Face.Family == "Xiaolai"
		}
		w.families[t] = cssFamilies(t.Family, xiaolai)
	}
	if len(faces) == 0 {
		return nil
	}
	w.WriteString(`<style class="style-fonts">`)
	for _, f := range faces {
		data := f.WOFF2
		if w.subset {
			var err error
			if data, err = f.Subset(chars[f]); err != nil {
				return err
			}
		}
		fmt.Fprintf(w, "\n@font-face { font-family: %s; src: url(data:font/woff2;base64,", cssString(f.CSSFamily()))
		enc := base64.NewEncoder(base64.StdEncoding, w)
		enc.Write(data)
		enc.Close()
		w.WriteString(");")
		if r := f.RangeString(); r != "" {
			fmt.Fprintf(w, " unicode-range: %s;", r)
		}
		w.WriteString(" }")
	}
	w.WriteString("\n</style>")
	return nil
}

// cssFamilies is the font-family list of a text in family: Excalidraw's,
// with Xiaolai after the family's own name when the text draws with it
// and the list lacks it.
func cssFamilies(family int, xiaolai bool) string {
	css := textmetrics.CSSFontFamily(textmetrics.FontFamily(family))
	if !xiaolai || strings.Contains(css, "Xiaolai") {
		return css
	}
	first, rest, ok := strings.Cut(css, ", ")
	if !ok {
		return css + ", Xiaolai"
	}
	return first + ", Xiaolai, " + rest
}

// n writes a number with at most two decimals, as Excalidraw's SVG
// export rounds its paths.
func n(f float64) string { return string(appendNum(nil, f)) }

// appendNum appends f rounded to two decimals, without trailing zeros
// ("12", "-0.5", "3.25"); a non-finite number is 0.
func appendNum(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, '0')
	}
	c := math.Round(f * 100)
	if math.Abs(c) >= 1e17 {
		return strconv.AppendFloat(b, c/100, 'f', -1, 64)
	}
	cents := int64(c)
	if cents == 0 {
		return append(b, '0')
	}
	if cents < 0 {
		b = append(b, '-')
		cents = -cents
	}
	b = strconv.AppendInt(b, cents/100, 10)
	switch frac := cents % 100; {
	case frac == 0:
	case frac%10 == 0:
		b = append(b, '.', byte('0'+frac/10))
	default:
		b = append(b, '.', byte('0'+frac/10), byte('0'+frac%10))
	}
	return b
}

func matrix(m render.Affine) string { return string(appendMatrix(nil, m)) }

// appendMatrix appends m as translate(e f) when it only moves, else as
// matrix(a b c d e f).
func appendMatrix(b []byte, m render.Affine) []byte {
	if m.A == 1 && m.B == 0 && m.C == 0 && m.D == 1 {
		b = append(b, "translate("...)
	} else {
		b = append(b, "matrix("...)
		for _, v := range [4]float64{m.A, m.B, m.C, m.D} {
			b = strconv.AppendFloat(b, v, 'f', 6, 64)
			b = append(b, ' ')
		}
	}
	b = appendNum(b, m.E)
	b = append(b, ' ')
	b = appendNum(b, m.F)
	return append(b, ')')
}

func hex(c render.Color) string { return string(appendColor(nil, c)) }

// appendColor appends c as #rrggbb.
func appendColor(b []byte, c render.Color) []byte {
	const digits = "0123456789abcdef"
	return append(b, '#', digits[c.R>>4], digits[c.R&15], digits[c.G>>4], digits[c.G&15], digits[c.B>>4], digits[c.B&15])
}

var attrEscaper = strings.NewReplacer(`&`, "&amp;", `<`, "&lt;", `>`, "&gt;", `"`, "&quot;")

func attr(s string) string { return attrEscaper.Replace(s) }

var textEscaper = strings.NewReplacer(`&`, "&amp;", `<`, "&lt;", `>`, "&gt;")

func text(s string) string { return textEscaper.Replace(strings.Map(xmlChar, s)) }

// xmlChar drops characters XML 1.0 cannot hold.
func xmlChar(r rune) rune {
	if r == 0x9 || r == 0xA || r == 0xD || (r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF) {
		return r
	}
	return -1
}

func cssString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "<", `\3c `).Replace(s) + `"`
}
