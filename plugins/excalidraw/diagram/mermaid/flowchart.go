package mermaid

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// failure is an error at a byte offset, turned into an *Error (line and
// column) once, when the parse stops.
type failure struct {
	at  int
	msg string
}

func fail(at int, format string, args ...any) *failure {
	return &failure{at, fmt.Sprintf(format, args...)}
}

// node is a node as the text has said so far.
type node struct {
	id      string
	label   string
	shape   diagram.Shape
	classes []string
	shaped  int // offset where a shape or label was given, -1 if never
}

// group is a subgraph.
type group struct {
	id       string // "" until finish for a subgraph without one
	n        int    // its number among subgraphs, for subGraphN
	label    string
	parent   *group
	dir      diagram.Direction
	at       int
	mentions []string // ids written in its own body, in order
	classes  []string
}

type styleStmt struct {
	id   string
	look look
}

type classStmt struct {
	ids     []string
	classes []string
}

type linkStyleStmt struct {
	all     bool
	indexes []int
	at      []int
	look    look
}

type parser struct {
	src string
	i   int

	dir        diagram.Direction
	nodes      map[string]*node
	order      []*node
	edges      []diagram.Edge
	edgeIDs    map[string]bool
	groups     []*group
	groupIDs   map[string]*group
	open       []*group
	owner      map[string]*group
	classDefs  map[string]look
	classes    []classStmt
	styleStmts []styleStmt
	linkStyles []linkStyleStmt
}

func newParser(src string) *parser {
	return &parser{
		src:       src,
		nodes:     map[string]*node{},
		edgeIDs:   map[string]bool{},
		groupIDs:  map[string]*group{},
		owner:     map[string]*group{},
		classDefs: map[string]look{},
	}
}

func (p *parser) parse() (*diagram.Graph, error) {
	g, f := p.flowchart()
	if f != nil {
		line, col := position(p.src, f.at)
		return nil, &Error{Line: line, Column: col, Message: f.msg}
	}
	return g, nil
}

func (p *parser) flowchart() (*diagram.Graph, *failure) {
	if f := p.frontMatter(); f != nil {
		return nil, f
	}
	if f := p.blank(); f != nil {
		return nil, f
	}
	if f := p.header(); f != nil {
		return nil, f
	}
	for {
		if f := p.blank(); f != nil {
			return nil, f
		}
		if p.i >= len(p.src) {
			break
		}
		if f := p.statement(); f != nil {
			return nil, f
		}
	}
	return p.finish()
}

// --- characters -------------------------------------------------------

func (p *parser) peek() byte {
	if p.i < len(p.src) {
		return p.src[p.i]
	}
	return 0
}

func (p *parser) rest() string { return p.src[p.i:] }

func (p *parser) skipInline() {
	for p.i < len(p.src) && (p.src[p.i] == ' ' || p.src[p.i] == '\t') {
		p.i++
	}
}

// atEnd reports whether a statement may end here: end of text, line or
// statement, or a comment.
func (p *parser) atEnd() bool {
	if p.i >= len(p.src) {
		return true
	}
	switch p.src[p.i] {
	case '\n', '\r', ';':
		return true
	}
	return strings.HasPrefix(p.rest(), "%%")
}

// blank skips white space, line ends, semicolons, comments and
// directives between statements.
func (p *parser) blank() *failure {
	for p.i < len(p.src) {
		switch c := p.src[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ';':
			p.i++
		case strings.HasPrefix(p.rest(), "%%{"):
			end := strings.Index(p.src[p.i+3:], "}%%")
			if end < 0 {
				return fail(p.i, "expected }%%%% to close the directive")
			}
			p.i += 3 + end + 3
		case strings.HasPrefix(p.rest(), "%%"):
			p.skipLine()
		default:
			return nil
		}
	}
	return nil
}

func (p *parser) skipLine() {
	if j := strings.IndexByte(p.rest(), '\n'); j >= 0 {
		p.i += j
	} else {
		p.i = len(p.src)
	}
}

// endStatement checks that the statement ends here.
func (p *parser) endStatement(expected string) *failure {
	p.skipInline()
	if p.atEnd() {
		return nil
	}
	return fail(p.i, "expected %s, got %s", expected, p.describe(p.i))
}

// describe names what is at off, for "got …" in errors.
func (p *parser) describe(off int) string {
	if off >= len(p.src) {
		return "the end of the text"
	}
	s := p.src[off:]
	if s[0] == '\n' || s[0] == '\r' {
		return "the end of the line"
	}
	r, _ := utf8.DecodeRuneInString(s)
	word := isIDRune(r)
	n := 0
	for i, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || isIDRune(r) != word || n == 16 {
			return strconv.Quote(s[:i])
		}
		n++
	}
	return strconv.Quote(s)
}

func isIDRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// ident reads a node id: letters, digits and _, with - and . inside
// (so A-->B is A, a link and B, and my-service is one id).
func (p *parser) ident() string {
	start := p.i
	for p.i < len(p.src) {
		r, size := utf8.DecodeRuneInString(p.rest())
		if isIDRune(r) {
			p.i += size
			continue
		}
		if (r == '-' || r == '.') && p.i > start && p.i+1 < len(p.src) {
			if next, _ := utf8.DecodeRuneInString(p.src[p.i+1:]); isIDRune(next) {
				p.i++
				continue
			}
		}
		break
	}
	return p.src[start:p.i]
}

// word reads letters, digits, - and _ (a keyword or a header).
func (p *parser) word() string {
	start := p.i
	for p.i < len(p.src) {
		c := p.src[p.i]
		if c == '-' || c == '_' || c < utf8.RuneSelf && isIDRune(rune(c)) {
			p.i++
			continue
		}
		break
	}
	return p.src[start:p.i]
}

// statementText returns the rest of the statement (to ;, the line's end
// or a comment), skipping quoted strings whole.
func (p *parser) statementText() string {
	start := p.i
	quoted := false
	for ; p.i < len(p.src); p.i++ {
		c := p.src[p.i]
		if c == '\n' || c == '\r' {
			break
		}
		if c == '"' {
			quoted = !quoted
		} else if !quoted && (c == ';' || strings.HasPrefix(p.rest(), "%%")) {
			break
		}
	}
	return p.src[start:p.i]
}

// --- document ---------------------------------------------------------

// frontMatter skips a --- … --- block at the top (title and config).
func (p *parser) frontMatter() *failure {
	j := 0
	for j < len(p.src) && (p.src[j] == ' ' || p.src[j] == '\t' || p.src[j] == '\n' || p.src[j] == '\r') {
		j++
	}
	if !strings.HasPrefix(p.src[j:], "---") {
		return nil
	}
	line := p.src[j:]
	if k := strings.IndexByte(line, '\n'); k >= 0 {
		line = line[:k]
	}
	if strings.TrimSpace(line) != "---" {
		return nil
	}
	at := j
	j += len(line)
	for j < len(p.src) {
		j++ // the \n
		k := strings.IndexByte(p.src[j:], '\n')
		l := p.src[j:]
		if k >= 0 {
			l = l[:k]
		}
		if strings.TrimSpace(l) == "---" {
			p.i = j + len(l)
			return nil
		}
		j += len(l)
	}
	return fail(at, "expected --- to close the front matter")
}

func (p *parser) header() *failure {
	at := p.i
	kind := p.word()
	switch {
	case kind == "flowchart" || kind == "graph" || kind == "flowchart-elk":
	case otherKinds[kind]:
		return fail(at, "%s is not supported yet: only flowcharts (flowchart or graph) are", kind)
	default:
		return fail(at, "expected flowchart or graph, got %s", p.describe(at))
	}
	p.skipInline()
	p.dir = diagram.TopToBottom
	if !p.atEnd() {
		dat := p.i
		d, ok := p.direction()
		if !ok {
			return fail(dat, "expected a direction (TB, TD, BT, LR or RL), got %s", p.describe(dat))
		}
		p.dir = d
	}
	return p.endStatement(`";" or a new line after the header`)
}

// direction reads TB, TD, BT, LR, RL (any case) or Mermaid's old
// >, <, ^, v.
func (p *parser) direction() (diagram.Direction, bool) {
	at := p.i
	w := p.word()
	if w == "" && p.i < len(p.src) {
		w = p.src[p.i : p.i+1]
		p.i++
	}
	switch strings.ToUpper(w) {
	case "TB", "TD", "V":
		return diagram.TopToBottom, true
	case "BT", "^":
		return diagram.BottomToTop, true
	case "LR", ">":
		return diagram.LeftToRight, true
	case "RL", "<":
		return diagram.RightToLeft, true
	}
	p.i = at
	return "", false
}

// keyword returns the statement keyword at p.i, if one is there.
func (p *parser) keyword() string {
	s := p.rest()
	for _, kw := range []string{"subgraph", "end", "direction", "classDef", "class", "style", "linkStyle", "click", "accTitle", "accDescr"} {
		if !strings.HasPrefix(s, kw) {
			continue
		}
		after := s[len(kw):]
		if after == "" {
			return kw
		}
		switch c := after[0]; {
		case kw == "accTitle" || kw == "accDescr":
			t := strings.TrimLeft(after, " \t")
			if strings.HasPrefix(t, ":") || kw == "accDescr" && strings.HasPrefix(t, "{") {
				return kw
			}
		case c == ' ' || c == '\t' || c == ';' || c == '\n' || c == '\r' || strings.HasPrefix(after, "%%"):
			return kw
		}
	}
	return ""
}

