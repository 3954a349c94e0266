package mermaid

import (
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// brackets are the classic shapes: opening, closings, shape for each
// closing. Longer openings come first.
var brackets = []struct {
	open   string
	closes []string
	shapes []diagram.Shape
}{
	{"(((", []string{")))"}, []diagram.Shape{diagram.DoubleCircle}},
	{"((", []string{"))"}, []diagram.Shape{diagram.Circle}},
	{"([", []string{"])"}, []diagram.Shape{diagram.Stadium}},
	{"(-", []string{"-)"}, []diagram.Shape{diagram.Ellipse}},
	{"(", []string{")"}, []diagram.Shape{diagram.Rounded}},
	{"[[", []string{"]]"}, []diagram.Shape{diagram.Subroutine}},
	{"[(", []string{")]"}, []diagram.Shape{diagram.Cylinder}},
	{"[/", []string{"/]", `\]`}, []diagram.Shape{diagram.Parallelogram, diagram.Trapezoid}},
	{`[\`, []string{`\]`, "/]"}, []diagram.Shape{diagram.ParallelogramAlt, diagram.TrapezoidAlt}},
	{"[", []string{"]"}, []diagram.Shape{diagram.Rectangle}},
	{"{{", []string{"}}"}, []diagram.Shape{diagram.Hexagon}},
	{"{", []string{"}"}, []diagram.Shape{diagram.Diamond}},
	{">", []string{"]"}, []diagram.Shape{diagram.Asymmetric}},
}

// shape reads a bracketed label: [text], (text), {{"text"}} and the rest.
func (p *parser) shape() (diagram.Shape, string, *failure) {
	for _, b := range brackets {
		if !strings.HasPrefix(p.rest(), b.open) {
			continue
		}
		oat := p.i
		p.i += len(b.open)
		want := strconv.Quote(b.closes[0])
		if len(b.closes) > 1 {
			want += " or " + strconv.Quote(b.closes[1])
		}
		p.skipInline()
		if p.peek() == '"' {
			raw, f := p.quoted()
			if f != nil {
				return "", "", f
			}
			p.skipInline()
			for k, c := range b.closes {
				if strings.HasPrefix(p.rest(), c) {
					p.i += len(c)
					return b.shapes[k], text(raw), nil
				}
			}
			return "", "", fail(p.i, "expected %s after the label, got %s", want, p.describe(p.i))
		}
		// Unquoted: to the first closing on this line.
		start := p.i
		for p.i < len(p.src) && p.src[p.i] != '\n' && p.src[p.i] != '\r' {
			for k, c := range b.closes {
				if strings.HasPrefix(p.rest(), c) {
					raw := p.src[start:p.i]
					if strings.TrimSpace(raw) == "" {
						return "", "", fail(oat, "expected a label between %q and %q", b.open, c)
					}
					p.i += len(c)
					return b.shapes[k], text(raw), nil
				}
			}
			p.i++
		}
		return "", "", fail(p.i, "expected %s to close the label opened at column %d, got %s",
			want, p.column(oat), p.describe(p.i))
	}
	return "", "", fail(p.i, "expected a shape, got %s", p.describe(p.i))
}

func (p *parser) column(off int) int {
	_, c := position(p.src, off)
	return c
}

// quoted reads "…" (which may span lines) and returns what is inside.
func (p *parser) quoted() (string, *failure) {
	at := p.i
	end := strings.IndexByte(p.src[p.i+1:], '"')
	if end < 0 {
		return "", fail(at, `expected " to close this quoted text`)
	}
	raw := p.src[p.i+1 : p.i+1+end]
	p.i += end + 2
	return raw, nil
}

// property is a key: value of @{ … }, at an offset.
type property struct {
	key, value string
	at         int
}

