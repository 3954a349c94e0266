package mermaid

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// sketch is what the class, state and ER parsers share: the flowchart
// parser's reading of characters, words, quotes and styles, and the graph
// as the text builds it (boxes, groups, edges, styles).
type sketch struct {
	*parser

	boxes    map[string]*box
	boxOrder []*box
	scopes   []*scope
	scopeIDs map[string]*scope
	stack    []*scope // the scopes open here, innermost last
	owners   map[string]*scope
	links    []diagram.Edge
	styled   []styleAt
	autos    map[string]string // made ids' bases
	// dropScoped leaves out the boxes whose id is a scope's: a composite
	// state is a group, and an edge to it ends at the group.
	dropScoped bool
}

// box is a node as the text has said so far.
type box struct {
	id      string
	label   string
	shape   diagram.Shape
	role    string
	fields  []string
	classes []string
	// scope, if set, is the box's group whatever mentions it (start and
	// end states, notes); scoped says it was set.
	scope  *scope
	scoped bool
	at     int
	// generic and annotations make a class's label.
	generic     string
	annotations []string
}

// scope is a group: a namespace, a composite state or one of its
// concurrent regions.
type scope struct {
	id       string
	label    string
	parent   *scope
	dir      diagram.Direction
	at       int
	mentions []string
	classes  []string
	// region is the concurrent region open in a composite state (after a
	// -- line), regions counts them.
	region  *scope
	regions int
	// made are the boxes made in its body, kids the scopes opened there.
	made []*box
	kids []*scope
}

type styleAt struct {
	id   string
	at   int
	look look
}

func newSketch(src string) *sketch {
	return &sketch{
		parser:   newParser(src),
		boxes:    map[string]*box{},
		scopeIDs: map[string]*scope{},
		owners:   map[string]*scope{},
		autos:    map[string]string{},
	}
}

// autoPrefix starts the ids the parsers make (start and end states,
// notes, regions) until finish names them: no id in the text has it.
const autoPrefix = "\x00"

// hasControl reports whether s holds a control character, which no name
// of a diagram may (the ids the parsers make start with one).
func hasControl(s string) bool {
	return strings.IndexFunc(s, unicode.IsControl) >= 0
}

// auto returns a new made id; finish names it base, or base_ and more
// _ when the text uses that id.
func (s *sketch) auto(base string) string {
	id := fmt.Sprintf("%s%d", autoPrefix, len(s.autos))
	s.autos[id] = base
	return id
}

// errorAt turns a failure into the *Error it is in src.
func errorAt(src string, f *failure) error {
	line, col := position(src, f.at)
	return &Error{Line: line, Column: col, Message: f.msg}
}

// document reads front matter, the header (one of kinds), then
// statements, each read by statement.
func (s *sketch) document(statement func() *failure, kinds ...string) *failure {
	if f := s.frontMatter(); f != nil {
		return f
	}
	if f := s.blank(); f != nil {
		return f
	}
	at := s.i
	if w := s.word(); !slices.Contains(kinds, w) {
		return fail(at, "expected %s, got %s", strings.Join(kinds, " or "), s.describe(at))
	}
	s.dir = diagram.TopToBottom
	s.skipInline()
	if dat := s.i; !s.atEnd() {
		if d, ok := s.direction(); ok {
			return fail(dat, "expected a new line after the header; write the direction on a line of its own: direction %s", d)
		}
	}
	if f := s.endStatement(`";" or a new line after the header`); f != nil {
		return f
	}
	for {
		if f := s.blank(); f != nil {
			return f
		}
		if s.i >= len(s.src) {
			return nil
		}
		if f := statement(); f != nil {
			return f
		}
	}
}

// keywordOf returns which of words is at p.i, as a whole word, and reads
// it; "" (reading nothing) if none is.
func (s *sketch) keywordOf(words ...string) string {
	at := s.i
	w := s.word()
	if w != "" && slices.Contains(words, w) {
		if r, _ := utf8.DecodeRuneInString(s.rest()); s.i >= len(s.src) || !isIDRune(r) {
			return w
		}
	}
	s.i = at
	return ""
}

