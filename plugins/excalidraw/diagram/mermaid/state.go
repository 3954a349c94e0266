package mermaid

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// parseState reads a stateDiagram or stateDiagram-v2 into a graph:
//
//   - A state is a rounded node: state "Long name" as X gives its Label,
//     X : text lines its Fields. <<choice>> (or [[choice]]) is a diamond
//     with Role "choice", <<fork>> and <<join>> rectangles with Role "bar".
//   - [*] is a node per scope (the top, each composite state, each
//     concurrent region): as a source a circle with Role "start" (id
//     start, or X_start in composite X), as a target a doublecircle with
//     Role "end" (end, X_end). Made ids get _ added while the text uses
//     them.
//   - A composite state X { … } is a group X (its label the long name,
//     and its descriptions as more lines), nested through Parent, and no
//     node: a transition to or from X ends at the group. A state belongs
//     to the first composite to close that names it in its own body.
//     Its direction is the group's.
//   - -- lines split a composite X into concurrent regions: child groups
//     X_1, X_2… (no label), each with its own [*] nodes (X_1_start…).
//   - A note (note left of X : text, or note right of X, lines, end note)
//     is a rectangle node with Role "note" (id note, note_…) in the scope
//     it is written in, with a dashed edge without a head to X.
//   - Transitions are solid edges with an arrow, ": label" their Label.
//   - classDef, class, ::: and style set Style as in flowcharts (on a
//     composite, the group's); hide, scale and click lines are dropped.
func parseState(src string) (*diagram.Graph, error) {
	p := &stateParser{sketch: newSketch(src), starts: map[*scope]*box{}, ends: map[*scope]*box{}}
	p.dropScoped = true
	if f := p.document(p.statement, "stateDiagram", "stateDiagram-v2"); f != nil {
		return nil, errorAt(src, f)
	}
	// A composite state is its group: its long name, descriptions and
	// classes are the group's.
	for _, sc := range p.scopes {
		b := p.boxes[sc.id]
		if b == nil {
			continue
		}
		if b.label != "" {
			sc.label = b.label
		}
		if len(b.fields) > 0 {
			sc.label += "\n" + strings.Join(b.fields, "\n")
		}
		sc.classes = append(sc.classes, b.classes...)
	}
	g, f := p.finish()
	if f != nil {
		return nil, errorAt(src, f)
	}
	return g, nil
}

type stateParser struct {
	*sketch
	// starts and ends are each scope's [*] (nil is the top).
	starts, ends map[*scope]*box
}

func (p *stateParser) statement() *failure {
	at := p.i
	kw := p.keywordOf("state", "note", "direction", "classDef", "class", "style",
		"hide", "scale", "click", "accTitle", "accDescr")
	if kw != "" && kw != "accTitle" && kw != "accDescr" && p.transitionAhead() {
		// A state named like a keyword: note --> A.
		p.i, kw = at, ""
	}
	switch kw {
	case "state":
		return p.state(at)
	case "note":
		return p.note(at)
	case "direction":
		d, f := p.directionStmt()
		if len(p.stack) > 0 {
			p.stack[len(p.stack)-1].dir = d
		} else if f == nil {
			p.dir = d
		}
		return f
	case "classDef":
		return p.classDef()
	case "class":
		return p.class()
	case "style":
		return p.styleStmt("a state")
	case "hide", "scale", "click":
		p.statementText()
		return nil
	case "accTitle", "accDescr":
		return p.acc(kw)
	}
	switch {
	case p.peek() == '}':
		if len(p.stack) == 0 {
			return fail(at, "unexpected }; there is no composite state to close")
		}
		p.i++
		p.closeScope()
		return p.endStatement(`";" or a new line after }`)
	case strings.HasPrefix(p.rest(), "--") && !strings.HasPrefix(p.rest(), "-->"):
		p.i += 2
		if len(p.stack) == 0 {
			return fail(at, "unexpected --; a -- line separates concurrent regions, inside a composite state { … }")
		}
		if f := p.endStatement(`";" or a new line after -- (it separates concurrent regions)`); f != nil {
			return f
		}
		p.region(at)
		return nil
	}
	return p.transition()
}

