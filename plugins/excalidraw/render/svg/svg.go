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

// Write writes pic as SVG. fs supplies the fonts to embed; nil embeds
// none (text then falls back to the viewer's fonts).
func Write(out io.Writer, pic *render.Picture, fs *fonts.Set) error {
	w := bufio.NewWriterSize(out, 64<<10)
	width, height := pic.View.W(), pic.View.H()
	fmt.Fprintf(w, `<svg version="1.1" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" width="%s" height="%s"`,
		n(width), n(height), n(width*pic.Scale), n(height*pic.Scale))
	if pic.Dark {
		fmt.Fprintf(w, ` filter="%s"`, themeFilter)
	}
	w.WriteString(">\n<!-- svg-source:dsh (Excalidraw 0.18.1 rendering) -->\n<defs>")
	writeFonts(w, pic, fs)
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
		writeItem(w, i, &pic.Items[i], pic.Dark)
	}
	w.WriteString("</g>\n</svg>\n")
	return w.Flush()
}

func writeItem(w *bufio.Writer, i int, it *render.Item, dark bool) {
	var wrap []string
	if it.Clip != nil {
		fmt.Fprintf(w, `<g clip-path="url(#%s)">`, attr("clip-"+it.Clip.FrameID))
		wrap = append(wrap, "</g>")
	}
	if it.Knockout != nil {
		fmt.Fprintf(w, `<g mask="url(#mask-%d)">`, i)
		wrap = append(wrap, "</g>")
	}
	fmt.Fprintf(w, `<g data-id="%s" transform="%s"`, attr(it.ID), matrix(it.Transform))
	if it.Opacity < 1 {
		fmt.Fprintf(w, ` opacity="%s"`, n(it.Opacity))
	}
	if len(it.Shapes) > 0 {
		w.WriteString(` stroke-linecap="round" stroke-linejoin="round"`)
	}
	w.WriteString(">")
	for _, s := range it.Shapes {
		writeShape(w, s)
	}
	if it.Text != nil {
		writeText(w, it.Text)
	}
	if it.Image != nil {
		writeImage(w, it, dark)
	}
	w.WriteString("</g>")
	for j := len(wrap) - 1; j >= 0; j-- {
		w.WriteString(wrap[j])
	}
	w.WriteString("\n")
}

func writeShape(w *bufio.Writer, s render.Shape) {
	w.WriteString(`<path d="`)
	pathData(w, s.Path)
	w.WriteString(`"`)
	if s.Paint.Fill != nil {
		fmt.Fprintf(w, ` fill="%s"`, hex(*s.Paint.Fill))
		if a := s.Paint.Fill.A; a < 255 {
			fmt.Fprintf(w, ` fill-opacity="%s"`, n(float64(a)/255))
		}
		if s.Paint.EvenOdd {
			w.WriteString(` fill-rule="evenodd"`)
		}
	} else {
		w.WriteString(` fill="none"`)
	}
	if s.Paint.Stroke != nil && s.Paint.Width > 0 {
		fmt.Fprintf(w, ` stroke="%s" stroke-width="%s"`, hex(*s.Paint.Stroke), n(s.Paint.Width))
		if a := s.Paint.Stroke.A; a < 255 {
			fmt.Fprintf(w, ` stroke-opacity="%s"`, n(float64(a)/255))
		}
		if len(s.Paint.Dash) > 0 {
			parts := make([]string, len(s.Paint.Dash))
			for i, d := range s.Paint.Dash {
				parts[i] = n(d)
			}
			fmt.Fprintf(w, ` stroke-dasharray="%s"`, strings.Join(parts, " "))
		}
	} else {
		w.WriteString(` stroke="none"`)
	}
	w.WriteString("></path>")
}

func pathData(w *bufio.Writer, p render.Path) {
	buf := make([]byte, 0, 32*len(p))
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
	w.Write(buf)
}

func writeText(w *bufio.Writer, t *render.Text) {
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
	family := textmetrics.CSSFontFamily(textmetrics.FontFamily(t.Family))
	for _, l := range t.Lines {
		fmt.Fprintf(w, `<text x="%s" y="%s" font-family="%s" font-size="%spx" fill="%s" text-anchor="%s" style="white-space: pre;" direction="%s" dominant-baseline="alphabetic"`,
			n(l.X), n(l.Y), attr(family), n(t.Size), hex(t.Color), anchor, dir)
		if t.Color.A < 255 {
			fmt.Fprintf(w, ` fill-opacity="%s"`, n(float64(t.Color.A)/255))
		}
		w.WriteString(">")
		w.WriteString(text(l.Text))
		w.WriteString("</text>")
	}
}

// writeImage writes an image element's file. Under a dark root a raster
// image gets the filter that undoes the theme, as in Excalidraw.
func writeImage(w *bufio.Writer, it *render.Item, dark bool) {
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

func writeFonts(w *bufio.Writer, pic *render.Picture, fs *fonts.Set) {
	if fs == nil {
		return
	}
	seen := map[*fonts.Face]bool{}
	var faces []*fonts.Face
	for i := range pic.Items {
		t := pic.Items[i].Text
		if t == nil {
			continue
		}
		var all strings.Builder
		for _, l := range t.Lines {
			all.WriteString(l.Text)
		}
		for _, f := range fs.FacesFor(all.String(), t.Family) {
			if !seen[f] {
				seen[f] = true
				faces = append(faces, f)
			}
		}
	}
	if len(faces) == 0 {
		return
	}
	w.WriteString(`<style class="style-fonts">`)
	for _, f := range faces {
		fmt.Fprintf(w, "\n@font-face { font-family: %s; src: url(data:font/woff2;base64,", cssString(f.CSSFamily()))
		enc := base64.NewEncoder(base64.StdEncoding, w)
		enc.Write(f.WOFF2)
		enc.Close()
		w.WriteString(");")
		if r := f.RangeString(); r != "" {
			fmt.Fprintf(w, " unicode-range: %s;", r)
		}
		w.WriteString(" }")
	}
	w.WriteString("\n</style>")
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

func matrix(m render.Affine) string {
	if m.A == 1 && m.B == 0 && m.C == 0 && m.D == 1 {
		return "translate(" + n(m.E) + " " + n(m.F) + ")"
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	return "matrix(" + f(m.A) + " " + f(m.B) + " " + f(m.C) + " " + f(m.D) + " " + n(m.E) + " " + n(m.F) + ")"
}

func hex(c render.Color) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

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