// acc reads accTitle: … and accDescr: … or accDescr { … }, and drops them.
func (s *sketch) acc(kw string) *failure {
	s.skipInline()
	switch s.peek() {
	case '{':
		end := strings.IndexByte(s.rest(), '}')
		if end < 0 {
			return fail(s.i, "expected } to close %s", kw)
		}
		s.i += end + 1
		return s.endStatement(`";" or a new line after ` + kw)
	case ':':
		s.skipLine()
		return nil
	}
	return fail(s.i, `expected ":" and text after %s, got %s`, kw, s.describe(s.i))
}

// unexpected names what is at off: unexpected "X", or unexpected end
// of line.
func (s *sketch) unexpected(off int) string {
	switch d := s.describe(off); d {
	case "the end of the text":
		return "unexpected end of text"
	case "the end of the line":
		return "unexpected end of line"
	default:
		return "unexpected " + d
	}
}

// lineText returns the rest of the line: the text after a colon (a
// member, a label, a description) may hold ";" and "#quot;".
func (s *sketch) lineText() string {
	start := s.i
	for s.i < len(s.src) && s.src[s.i] != '\n' && s.src[s.i] != '\r' {
		s.i++
	}
	return s.src[start:s.i]
}

// directionStmt reads direction's value and returns it.
func (s *sketch) directionStmt() (diagram.Direction, *failure) {
	s.skipInline()
	at := s.i
	d, ok := s.direction()
	if !ok {
		return "", fail(at, "expected a direction (TB, TD, BT, LR or RL), got %s", s.describe(at))
	}
	return d, s.endStatement(`";" or a new line after the direction`)
}

// styleStmt reads style id fill:…, kept for finish.
func (s *sketch) styleStmt(what string) *failure {
	s.skipInline()
	at := s.i
	id := s.ident()
	if id == "" {
		return fail(at, "expected %s id after style, got %s", what, s.describe(at))
	}
	l, f := s.styles(true)
	if f != nil {
		return f
	}
	s.styled = append(s.styled, styleAt{id, at, l})
	return nil
}

// classMarks reads :::name after a reference, any number of times.
func (s *sketch) classMarks(b *box) *failure {
	for strings.HasPrefix(s.rest(), ":::") {
		s.i += 3
		at := s.i
		c := s.ident()
		if c == "" {
			return fail(at, "expected a class name after :::, got %s", s.describe(at))
		}
		b.classes = append(b.classes, c)
	}
	return nil
}

// cur is the innermost open scope (a composite's open region), nil at
// the top.
func (s *sketch) cur() *scope {
	if len(s.stack) == 0 {
		return nil
	}
	sc := s.stack[len(s.stack)-1]
	if sc.region != nil {
		return sc.region
	}
	return sc
}

// mention records that id is written here, making its box if new.
func (s *sketch) mention(id string, at int, shape diagram.Shape) *box {
	b := s.boxes[id]
	if b == nil {
		b = &box{id: id, shape: shape, at: at}
		s.boxes[id] = b
		s.boxOrder = append(s.boxOrder, b)
	}
	if sc := s.cur(); sc != nil {
		sc.mentions = append(sc.mentions, id)
	}
	return b
}

// made adds a box with a made id in the current scope.
func (s *sketch) made(base string, shape diagram.Shape, role string, at int) *box {
	b := &box{id: s.auto(base), shape: shape, role: role, at: at, scope: s.cur(), scoped: true}
	if b.scope != nil {
		b.scope.made = append(b.scope.made, b)
	}
	s.boxes[b.id] = b
	s.boxOrder = append(s.boxOrder, b)
	return b
}

// openScope starts a group here; a scope id used twice is an error.
func (s *sketch) openScope(id, label string, at int, what string) (*scope, *failure) {
	if prev := s.scopeIDs[id]; prev != nil {
		line, _ := position(s.src, prev.at)
		return nil, fail(at, "%s %q is defined twice (first at line %d); write its body in one block", what, id, line)
	}
	sc := &scope{id: id, label: label, parent: s.cur(), at: at}
	if sc.parent != nil {
		sc.parent.kids = append(sc.parent.kids, sc)
	}
	s.scopes = append(s.scopes, sc)
	s.scopeIDs[id] = sc
	s.stack = append(s.stack, sc)
	return sc, nil
}

// closeScope closes the innermost scope (and its open region): the boxes
// its body mentions, and no scope closed before has, are its.
func (s *sketch) closeScope() {
	sc := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	if sc.region != nil {
		s.settle(sc.region)
	}
	s.settle(sc)
}

func (s *sketch) settle(sc *scope) {
	for _, id := range sc.mentions {
		if s.owners[id] == nil {
			s.owners[id] = sc
		}
	}
	sc.mentions = nil
}