// transitionAhead reports whether --> or ": description" follows, reading
// nothing.
func (p *stateParser) transitionAhead() bool {
	save := p.i
	defer func() { p.i = save }()
	p.skipInline()
	return strings.HasPrefix(p.rest(), "-->") || p.peek() == ':' && !strings.HasPrefix(p.rest(), ":::")
}

// terminal is the [*] of the current scope: its start, or its end.
func (p *stateParser) terminal(end bool, at int) *box {
	sc := p.cur()
	m, base, shape, role := p.starts, "start", diagram.Circle, "start"
	if end {
		m, base, shape, role = p.ends, "end", diagram.DoubleCircle, "end"
	}
	if b := m[sc]; b != nil {
		return b
	}
	if sc != nil {
		base = p.baseOf(sc.id) + "_" + base
	}
	b := p.made(base, shape, role, at)
	m[sc] = b
	return b
}

// baseOf is the id a made id will have (if the text does not use it),
// or id.
func (p *stateParser) baseOf(id string) string {
	if base, ok := p.autos[id]; ok {
		return base
	}
	return id
}

// stateRef reads a state id (with :::classes) or [*], as a transition's
// source (start) or target (end).
func (p *stateParser) stateRef(target bool) (b *box, star bool, f *failure) {
	at := p.i
	if strings.HasPrefix(p.rest(), "[*]") {
		p.i += 3
		return p.terminal(target, at), true, nil
	}
	id := p.ident()
	if id == "" {
		return nil, false, fail(at, "%s; expected a state id or [*]", p.unexpected(at))
	}
	b = p.mention(id, at, diagram.Rounded)
	return b, false, p.classMarks(b)
}

// transition reads A --> B : label, A : description, or a bare A.
func (p *stateParser) transition() *failure {
	a, star, f := p.stateRef(false)
	if f != nil {
		return f
	}
	p.skipInline()
	switch {
	case p.peek() == ':' && !star:
		p.i++
		if d := text(p.lineText()); d != "" {
			a.fields = append(a.fields, d)
		}
		return nil
	case p.atEnd() && !star:
		return nil
	case !strings.HasPrefix(p.rest(), "-->"):
		want := `"-->", ": description" or a new line`
		if star {
			want = `"-->" after [*]`
		}
		return fail(p.i, "%s; expected %s", p.unexpected(p.i), want)
	}
	p.i += 3
	p.skipInline()
	b, _, f := p.stateRef(true)
	if f != nil {
		return f
	}
	p.skipInline()
	e := diagram.Edge{From: a.id, To: b.id, Line: diagram.Solid, End: diagram.ArrowHead}
	if p.peek() == ':' {
		p.i++
		e.Label = text(p.lineText())
	}
	p.edge(e)
	return p.endStatement(`";" or a new line after the transition (": label" names it)`)
}

// state reads state "Long name" as X, state X <<choice>>, state X { … }
// and state X : description.
func (p *stateParser) state(at int) *failure {
	p.skipInline()
	var label string
	if p.peek() == '"' {
		raw, f := p.quoted()
		if f != nil {
			return f
		}
		label = text(raw)
		p.skipInline()
		if p.keywordOf("as") == "" {
			return fail(p.i, `expected "as" and the state's id after its name, got %s`, p.describe(p.i))
		}
		p.skipInline()
	}
	iat := p.i
	id := p.ident()
	if id == "" {
		return fail(iat, "%s; expected a state id", p.unexpected(iat))
	}
	b := p.mention(id, iat, diagram.Rounded)
	if label != "" {
		b.label = label
	}
	if f := p.classMarks(b); f != nil {
		return f
	}
	p.skipInline()
	if strings.HasPrefix(p.rest(), "<<") || strings.HasPrefix(p.rest(), "[[") {
		kat := p.i
		shut := ">>"
		if p.peek() == '[' {
			shut = "]]"
		}
		p.i += 2
		wat := p.i
		k := p.word()
		if !strings.HasPrefix(p.rest(), shut) {
			return fail(p.i, "expected %s to close %s, got %s", shut, p.src[kat:kat+2], p.describe(p.i))
		}
		p.i += 2
		switch strings.ToLower(k) {
		case "choice":
			b.shape, b.role = diagram.Diamond, "choice"
		case "fork", "join":
			b.shape, b.role = diagram.Rectangle, "bar"
		default:
			return fail(wat, "%s; expected choice, fork or join", p.unexpected(wat))
		}
		if f := p.classMarks(b); f != nil {
			return f
		}
		p.skipInline()
	}
	switch p.peek() {
	case ':':
		p.i++
		if d := text(p.lineText()); d != "" {
			b.fields = append(b.fields, d)
		}
		return nil
	case '{':
		p.i++
		if label == "" {
			label = id
		}
		_, f := p.openScope(id, label, iat, "composite state")
		return f
	}
	return p.endStatement(`"{", ": description", ";" or a new line after the state`)
}

