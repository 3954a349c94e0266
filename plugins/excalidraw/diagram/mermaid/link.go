package mermaid

import (
	"strings"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// heads maps a link's end character to its arrowhead.
func heads(c byte) diagram.Arrowhead {
	switch c {
	case '<', '>':
		return diagram.ArrowHead
	case 'o':
		return diagram.CircleHead
	case 'x':
		return diagram.CrossHead
	}
	return diagram.NoHead
}

func isEndHead(c byte) bool { return c == '>' || c == 'o' || c == 'x' }

// linkToken is a link's opening as written: a whole link (-->, -.-,
// ==>, ~~~, <-->, o--o…) or the start of one with text (--, -., ==).
type linkToken struct {
	n          int
	line       diagram.Line
	start, end byte
	withText   bool
}

// scanLink reads a link token at the start of s.
func scanLink(s string) (linkToken, bool) {
	var t linkToken
	i := 0
	if len(s) > 2 && strings.IndexByte("<ox", s[0]) >= 0 && (s[1] == '-' || s[1] == '=') {
		t.start, i = s[0], 1
	}
	run := func(c byte, from int) int {
		j := from
		for j < len(s) && s[j] == c {
			j++
		}
		return j
	}
	switch {
	case t.start == 0 && strings.HasPrefix(s, "~~~"):
		t.line, t.n = diagram.Invisible, run('~', 0)
		return t, true
	case i+1 < len(s) && s[i] == '-' && s[i+1] == '.':
		t.line = diagram.Dashed
		j := run('.', i+1)
		if j < len(s) && s[j] == '-' {
			j++
			if j < len(s) && isEndHead(s[j]) {
				t.end = s[j]
				j++
			}
			t.n = j
			return t, true
		}
		t.withText, t.n = true, j
		return t, true
	case i < len(s) && (s[i] == '-' || s[i] == '='):
		// Solid (---) and thick (===) links read alike: two of the
		// character and text follows, three or more, or two or more
		// and a head.
		t.line = diagram.Solid
		if s[i] == '=' {
			t.line = diagram.Thick
		}
		j := run(s[i], i)
		switch n := j - i; {
		case n >= 2 && j < len(s) && isEndHead(s[j]):
			t.end, t.n = s[j], j+1
		case n >= 3:
			t.n = j
		case n == 2:
			t.withText, t.n = true, j
		default:
			return t, false
		}
		return t, true
	}
	return t, false
}

// closing finds the end of a link with text in s (one line): for a solid
// link a run of two or more - ending in -, >, o or x; dotted, dots then
// - (and a head); thick, == and more ending in =, >, o or x. It returns
// where the closing starts, its length and its head.
func closing(s string, line diagram.Line) (at, n int, head byte, ok bool) {
	for k := 0; k < len(s); k++ {
		switch line {
		case diagram.Solid, diagram.Thick:
			c := byte('-')
			if line == diagram.Thick {
				c = '='
			}
			if s[k] != c || k+1 >= len(s) || s[k+1] != c {
				continue
			}
			j := k
			for j < len(s) && s[j] == c {
				j++
			}
			if j < len(s) && isEndHead(s[j]) {
				return k, j + 1 - k, s[j], true
			}
			if j-k >= 3 {
				return k, j - k, 0, true
			}
			k = j - 1
		case diagram.Dashed:
			if s[k] != '.' {
				continue
			}
			j := k
			for j < len(s) && s[j] == '.' {
				j++
			}
			if j >= len(s) || s[j] != '-' {
				k = j - 1
				continue
			}
			from := k
			if from > 0 && s[from-1] == '-' {
				from--
			}
			j++
			if j < len(s) && isEndHead(s[j]) {
				return from, j + 1 - from, s[j], true
			}
			return from, j - from, 0, true
		}
	}
	return 0, 0, 0, false
}

// link reads a link and its label, if one is at p.i: an optional edge id
// (e1@), the link, and a |label| after it.
func (p *parser) link() (diagram.Edge, bool, *failure) {
	at := p.i
	var edgeID string
	if r, _ := utf8.DecodeRuneInString(p.rest()); isIDRune(r) {
		id := p.ident()
		if strings.HasPrefix(p.rest(), "@") {
			if _, ok := scanLink(p.src[p.i+1:]); ok {
				edgeID = id
				p.i++
			}
		}
		if edgeID == "" {
			p.i = at
		}
	}
	t, ok := scanLink(p.rest())
	if !ok {
		p.i = at
		return diagram.Edge{}, false, nil
	}
	lat := p.i
	p.i += t.n
	if edgeID != "" {
		p.edgeIDs[edgeID] = true
	}
	e := diagram.Edge{Line: t.line, Start: heads(t.start)}
	end := t.end
	labelled := false
	if t.withText {
		line := p.rest()
		if k := strings.IndexAny(line, "\r\n"); k >= 0 {
			line = line[:k]
		}
		body := line
		offset := 0
		// A quoted label is read whole, so it may hold the closing.
		if trimmed := strings.TrimLeft(line, " \t"); strings.HasPrefix(trimmed, `"`) {
			if q := strings.IndexByte(trimmed[1:], '"'); q >= 0 {
				offset = len(line) - len(trimmed) + q + 2
				body = line[offset:]
			}
		}
		cat, cn, head, ok := closing(body, t.line)
		if !ok {
			want := map[diagram.Line]string{diagram.Solid: `"-->" or "---"`, diagram.Dashed: `".->" or ".-"`, diagram.Thick: `"==>" or "==="`}[t.line]
			return diagram.Edge{}, false, fail(lat, "expected %s to end the link's text on this line", want)
		}
		e.Label = text(unquote(line[:offset+cat]))
		labelled = true
		end = head
		p.i += offset + cat + cn
	}
	switch {
	case end != 0:
		e.End = heads(end)
	default:
		e.EndNone = true
	}
	// A |label| after the link.
	save := p.i
	p.skipInline()
	if p.peek() == '|' {
		pat := p.i
		if labelled {
			return diagram.Edge{}, false, fail(pat, "a link has one label: it has one before the arrow already")
		}
		p.i++
		p.skipInline()
		var raw string
		if p.peek() == '"' {
			q, f := p.quoted()
			if f != nil {
				return diagram.Edge{}, false, f
			}
			raw = q
			p.skipInline()
			if p.peek() != '|' {
				return diagram.Edge{}, false, fail(p.i, `expected "|" after the link's label, got %s`, p.describe(p.i))
			}
		} else {
			line := p.rest()
			k := strings.IndexAny(line, "|\r\n")
			if k < 0 || line[k] != '|' {
				return diagram.Edge{}, false, fail(pat, `expected "|" to close the link's label on this line`)
			}
			raw = line[:k]
			p.i += k
		}
		p.i++
		e.Label = text(raw)
	} else {
		p.i = save
	}
	return e, true, nil
}

// unquote drops the quotes around a link's text, if it has them.
func unquote(s string) string {
	t := strings.TrimSpace(s)
	if len(t) >= 2 && t[0] == '"' && t[len(t)-1] == '"' {
		return t[1 : len(t)-1]
	}
	return s
}