// edge adds an edge.
func (s *sketch) edge(e diagram.Edge) { s.links = append(s.links, e) }

// finish turns what was read into the graph: made ids named, styles
// applied, every id checked.
func (s *sketch) finish() (*diagram.Graph, *failure) {
	if len(s.stack) > 0 {
		sc := s.stack[len(s.stack)-1]
		return nil, fail(sc.at, "%q is not closed: expected } after its body", sc.id)
	}
	// Name the made ids, in the order made, clear of the text's ids.
	taken := map[string]bool{}
	for id := range s.boxes {
		taken[id] = true
	}
	for id := range s.scopeIDs {
		taken[id] = true
	}
	names := map[string]string{}
	name := func(id string) string {
		if n, ok := names[id]; ok {
			return n
		}
		if !strings.HasPrefix(id, autoPrefix) {
			return id
		}
		n := s.autos[id]
		for taken[n] {
			n += "_"
		}
		taken[n] = true
		names[id] = n
		return n
	}
	for _, sc := range s.scopes {
		sc.id = name(sc.id)
	}
	for _, b := range s.boxOrder {
		if strings.HasPrefix(b.id, autoPrefix) {
			name(b.id)
		}
	}
	for _, cs := range s.classes {
		for _, id := range cs.ids {
			if sc := s.scopeIDs[id]; sc != nil {
				sc.classes = append(sc.classes, cs.classes...)
			}
			if b := s.boxes[id]; b != nil {
				b.classes = append(b.classes, cs.classes...)
			}
		}
	}
	own := map[string]look{}
	for _, st := range s.styled {
		if s.boxes[st.id] == nil && s.scopeIDs[st.id] == nil {
			return nil, fail(st.at, "style %s: nothing is named %s", st.id, st.id)
		}
		own[st.id] = own[st.id].over(st.look)
	}
	g := &diagram.Graph{Direction: s.dir, Nodes: make([]diagram.Node, 0, len(s.boxOrder))}
	for _, sc := range s.scopes {
		l := look{}
		for _, c := range sc.classes {
			l = l.over(s.classDefs[c])
		}
		dg := diagram.Group{ID: sc.id, Label: sc.label, Direction: sc.dir, Style: l.over(own[sc.id]).style()}
		if sc.parent != nil {
			dg.Parent = sc.parent.id
		}
		g.Groups = append(g.Groups, dg)
	}
	for _, b := range s.boxOrder {
		if s.dropScoped && s.scopeIDs[b.id] != nil {
			continue
		}
		l := s.classDefs["default"]
		for _, c := range b.classes {
			l = l.over(s.classDefs[c])
		}
		n := diagram.Node{ID: name(b.id), Label: b.label, Shape: b.shape, Role: b.role,
			Fields: b.fields, Style: l.over(own[b.id]).style()}
		sc := s.owners[b.id]
		if b.scoped {
			sc = b.scope
		}
		if sc != nil {
			n.Group = sc.id
		}
		g.Nodes = append(g.Nodes, n)
	}
	for _, e := range s.links {
		e.From, e.To = name(e.From), name(e.To)
		g.Edges = append(g.Edges, e)
	}
	return g, nil
}

// --- class diagrams -------------------------------------------------------

// parseClass reads a classDiagram (or classDiagram-v2) into a graph:
//
//   - A class is a rectangle node, its id the class name; Label is always
//     set: the name (Name<T> for a generic ~T~, or its ["label"]), under
//     one «annotation» line for each <<annotation>>. Members, from
//     class X { … } bodies and X : member lines, are Fields in order, as
//     written (visibility and $ or * kept), ~T~ shown as <T>.
//   - A relation's marks: <| and |> triangle_outline, * diamond, o
//     diamond_outline, < and > arrow, () circle_outline; -- is a solid
//     line, .. a dashed one, no mark no head (EndNone). The edge points at
//     its only head, so A <|-- B (B inherits A) and A *-- B are edges from
//     B to A with the head at A; with heads at both ends or none it goes
//     from the left class to the right one. "multiplicities" go to
//     StartLabel and EndLabel by the end they are written at, ": label"
//     to Label.
//   - A namespace is a group; a class belongs to the first namespace to
//     close that names it in its own body, as subgraphs do.
//   - A note is a rectangle node with Role "note" (id note, note_…); note
//     for X adds a dashed edge without a head from the note to X.
//   - classDef, cssClass "A,B" name, ::: and style set Style as in
//     flowcharts; style on a name nothing has is an error.
func parseClass(src string) (*diagram.Graph, error) {
	c := &classParser{sketch: newSketch(src)}
	if f := c.document(c.statement, "classDiagram", "classDiagram-v2"); f != nil {
		return nil, errorAt(src, f)
	}
	g, f := c.classFinish()
	if f != nil {
		return nil, errorAt(src, f)
	}
	return g, nil
}