// braces reads @{ … } and returns its key: value pairs.
func (p *parser) braces() ([]property, *failure) {
	at := p.i
	p.i += 2
	var pairs []property
	for {
		for p.i < len(p.src) && strings.IndexByte(" \t\r\n,", p.src[p.i]) >= 0 {
			p.i++
		}
		if p.i >= len(p.src) {
			return nil, fail(at, "expected } to close @{")
		}
		if p.peek() == '}' {
			p.i++
			return pairs, nil
		}
		kat := p.i
		key := p.word()
		if key == "" {
			return nil, fail(kat, "expected a property name, got %s", p.describe(kat))
		}
		p.skipInline()
		if p.peek() != ':' {
			return nil, fail(p.i, `expected ":" after %s, got %s`, key, p.describe(p.i))
		}
		p.i++
		p.skipInline()
		var value string
		if p.peek() == '"' {
			raw, f := p.quoted()
			if f != nil {
				return nil, f
			}
			value = raw
		} else {
			start := p.i
			for p.i < len(p.src) && strings.IndexByte(",}\n\r", p.src[p.i]) < 0 {
				p.i++
			}
			value = strings.TrimSpace(p.src[start:p.i])
		}
		pairs = append(pairs, property{key, value, kat})
	}
}

// namedShapes are Mermaid's @{ shape: … } names that have a shape of ours.
var namedShapes = map[string]diagram.Shape{
	"rect": diagram.Rectangle, "rectangle": diagram.Rectangle, "proc": diagram.Rectangle, "process": diagram.Rectangle, "square": diagram.Rectangle,
	"rounded": diagram.Rounded, "event": diagram.Rounded,
	"stadium": diagram.Stadium, "pill": diagram.Stadium, "terminal": diagram.Stadium,
	"subroutine": diagram.Subroutine, "fr-rect": diagram.Subroutine, "framed-rectangle": diagram.Subroutine, "subproc": diagram.Subroutine, "subprocess": diagram.Subroutine,
	"cyl": diagram.Cylinder, "cylinder": diagram.Cylinder, "database": diagram.Cylinder, "db": diagram.Cylinder,
	"circle": diagram.Circle, "circ": diagram.Circle, "sm-circ": diagram.Circle, "small-circle": diagram.Circle, "start": diagram.Circle,
	"dbl-circ": diagram.DoubleCircle, "double-circle": diagram.DoubleCircle, "fr-circ": diagram.DoubleCircle, "framed-circle": diagram.DoubleCircle, "stop": diagram.DoubleCircle,
	"odd":  diagram.Asymmetric,
	"diam": diagram.Diamond, "diamond": diagram.Diamond, "decision": diagram.Diamond, "question": diagram.Diamond,
	"hex": diagram.Hexagon, "hexagon": diagram.Hexagon, "prepare": diagram.Hexagon,
	"lean-r": diagram.Parallelogram, "lean-right": diagram.Parallelogram, "in-out": diagram.Parallelogram,
	"lean-l": diagram.ParallelogramAlt, "lean-left": diagram.ParallelogramAlt, "out-in": diagram.ParallelogramAlt,
	"trap-b": diagram.Trapezoid, "trapezoid": diagram.Trapezoid, "trapezoid-bottom": diagram.Trapezoid, "priority": diagram.Trapezoid,
	"trap-t": diagram.TrapezoidAlt, "trapezoid-top": diagram.TrapezoidAlt, "inv-trapezoid": diagram.TrapezoidAlt, "manual": diagram.TrapezoidAlt,
	"ellipse": diagram.Ellipse,
}

// shapeData reads A@{ shape: diam, label: "Ok?" }.
func (p *parser) shapeData(n *node) *failure {
	pairs, f := p.braces()
	if f != nil {
		return f
	}
	for _, kv := range pairs {
		switch kv.key {
		case "shape":
			s, ok := namedShapes[strings.ToLower(kv.value)]
			if !ok {
				return fail(kv.at, "shape %q has no equivalent here; expected one of rect, rounded, stadium, subroutine, cyl, circle, dbl-circ, odd, diam, hex, lean-r, lean-l, trap-b, trap-t", kv.value)
			}
			n.shape = s
		case "label":
			n.label = text(kv.value)
		default:
			return fail(kv.at, "expected shape or label in @{ }, got %q (icons, images and other properties are not supported)", kv.key)
		}
	}
	return nil
}
