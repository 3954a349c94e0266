package mermaid

import (
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// parseER reads an erDiagram into a graph:
//
//   - An entity is a rectangle node, its id its name (letters, digits, -
//     and _, or "any text"), its Label the name or its alias (p[Person],
//     p["Person"]). Attributes, { type name PK, FK "comment" }, are
//     Fields written "type name PK, FK \"comment\"" (the type may be left
//     out); blocks for one entity add up.
//   - A relationship A ||--o{ B : label is an edge from A to B with that
//     Label; -- (or "to") is solid, .. (or "optionally to") dashed. Each
//     end's cardinality is its head (Start at A, End at B), as in the
//     table below; marks read either way round, words in any case.
//   - direction, and classDef, class, ::: and style as in flowcharts.
//
// The cardinalities' heads (Excalidraw has no zero-or-one mark: it is
// drawn as exactly one):
//
//	||, only one, 1                                 crowfoot_one
//	|o, o|, zero or one, one or zero                crowfoot_one
//	}|, |{, one or more, one or many, many(1), 1+   crowfoot_one_or_many
//	}o, o{, zero or more, zero or many, many(0), 0+ crowfoot_many
func parseER(src string) (*diagram.Graph, error) {
	p := &erParser{sketch: newSketch(src)}
	if f := p.document(p.statement, "erDiagram"); f != nil {
		return nil, errorAt(src, f)
	}
	g, f := p.finish()
	if f != nil {
		return nil, errorAt(src, f)
	}
	return g, nil
}

type erParser struct {
	*sketch
}

func (p *erParser) statement() *failure {
	at := p.i
	kw := p.keywordOf("direction", "classDef", "class", "style", "accTitle", "accDescr")
	if kw != "" && kw != "accTitle" && kw != "accDescr" && p.relationshipAhead() {
		// An entity named like a keyword: style ||--o{ A : has.
		p.i, kw = at, ""
	}
	switch kw {
	case "direction":
		d, f := p.directionStmt()
		if f == nil {
			p.dir = d
		}
		return f
	case "classDef":
		return p.classDef()
	case "class":
		return p.class()
	case "style":
		return p.styleStmt("an entity")
	case "accTitle", "accDescr":
		return p.acc(kw)
	}
	return p.entityStatement()
}

// relationshipAhead reports whether a cardinality or "{" follows,
// reading nothing.
func (p *erParser) relationshipAhead() bool {
	save := p.i
	defer func() { p.i = save }()
	p.skipInline()
	if p.peek() == '{' {
		return true
	}
	_, ok := p.cardinality()
	return ok
}

// entity reads an entity: its name (or "any name"), an alias [Label] or
// ["Label"], and :::classes.
func (p *erParser) entity() (*box, *failure) {
	at := p.i
	var id string
	if p.peek() == '"' {
		raw, f := p.quoted()
		if f != nil {
			return nil, f
		}
		id = strings.TrimSpace(raw)
		if id == "" || strings.ContainsAny(id, "\r\n") {
			return nil, fail(at, "expected an entity name in the quotes, on one line")
		}
		if hasControl(id) {
			return nil, fail(at, "an entity name may not hold control characters")
		}
	} else {
		id = p.ident()
	}
	if id == "" {
		return nil, fail(at, "%s; expected an entity name", p.unexpected(at))
	}
	b := p.mention(id, at, diagram.Rectangle)
	if b.label == "" {
		b.label = id
	}
	if p.peek() == '[' {
		lat := p.i
		p.i++
		p.skipInline()
		var raw string
		if p.peek() == '"' {
			q, f := p.quoted()
			if f != nil {
				return nil, f
			}
			raw = q
			p.skipInline()
			if p.peek() != ']' {
				return nil, fail(p.i, `expected "]" after the alias, got %s`, p.describe(p.i))
			}
		} else {
			line := p.rest()
			k := strings.IndexAny(line, "]\r\n")
			if k < 0 || line[k] != ']' {
				return nil, fail(lat, `expected "]" to close the alias on this line`)
			}
			raw = line[:k]
			p.i += k
		}
		p.i++
		if l := text(raw); l != "" {
			b.label = l
		}
	}
	return b, p.classMarks(b)
}

// entityStatement reads A, A { attributes }, or A ||--o{ B : label.
func (p *erParser) entityStatement() *failure {
	a, f := p.entity()
	if f != nil {
		return f
	}
	p.skipInline()
	if p.peek() == '{' {
		return p.attributes(a)
	}
	if p.atEnd() {
		return nil
	}
	cat := p.i
	left, ok := p.cardinality()
	if !ok {
		return fail(cat, `%s; expected "{" and attributes, a relationship such as ||--o{, or a new line`, p.unexpected(cat))
	}
	p.skipInline()
	lat := p.i
	line, ok := p.identification()
	if !ok {
		return fail(lat, `%s; expected "--" (identifying), ".." (non-identifying), "to" or "optionally to"`, p.unexpected(lat))
	}
	p.skipInline()
	rat := p.i
	right, ok := p.cardinality()
	if !ok {
		return fail(rat, "%s; expected a cardinality (||, |o, o|, }o, o{, }|, |{ or words such as zero or more)", p.unexpected(rat))
	}
	p.skipInline()
	b, f := p.entity()
	if f != nil {
		return f
	}
	p.skipInline()
	if p.peek() != ':' {
		return fail(p.i, `expected ":" and the relationship's label, got %s`, p.describe(p.i))
	}
	p.i++
	p.skipInline()
	var label string
	if p.peek() == '"' {
		raw, f := p.quoted()
		if f != nil {
			return f
		}
		label = text(raw)
	} else {
		label = text(p.lineText())
	}
	p.edge(diagram.Edge{From: a.id, To: b.id, Label: label, Line: line, Start: left, End: right})
	return p.endStatement(`";" or a new line after the relationship's label`)
}

// erMarks are the cardinalities as marks, either way round, and the
// Excalidraw head drawn for each (zero or one has none of its own: it
// is drawn as exactly one).
var erMarks = []struct {
	mark string
	head diagram.Arrowhead
}{
	{"||", diagram.CrowfootOneHead},
	{"|o", diagram.CrowfootOneHead}, {"o|", diagram.CrowfootOneHead},
	{"}o", diagram.CrowfootManyHead}, {"o{", diagram.CrowfootManyHead},
	{"}|", diagram.CrowfootOneOrManyHead}, {"|{", diagram.CrowfootOneOrManyHead},
}

// erWords are the cardinalities in words, longest first where one
// starts another.
var erWords = []struct {
	words string
	head  diagram.Arrowhead
}{
	{"only one", diagram.CrowfootOneHead},
	{"zero or one", diagram.CrowfootOneHead}, {"one or zero", diagram.CrowfootOneHead},
	{"one or more", diagram.CrowfootOneOrManyHead}, {"one or many", diagram.CrowfootOneOrManyHead},
	{"many(1)", diagram.CrowfootOneOrManyHead}, {"1+", diagram.CrowfootOneOrManyHead},
	{"zero or more", diagram.CrowfootManyHead}, {"zero or many", diagram.CrowfootManyHead},
	{"many(0)", diagram.CrowfootManyHead}, {"0+", diagram.CrowfootManyHead},
	{"1", diagram.CrowfootOneHead},
}

// cardinality reads a cardinality, as marks or words.
func (p *erParser) cardinality() (diagram.Arrowhead, bool) {
	s := p.rest()
	for _, m := range erMarks {
		if strings.HasPrefix(s, m.mark) {
			p.i += len(m.mark)
			return m.head, true
		}
	}
	for _, w := range erWords {
		if len(s) < len(w.words) || !strings.EqualFold(s[:len(w.words)], w.words) {
			continue
		}
		if len(s) > len(w.words) && (isIDRune(rune(s[len(w.words)])) || s[len(w.words)] == '+') {
			continue
		}
		p.i += len(w.words)
		return w.head, true
	}
	return "", false
}

// identification reads --, .., to or optionally to.
func (p *erParser) identification() (diagram.Line, bool) {
	switch {
	case strings.HasPrefix(p.rest(), "--"):
		p.i += 2
		return diagram.Solid, true
	case strings.HasPrefix(p.rest(), ".."):
		p.i += 2
		return diagram.Dashed, true
	case p.keywordOf("to") != "":
		return diagram.Solid, true
	}
	save := p.i
	if p.keywordOf("optionally") != "" {
		p.skipInline()
		if p.keywordOf("to") != "" {
			return diagram.Dashed, true
		}
	}
	p.i = save
	return "", false
}

// attributes reads { type name PK, FK "comment" … } into a's fields, one
// a line.
func (p *erParser) attributes(a *box) *failure {
	oat := p.i
	p.i++
	for {
		for p.i < len(p.src) && strings.IndexByte(" \t\r\n;", p.src[p.i]) >= 0 {
			p.i++
		}
		switch {
		case p.i >= len(p.src):
			return fail(oat, "expected } to close the attributes of %s", a.id)
		case p.peek() == '}':
			p.i++
			return p.endStatement(`";" or a new line after }`)
		case strings.HasPrefix(p.rest(), "%%"):
			p.skipLine()
			continue
		}
		field, f := p.attribute()
		if f != nil {
			return f
		}
		a.fields = append(a.fields, field)
	}
}

// token reads a run of characters up to white space, a quote, a comma
// or a brace.
func (p *erParser) token() string {
	start := p.i
	for p.i < len(p.src) && strings.IndexByte(" \t\r\n\",{};", p.src[p.i]) < 0 && !strings.HasPrefix(p.rest(), "%%") {
		p.i++
	}
	return p.src[start:p.i]
}

func isKey(w string) bool { return w == "PK" || w == "FK" || w == "UK" }

// attribute reads one attribute: a type and a name (or a name alone),
// keys and a comment.
func (p *erParser) attribute() (string, *failure) {
	at := p.i
	first := p.token()
	if first == "" {
		return "", fail(at, "%s; expected an attribute (type and name) or }", p.unexpected(at))
	}
	parts := []string{first}
	save := p.i
	p.skipInline()
	if second := p.token(); second != "" && !isKey(second) {
		parts = append(parts, second)
	} else {
		p.i = save
	}
	var keys []string
	for {
		p.skipInline()
		if p.peek() == ',' && len(keys) > 0 {
			p.i++
			p.skipInline()
		}
		kat := p.i
		w := p.token()
		if w == "" {
			break
		}
		if !isKey(w) {
			return "", fail(kat, `unexpected %s; expected a key (PK, FK or UK), a "comment" or a new line`, strconv.Quote(w))
		}
		keys = append(keys, w)
	}
	if len(keys) > 0 {
		parts = append(parts, strings.Join(keys, ", "))
	}
	if p.peek() == '"' {
		raw, f := p.quoted()
		if f != nil {
			return "", f
		}
		parts = append(parts, `"`+text(raw)+`"`)
		p.skipInline()
	}
	if p.i < len(p.src) && strings.IndexByte("\r\n};", p.src[p.i]) < 0 && !strings.HasPrefix(p.rest(), "%%") {
		return "", fail(p.i, `%s; expected a key (PK, FK or UK), a "comment" or a new line`, p.unexpected(p.i))
	}
	return strings.Join(parts, " "), nil
}