type classParser struct {
	*sketch
}

func (c *classParser) classFinish() (*diagram.Graph, *failure) {
	for _, b := range c.boxOrder {
		if b.role == "note" {
			continue
		}
		var lines []string
		for _, a := range b.annotations {
			lines = append(lines, "«"+a+"»")
		}
		switch {
		case b.label != "":
			lines = append(lines, b.label)
		case b.generic != "":
			lines = append(lines, b.id+"<"+generics(b.generic)+">")
		default:
			lines = append(lines, b.id)
		}
		b.label = strings.Join(lines, "\n")
	}
	return c.finish()
}

func (c *classParser) statement() *failure {
	at := c.i
	kw := c.keywordOf("class", "namespace", "note", "direction", "classDef", "cssClass", "style",
		"click", "link", "callback", "accTitle", "accDescr")
	if kw != "" && kw != "accTitle" && kw != "accDescr" && c.relationAhead() {
		// A class named like a keyword: note --> A, link : +url.
		c.i, kw = at, ""
	}
	switch kw {
	case "class":
		return c.declaration()
	case "namespace":
		return c.namespace(at)
	case "note":
		return c.note(at)
	case "direction":
		d, f := c.directionStmt()
		if sc := c.cur(); sc != nil {
			sc.dir = d
		} else if f == nil {
			c.dir = d
		}
		return f
	case "classDef":
		return c.classDef()
	case "cssClass":
		return c.cssClass()
	case "style":
		return c.styleStmt("a class")
	case "click", "link", "callback":
		c.statementText()
		return nil
	case "accTitle", "accDescr":
		return c.acc(kw)
	}
	switch {
	case c.peek() == '}':
		if len(c.stack) == 0 {
			return fail(at, "unexpected }; there is no namespace to close")
		}
		c.i++
		c.closeScope()
		return c.endStatement(`";" or a new line after }`)
	case strings.HasPrefix(c.rest(), "<<"):
		return c.annotation()
	}
	return c.relation()
}

// classRef reads a class name (letters, digits, _, or `any text`), a
// generic ~T~ and :::classes, and mentions it.
func (c *classParser) classRef() (*box, *failure) {
	at := c.i
	var id string
	if c.peek() == '`' {
		end := strings.IndexAny(c.src[c.i+1:], "`\n")
		if end < 0 || c.src[c.i+1+end] != '`' {
			return nil, fail(at, "expected ` to close this class name on its line")
		}
		id = strings.TrimSpace(c.src[c.i+1 : c.i+1+end])
		c.i += end + 2
		if id == "" {
			return nil, fail(at, "expected a class name between the backticks")
		}
		if hasControl(id) {
			return nil, fail(at, "a class name may not hold control characters")
		}
	} else {
		id = c.ident()
	}
	if id == "" {
		return nil, fail(at, "%s; expected a class name", c.unexpected(at))
	}
	b := c.mention(id, at, diagram.Rectangle)
	if c.peek() == '~' {
		gat := c.i
		line := c.rest()
		if k := strings.IndexAny(line, "\r\n"); k >= 0 {
			line = line[:k]
		}
		end := strings.LastIndexByte(line, '~')
		// The generic ends at the last ~ before a space, {, [, : or a relation.
		if stop := strings.IndexAny(line, " \t{[:;"); stop >= 0 {
			end = strings.LastIndexByte(line[:stop], '~')
		}
		if end <= 0 {
			return nil, fail(gat, "expected ~ to close the generic type of %s", id)
		}
		b.generic = line[1:end]
		c.i += end + 1
	}
	if f := c.classMarks(b); f != nil {
		return nil, f
	}
	return b, nil
}