// region starts a concurrent region in the composite state open: the
// first -- makes what its body held so far the first region.
func (p *stateParser) region(at int) {
	top := p.stack[len(p.stack)-1]
	if top.region == nil {
		r := p.newRegion(top, at)
		r.mentions, top.mentions = top.mentions, nil
		r.made, top.made = top.made, nil
		// newRegion made r top's last kid; the others are r's now.
		r.kids, top.kids = slices.Clone(top.kids[:len(top.kids)-1]), []*scope{r}
		for _, b := range r.made {
			b.scope = r
		}
		for _, sc := range r.kids {
			sc.parent = r
		}
		for _, m := range []map[*scope]*box{p.starts, p.ends} {
			if b := m[top]; b != nil {
				m[r] = b
				delete(m, top)
				p.autos[b.id] = p.baseOf(r.id) + strings.TrimPrefix(p.autos[b.id], top.id)
			}
		}
		top.region = r
	}
	p.settle(top.region)
	top.region = p.newRegion(top, at)
}

// newRegion is a composite's next region, X_1, X_2… (with _ added when
// the text has that id).
func (p *stateParser) newRegion(top *scope, at int) *scope {
	top.regions++
	sc := &scope{id: p.auto(fmt.Sprintf("%s_%d", p.baseOf(top.id), top.regions)), parent: top, at: at}
	top.kids = append(top.kids, sc)
	p.scopes = append(p.scopes, sc)
	p.scopeIDs[sc.id] = sc
	return sc
}

// note reads note left of X : text, and note right of X, its lines, then
// end note.
func (p *stateParser) note(at int) *failure {
	p.skipInline()
	sat := p.i
	if side := p.keywordOf("left", "right"); side == "" {
		return fail(sat, `%s; expected "left of" or "right of" after note`, p.unexpected(sat))
	}
	p.skipInline()
	if p.keywordOf("of") == "" {
		return fail(p.i, `expected "of" and a state, got %s`, p.describe(p.i))
	}
	p.skipInline()
	tat := p.i
	id := p.ident()
	if id == "" {
		return fail(tat, "%s; expected the id of the state the note is for", p.unexpected(tat))
	}
	target := p.mention(id, tat, diagram.Rounded)
	p.skipInline()
	var raw string
	if p.peek() == ':' {
		p.i++
		raw = p.lineText()
	} else {
		if f := p.endStatement(`": text" or a new line, then the note's lines and end note`); f != nil {
			return f
		}
		p.skipLine()
		var lines []string
		for {
			if p.i >= len(p.src) {
				return fail(at, "expected end note to close the note")
			}
			p.i++ // the line's end
			l := p.rest()
			if k := strings.IndexByte(l, '\n'); k >= 0 {
				l = l[:k]
			}
			p.i += len(l)
			l = strings.TrimSpace(l)
			if f := strings.Fields(l); len(f) == 2 && f[0] == "end" && f[1] == "note" {
				break
			}
			lines = append(lines, l)
		}
		raw = strings.Join(lines, "\n")
	}
	n := p.made("note", diagram.Rectangle, "note", at)
	n.label = text(raw)
	p.edge(diagram.Edge{From: n.id, To: target.id, Line: diagram.Dashed, EndNone: true})
	return nil
}