func (p *parser) statement() *failure {
	at := p.i
	kw := p.keyword()
	p.i += len(kw)
	switch kw {
	case "subgraph":
		return p.subgraph(at)
	case "end":
		if len(p.open) == 0 {
			return fail(at, "end without a subgraph to close")
		}
		g := p.open[len(p.open)-1]
		p.open = p.open[:len(p.open)-1]
		p.close(g)
		return p.endStatement(`";" or a new line after end (a node named end is written End)`)
	case "direction":
		p.skipInline()
		dat := p.i
		d, ok := p.direction()
		if !ok {
			return fail(dat, "expected a direction (TB, TD, BT, LR or RL), got %s", p.describe(dat))
		}
		if len(p.open) > 0 {
			p.open[len(p.open)-1].dir = d
		} else {
			p.dir = d
		}
		return p.endStatement(`";" or a new line after the direction`)
	case "classDef":
		return p.classDef()
	case "class":
		return p.class()
	case "style":
		return p.style()
	case "linkStyle":
		return p.linkStyle()
	case "click":
		p.statementText()
		return nil
	case "accTitle", "accDescr":
		p.skipInline()
		if p.peek() == '{' {
			end := strings.IndexByte(p.rest(), '}')
			if end < 0 {
				return fail(p.i, "expected } to close %s", kw)
			}
			p.i += end + 1
			return p.endStatement(`";" or a new line after ` + kw)
		}
		p.skipLine()
		return nil
	}
	return p.nodeStatement()
}

// --- nodes and links ----------------------------------------------------

// mention records that id is written here, in the innermost open
// subgraph's body if any.
func (p *parser) mention(id string) *node {
	n := p.nodes[id]
	if n == nil {
		n = &node{id: id, shape: diagram.Rectangle, shaped: -1}
		p.nodes[id] = n
		p.order = append(p.order, n)
	}
	if len(p.open) > 0 {
		g := p.open[len(p.open)-1]
		g.mentions = append(g.mentions, id)
	}
	return n
}

func (p *parser) nodeStatement() *failure {
	// e1@{ animate: true } sets an edge's animation: dropped.
	save := p.i
	if id := p.ident(); id != "" && p.edgeIDs[id] && strings.HasPrefix(p.rest(), "@{") {
		if _, f := p.braces(); f != nil {
			return f
		}
		return p.endStatement(`";" or a new line after the edge's properties`)
	}
	p.i = save
	left, f := p.nodeList()
	if f != nil {
		return f
	}
	for {
		p.skipInline()
		lat := p.i
		lk, ok, f := p.link()
		if f != nil {
			return f
		}
		if !ok {
			if p.atEnd() {
				return nil
			}
			return fail(lat, `expected a link, "&", ";" or a new line, got %s`, p.describe(lat))
		}
		p.skipInline()
		right, f := p.nodeList()
		if f != nil {
			return f
		}
		for _, from := range left {
			for _, to := range right {
				e := lk
				e.From, e.To = from, to
				p.edges = append(p.edges, e)
			}
		}
		left = right
	}
}

// nodeList reads A, or A & B & C.
func (p *parser) nodeList() ([]string, *failure) {
	var ids []string
	for {
		id, f := p.nodeRef()
		if f != nil {
			return nil, f
		}
		ids = append(ids, id)
		save := p.i
		p.skipInline()
		if p.peek() != '&' {
			p.i = save
			return ids, nil
		}
		p.i++
		p.skipInline()
	}
}

// nodeRef reads a node: its id, then a shape and label, @{ … } and
// :::classes, each optional.
func (p *parser) nodeRef() (string, *failure) {
	at := p.i
	id := p.ident()
	if id == "" {
		return "", fail(at, "expected a node id, got %s", p.describe(at))
	}
	if id == "end" {
		return "", fail(at, `expected a node id, got "end" (it closes a subgraph; write End or END for a node)`)
	}
	n := p.mention(id)
	save := p.i
	p.skipInline()
	sat := p.i
	switch {
	case strings.HasPrefix(p.rest(), "@{") && sat == save:
		if f := p.shapeData(n); f != nil {
			return "", f
		}
		n.shaped = sat
	case p.peek() == '[' || p.peek() == '(' || p.peek() == '{' || p.peek() == '>':
		shape, label, f := p.shape()
		if f != nil {
			return "", f
		}
		n.shape, n.label, n.shaped = shape, label, sat
	default:
		p.i = save
	}
	for strings.HasPrefix(p.rest(), ":::") {
		p.i += 3
		cat := p.i
		c := p.ident()
		if c == "" {
			return "", fail(cat, "expected a class name after :::, got %s", p.describe(cat))
		}
		n.classes = append(n.classes, c)
	}
	return id, nil
}