// declaration reads class Name~T~["Label"]:::c { members }.
func (c *classParser) declaration() *failure {
	c.skipInline()
	b, f := c.classRef()
	if f != nil {
		return f
	}
	if c.peek() == '[' {
		lat := c.i
		c.i++
		c.skipInline()
		if c.peek() != '"' {
			return fail(c.i, `expected a quoted label after "[", got %s`, c.describe(c.i))
		}
		raw, f := c.quoted()
		if f != nil {
			return f
		}
		c.skipInline()
		if c.peek() != ']' {
			return fail(c.i, `expected "]" after the label opened at column %d, got %s`, c.column(lat), c.describe(c.i))
		}
		c.i++
		b.label = text(raw)
		if f := c.classMarks(b); f != nil {
			return f
		}
	}
	c.skipInline()
	if c.peek() != '{' {
		return c.endStatement(`"{", ";" or a new line after the class name`)
	}
	bat := c.i
	end := strings.IndexByte(c.src[c.i+1:], '}')
	if end < 0 {
		return fail(bat, "expected } to close the body of class %s", b.id)
	}
	body := c.src[c.i+1 : c.i+1+end]
	c.i += end + 2
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "" || strings.HasPrefix(l, "%%"):
		case strings.HasPrefix(l, "<<") && strings.HasSuffix(l, ">>") && len(l) > 4:
			b.annotations = append(b.annotations, strings.TrimSpace(l[2:len(l)-2]))
		default:
			b.fields = append(b.fields, generics(l))
		}
	}
	return c.endStatement(`";" or a new line after the class body`)
}

// annotation reads <<interface>> Name.
func (c *classParser) annotation() *failure {
	at := c.i
	line := c.rest()
	end := strings.Index(line, ">>")
	if nl := strings.IndexAny(line, "\r\n"); end < 0 || nl >= 0 && nl < end {
		return fail(at, "expected >> to close the annotation on this line")
	}
	a := strings.TrimSpace(line[2:end])
	if a == "" {
		return fail(at, "expected an annotation between << and >>, such as <<interface>>")
	}
	c.i += end + 2
	c.skipInline()
	b, f := c.classRef()
	if f != nil {
		return f
	}
	b.annotations = append(b.annotations, a)
	return c.endStatement(`";" or a new line after the annotated class`)
}

func (c *classParser) namespace(at int) *failure {
	c.skipInline()
	nat := c.i
	id := c.ident()
	if id == "" {
		return fail(nat, "%s; expected a namespace name", c.unexpected(nat))
	}
	c.skipInline()
	if c.peek() != '{' {
		return fail(c.i, `expected "{" after namespace %s, got %s`, id, c.describe(c.i))
	}
	c.i++
	_, f := c.openScope(id, id, at, "namespace")
	return f
}

// note reads note "text" and note for Class "text".
func (c *classParser) note(at int) *failure {
	c.skipInline()
	var target *box
	if c.keywordOf("for") != "" {
		c.skipInline()
		b, f := c.classRef()
		if f != nil {
			return f
		}
		target = b
		c.skipInline()
	}
	if c.peek() != '"' {
		return fail(c.i, `expected the note's text in quotes, got %s`, c.describe(c.i))
	}
	raw, f := c.quoted()
	if f != nil {
		return f
	}
	n := c.made("note", diagram.Rectangle, "note", at)
	n.label = text(raw)
	if target != nil {
		c.edge(diagram.Edge{From: n.id, To: target.id, Line: diagram.Dashed, EndNone: true})
	}
	return c.endStatement(`";" or a new line after the note`)
}

