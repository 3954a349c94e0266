package mermaid

import (
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// look is what a classDef, style or linkStyle sets: the properties the
// model keeps; "" and 0 leave a property as it was.
type look struct {
	fill, stroke, color string
	width               float64
	dash                int // 1 dashed, -1 solid, 0 unset
}

// over returns l with o's settings on top.
func (l look) over(o look) look {
	if o.fill != "" {
		l.fill = o.fill
	}
	if o.stroke != "" {
		l.stroke = o.stroke
	}
	if o.color != "" {
		l.color = o.color
	}
	if o.width != 0 {
		l.width = o.width
	}
	if o.dash != 0 {
		l.dash = o.dash
	}
	return l
}

// style is l as a node's or group's style.
func (l look) style() diagram.Style {
	return diagram.Style{Fill: l.fill, Stroke: l.stroke, Text: l.color, StrokeWidth: l.width, Dashed: l.dash > 0}
}

// onEdge sets l on an edge: stroke, width and label colour in its style,
// a dash in its line (an invisible edge stays invisible).
func (l look) onEdge(e *diagram.Edge) {
	e.Style = diagram.Style{Stroke: l.stroke, Text: l.color, StrokeWidth: l.width}
	switch {
	case e.Line == diagram.Invisible:
	case l.dash > 0:
		e.Line = diagram.Dashed
	case l.dash < 0 && e.Line == diagram.Dashed:
		e.Line = diagram.Solid
	}
}

// parseLook reads CSS-like properties, "fill:#f9f,stroke:#333", as
// Mermaid writes them: a comma inside parentheses or escaped as \, is
// part of the value. at is the offset of raw in the source, for errors;
// strict makes an item without a property name an error (classDef and
// style), else such an item is dropped (linkStyle).
func parseLook(raw string, at int, strict bool) (look, *failure) {
	var l look
	dasharray := "" // the dash array so far, when it was the last property
	for _, it := range splitItems(raw) {
		item := strings.TrimSpace(it.text)
		if item == "" {
			continue
		}
		colon := strings.IndexByte(item, ':')
		if colon < 0 && numbers(item) {
			// stroke-dasharray: 9,5 writes the array's comma bare.
			if dasharray != "" {
				dasharray += " " + item
				l.dash = dashes(dasharray)
			}
			continue
		}
		dasharray = ""
		if colon <= 0 || strings.TrimSpace(item[colon+1:]) == "" {
			if !strict {
				continue
			}
			lead := len(it.text) - len(strings.TrimLeft(it.text, " \t"))
			return l, fail(at+it.at+lead, "expected a style such as fill:#f9f or stroke-width:2px, got %q", item)
		}
		key := strings.ToLower(strings.TrimSpace(item[:colon]))
		value := strings.TrimSpace(item[colon+1:])
		value = strings.TrimSpace(strings.TrimSuffix(value, "!important"))
		switch key {
		case "fill":
			l.fill = colour(value)
		case "stroke":
			l.stroke = colour(value)
		case "color":
			l.color = colour(value)
		case "stroke-width":
			if w, ok := pixels(value); ok {
				l.width = w
			}
		case "stroke-dasharray":
			l.dash = dashes(value)
			dasharray = value
		}
	}
	return l, nil
}

type item struct {
	text string
	at   int
}

// splitItems splits at commas outside parentheses; \, is a comma in a
// value.
func splitItems(raw string) []item {
	var items []item
	var b strings.Builder
	start, depth := 0, 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw) && raw[i+1] == ',':
			b.WriteByte(',')
			i++
			continue
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case c == ',' && depth == 0:
			items = append(items, item{b.String(), start})
			b.Reset()
			start = i + 1
			continue
		}
		b.WriteByte(c)
	}
	return append(items, item{b.String(), start})
}

func colour(v string) string {
	if strings.EqualFold(v, "none") {
		return "transparent"
	}
	return v
}

// pixels reads "4px" or "4"; other units are not taken.
func pixels(v string) (float64, bool) {
	v = strings.TrimSpace(strings.TrimSuffix(strings.ToLower(v), "px"))
	w, err := strconv.ParseFloat(v, 64)
	if err != nil || w <= 0 || w > 1000 {
		return 0, false
	}
	return w, true
}

// dashes reads a dash array: dashed unless it is none or all zeros.
func dashes(v string) int {
	if strings.EqualFold(v, "none") {
		return -1
	}
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
		if n, err := strconv.ParseFloat(strings.TrimSuffix(f, "px"), 64); err != nil || n != 0 {
			return 1
		}
	}
	return -1
}

// numbers reports whether s is only numbers (and px), as a dash array's
// tail is.
func numbers(s string) bool {
	return strings.Trim(s, "0123456789. px\t") == ""
}