// --- subgraphs ----------------------------------------------------------

func (p *parser) subgraph(at int) *failure {
	p.skipInline()
	g := &group{n: len(p.groups), at: at}
	if len(p.open) > 0 {
		g.parent = p.open[len(p.open)-1]
	}
	tat := p.i
	switch {
	case p.atEnd():
		return fail(tat, "expected a subgraph id or title, got %s", p.describe(tat))
	case p.peek() == '"':
		raw, f := p.quoted()
		if f != nil {
			return f
		}
		g.label = text(raw)
	default:
		id := p.ident()
		save := p.i
		p.skipInline()
		switch {
		case id != "" && p.peek() == '[':
			p.i++
			p.skipInline()
			var raw string
			if p.peek() == '"' {
				q, f := p.quoted()
				if f != nil {
					return f
				}
				raw = q
				p.skipInline()
				if p.peek() != ']' {
					return fail(p.i, `expected "]" after the subgraph's title, got %s`, p.describe(p.i))
				}
			} else {
				line := p.rest()
				k := strings.IndexAny(line, "]\r\n")
				if k < 0 || line[k] != ']' {
					return fail(save, `expected "]" to close the subgraph's title on this line`)
				}
				raw = line[:k]
				p.i += k
			}
			p.i++
			g.id, g.label = id, text(raw)
		case id != "" && p.atEnd():
			g.id, g.label = id, id
		default:
			p.i = tat
			g.label = text(p.statementText())
		}
	}
	if g.id != "" {
		if prev := p.groupIDs[g.id]; prev != nil {
			line, _ := position(p.src, prev.at)
			return fail(tat, "subgraph %q is defined twice (first at line %d)", g.id, line)
		}
		p.groupIDs[g.id] = g
	}
	p.groups = append(p.groups, g)
	p.open = append(p.open, g)
	return p.endStatement(`";" or a new line after the subgraph's title`)
}

// close gives the nodes its body mentions, and no other subgraph has, to g.
func (p *parser) close(g *group) {
	for _, id := range g.mentions {
		if p.owner[id] == nil {
			p.owner[id] = g
		}
	}
	g.mentions = nil
}

// --- styles -------------------------------------------------------------

// names reads a,b,c (ids or class names).
func (p *parser) names(what string) ([]string, *failure) {
	var out []string
	for {
		p.skipInline()
		at := p.i
		id := p.ident()
		if id == "" {
			return nil, fail(at, "expected %s, got %s", what, p.describe(at))
		}
		out = append(out, id)
		save := p.i
		p.skipInline()
		if p.peek() != ',' {
			p.i = save
			return out, nil
		}
		p.i++
	}
}

// styles reads the properties that end a statement.
func (p *parser) styles(strict bool) (look, *failure) {
	p.skipInline()
	at := p.i
	raw := p.statementText()
	if strings.TrimSpace(raw) == "" && strict {
		return look{}, fail(at, "expected styles such as fill:#f9f,stroke:#333, got %s", p.describe(at))
	}
	return parseLook(raw, at, strict)
}

func (p *parser) classDef() *failure {
	names, f := p.names("a class name")
	if f != nil {
		return f
	}
	l, f := p.styles(true)
	if f != nil {
		return f
	}
	for _, n := range names {
		p.classDefs[n] = p.classDefs[n].over(l)
	}
	return nil
}

func (p *parser) class() *failure {
	ids, f := p.names("a node id")
	if f != nil {
		return f
	}
	if p.peek() != ' ' && p.peek() != '\t' {
		return fail(p.i, "expected a class name after the ids, got %s", p.describe(p.i))
	}
	classes, f := p.names("a class name")
	if f != nil {
		return f
	}
	p.classes = append(p.classes, classStmt{ids, classes})
	return p.endStatement(`";" or a new line after the class name`)
}