// cssClass reads cssClass "A,B" name.
func (c *classParser) cssClass() *failure {
	c.skipInline()
	if c.peek() != '"' {
		return fail(c.i, `expected the class names in quotes ("A,B"), got %s`, c.describe(c.i))
	}
	raw, f := c.quoted()
	if f != nil {
		return f
	}
	var ids []string
	for _, id := range strings.Split(raw, ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	c.skipInline()
	classes, f := c.names("a style class name")
	if f != nil {
		return f
	}
	c.classes = append(c.classes, classStmt{ids, classes})
	return c.endStatement(`";" or a new line after the style class name`)
}

// classHeads are a relation's end marks, as written on the left and on
// the right of its line, longest first.
var (
	leftHeads  = []string{"<|", "()", "*", "o", "<"}
	rightHeads = []string{"|>", "()", "*", "o", ">"}
)

func classHead(mark string) diagram.Arrowhead {
	switch mark {
	case "<|", "|>":
		return diagram.TriangleOutlineHead
	case "*":
		return diagram.DiamondHead
	case "o":
		return diagram.DiamondOutlineHead
	case "<", ">":
		return diagram.ArrowHead
	case "()":
		return diagram.CircleOutlineHead
	}
	return diagram.NoHead
}

// relationToken reads a relation (<|--, *--, ..>, <|--|>…) at p.i.
func (c *classParser) relationToken() (left, right string, line diagram.Line, ok bool) {
	at := c.i
	s := c.rest()
	for _, h := range leftHeads {
		if strings.HasPrefix(s, h) && (strings.HasPrefix(s[len(h):], "--") || strings.HasPrefix(s[len(h):], "..")) {
			left = h
			break
		}
	}
	s = s[len(left):]
	switch {
	case strings.HasPrefix(s, "--"):
		line = diagram.Solid
	case strings.HasPrefix(s, ".."):
		line = diagram.Dashed
	default:
		return "", "", "", false
	}
	s = s[2:]
	for _, h := range rightHeads {
		if strings.HasPrefix(s, h) {
			if h == "o" || h == "*" {
				if r, _ := utf8.DecodeRuneInString(s[1:]); len(s) > 1 && isIDRune(r) {
					continue
				}
			}
			right = h
			break
		}
	}
	c.i = at + len(left) + 2 + len(right)
	return left, right, line, true
}

// relationAhead reports whether a relation or ": member" follows (after
// a class name that is also a keyword), reading nothing.
func (c *classParser) relationAhead() bool {
	save := c.i
	defer func() { c.i = save }()
	c.skipInline()
	if c.peek() == ':' && !strings.HasPrefix(c.rest(), ":::") {
		return true
	}
	_, _, _, ok := c.relationToken()
	return ok
}

// relation reads A : member, a bare A, or A "1" <|-- "*" B : label.
func (c *classParser) relation() *failure {
	a, f := c.classRef()
	if f != nil {
		return f
	}
	c.skipInline()
	if c.peek() == ':' {
		c.i++
		c.skipInline()
		mat := c.i
		m := strings.TrimSpace(c.lineText())
		if m == "" {
			return fail(mat, "expected a member after %s :, got %s", a.id, c.describe(mat))
		}
		a.fields = append(a.fields, generics(m))
		return nil
	}
	if c.atEnd() {
		return nil
	}
	var near [2]string
	if c.peek() == '"' {
		raw, f := c.quoted()
		if f != nil {
			return f
		}
		near[0] = text(raw)
		c.skipInline()
	}
	rat := c.i
	lh, rh, line, ok := c.relationToken()
	if !ok {
		return fail(rat, "%s; expected a relation (<|--, *--, o--, -->, --, ..>, ..|>, ..), \": member\" or a new line", c.unexpected(rat))
	}
	c.skipInline()
	if c.peek() == '"' {
		raw, f := c.quoted()
		if f != nil {
			return f
		}
		near[1] = text(raw)
		c.skipInline()
	}
	b, f := c.classRef()
	if f != nil {
		return f
	}
	c.skipInline()
	var label string
	if c.peek() == ':' {
		c.i++
		label = text(unquote(c.lineText()))
	}
	e := diagram.Edge{From: a.id, To: b.id, Line: line, Start: classHead(lh), End: classHead(rh),
		StartLabel: near[0], EndLabel: near[1], Label: label}
	if lh != "" && rh == "" {
		// The edge points at its only head: A <|-- B is B to A.
		e = diagram.Edge{From: b.id, To: a.id, Line: line, End: classHead(lh),
			StartLabel: near[1], EndLabel: near[0], Label: label}
	}
	e.EndNone = e.End == diagram.NoHead
	c.edge(e)
	return c.endStatement(`";" or a new line after the relation (": label" names it)`)
}

// generics writes Mermaid's ~T~ as <T>: a ~ between two letters or
// digits opens, any other closes an open one.
func generics(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '~' {
			b.WriteByte(s[i])
			continue
		}
		prev, _ := utf8.DecodeLastRuneInString(s[:i])
		next, _ := utf8.DecodeRuneInString(s[i+1:])
		switch {
		case i > 0 && i+1 < len(s) && isIDRune(prev) && isIDRune(next):
			b.WriteByte('<')
			depth++
		case depth > 0:
			b.WriteByte('>')
			depth--
		default:
			b.WriteByte('~')
		}
	}
	return b.String()
}