func (p *parser) style() *failure {
	p.skipInline()
	at := p.i
	id := p.ident()
	if id == "" {
		return fail(at, "expected a node or subgraph id, got %s", p.describe(at))
	}
	l, f := p.styles(true)
	if f != nil {
		return f
	}
	// As in Mermaid, styling an id nothing has mentioned makes a node.
	if p.nodes[id] == nil && p.groupIDs[id] == nil {
		n := &node{id: id, shape: diagram.Rectangle, shaped: -1}
		p.nodes[id] = n
		p.order = append(p.order, n)
	}
	p.styleStmts = append(p.styleStmts, styleStmt{id, l})
	return nil
}

func (p *parser) linkStyle() *failure {
	p.skipInline()
	var st linkStyleStmt
	if strings.HasPrefix(p.rest(), "default") {
		p.i += len("default")
		st.all = true
	} else {
		for {
			at := p.i
			start := p.i
			for p.i < len(p.src) && p.src[p.i] >= '0' && p.src[p.i] <= '9' {
				p.i++
			}
			n, err := strconv.Atoi(p.src[start:p.i])
			if err != nil {
				return fail(at, "expected a link's number (from 0) or default, got %s", p.describe(at))
			}
			st.indexes = append(st.indexes, n)
			st.at = append(st.at, at)
			p.skipInline()
			if p.peek() != ',' {
				break
			}
			p.i++
			p.skipInline()
		}
	}
	p.skipInline()
	if strings.HasPrefix(p.rest(), "interpolate") {
		p.i += len("interpolate")
		p.skipInline()
		p.word()
	}
	l, f := p.styles(false)
	if f != nil {
		return f
	}
	st.look = l
	p.linkStyles = append(p.linkStyles, st)
	return nil
}

// --- the graph ----------------------------------------------------------

func (p *parser) finish() (*diagram.Graph, *failure) {
	if len(p.open) > 0 {
		g := p.open[len(p.open)-1]
		name := g.id
		if name == "" {
			name = g.label
		}
		return nil, fail(g.at, "subgraph %q has no end: expected end after its body", name)
	}
	for _, g := range p.groups {
		if g.id != "" {
			continue
		}
		id := fmt.Sprintf("subGraph%d", g.n)
		for p.nodes[id] != nil || p.groupIDs[id] != nil {
			id += "_"
		}
		g.id = id
		p.groupIDs[id] = g
	}
	for _, cs := range p.classes {
		for _, id := range cs.ids {
			if g := p.groupIDs[id]; g != nil {
				g.classes = append(g.classes, cs.classes...)
			} else if n := p.nodes[id]; n != nil {
				n.classes = append(n.classes, cs.classes...)
			}
		}
	}
	styled := map[string]look{}
	for _, st := range p.styleStmts {
		styled[st.id] = styled[st.id].over(st.look)
	}

	out := &diagram.Graph{Direction: p.dir, Nodes: make([]diagram.Node, 0, len(p.order))}
	for _, g := range p.groups {
		l := look{}
		for _, c := range g.classes {
			l = l.over(p.classDefs[c])
		}
		dg := diagram.Group{ID: g.id, Label: g.label, Direction: g.dir, Style: l.over(styled[g.id]).style()}
		if g.parent != nil {
			dg.Parent = g.parent.id
		}
		out.Groups = append(out.Groups, dg)
	}
	for _, n := range p.order {
		if g := p.groupIDs[n.id]; g != nil {
			if n.shaped >= 0 {
				line, _ := position(p.src, g.at)
				return nil, fail(n.shaped, "%q is the id of the subgraph at line %d: it cannot be a node with a shape or label too", n.id, line)
			}
			continue
		}
		l := p.classDefs["default"]
		for _, c := range n.classes {
			l = l.over(p.classDefs[c])
		}
		dn := diagram.Node{ID: n.id, Label: n.label, Shape: n.shape, Style: l.over(styled[n.id]).style()}
		if g := p.owner[n.id]; g != nil {
			dn.Group = g.id
		}
		out.Nodes = append(out.Nodes, dn)
	}
	var all look
	own := map[int]look{}
	for _, st := range p.linkStyles {
		if st.all {
			all = all.over(st.look)
			continue
		}
		for k, i := range st.indexes {
			if i >= len(p.edges) {
				return nil, fail(st.at[k], "linkStyle %d: there is no link %d (%s)", i, i, count(len(p.edges)))
			}
			own[i] = own[i].over(st.look)
		}
	}
	for i := range p.edges {
		if l := all.over(own[i]); l != (look{}) {
			l.onEdge(&p.edges[i])
		}
	}
	out.Edges = p.edges
	return out, nil
}

func count(links int) string {
	switch links {
	case 0:
		return "there are no links"
	case 1:
		return "the one link is 0"
	}
	return fmt.Sprintf("links are numbered 0 to %d", links-1)
}
