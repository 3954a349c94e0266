package mermaid

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// parseSequence reads a sequenceDiagram into a diagram.Sequence that
// passes Check.
//
// It takes Mermaid's documented sequence syntax: participant and actor
// declarations (with as and a label, and @{ "type": "…" } for the UML
// stereotypes), box … end around declarations (with a colour and a
// label), messages with every arrow (->>, -->>, ->, -->, -x, --x, -),
// --), <<->>, <<-->>) and the +/- activation shorthand, activate and
// deactivate, notes (left of, right of, over one or two participants),
// loop, alt/else, opt, par/and, critical/option, break and rect blocks,
// nested, autonumber (with a start and an increment, or off), create
// and destroy. Keywords are read in any case, as Mermaid does. Front
// matter, %% comments, %%{…}%% directives, title, accTitle, accDescr
// (one line or { … }) and link/links menus are read and dropped; a
// message's wrap: or nowrap: prefix is dropped. Labels are unescaped as
// flowchart labels are (<br>, entity codes).
//
// A participant id is what Mermaid takes: anything but + < = > : , ;
// with dashes inside that do not start an arrow, and spaces inside
// (trimmed). A participant named before its declaration keeps its
// place; the declaration sets its label and kind.
func parseSequence(src string) (*diagram.Sequence, error) {
	p := &seqParser{src: src, index: map[string]int{}, active: map[string]int{}, gone: map[string]int{}}
	s, f := p.parse()
	if f != nil {
		line, col := position(src, f.at)
		return nil, &Error{Line: line, Column: col, Message: f.msg}
	}
	if err := s.Check(); err != nil {
		return nil, &Error{Line: 1, Column: 1, Message: "the sequence diagram read is not sound: " + err.Error()}
	}
	return s, nil
}

type seqFrame struct {
	block   *diagram.Block
	at      int // offset of its keyword
	keyword string
}

type seqParser struct {
	src string
	i   int

	seq    diagram.Sequence
	index  map[string]int // participant id → index in seq.Participants
	named  []int          // offset where each participant was first named
	box    *diagram.ParticipantBox
	boxAt  int
	frames []seqFrame
	active map[string]int
	gone   map[string]int // destroyed participants → offset of their destroy

	// pending is "create" or "destroy" until a message involves pendingID.
	pending, pendingID string
	pendingAt          int
}

// seqStmt is one statement: its text (without a trailing comment) and
// the offset of its first character.
type seqStmt struct {
	at   int
	text string
}

func (p *seqParser) parse() (*diagram.Sequence, *failure) {
	if f := p.frontMatter(); f != nil {
		return nil, f
	}
	st, f := p.next()
	if f != nil {
		return nil, f
	}
	if st == nil || seqFirstWord(st.text) != "sequenceDiagram" {
		at := len(p.src)
		if st != nil {
			at = st.at
		}
		return nil, fail(at, "expected sequenceDiagram, got %s", p.describe(at))
	}
	if rest := st.text[len("sequenceDiagram"):]; strings.TrimSpace(rest) != "" {
		at := st.at + len("sequenceDiagram") + len(rest) - len(strings.TrimLeft(rest, " \t"))
		return nil, fail(at, "expected a new line after sequenceDiagram, got %s", p.describe(at))
	}
	for {
		st, f := p.next()
		if f != nil {
			return nil, f
		}
		if st == nil {
			break
		}
		if f := p.statement(*st); f != nil {
			return nil, f
		}
	}
	if p.box != nil {
		return nil, fail(p.boxAt, "box has no end: expected end after its participants")
	}
	if n := len(p.frames); n > 0 {
		fr := p.frames[n-1]
		return nil, fail(fr.at, "%s block has no end: expected end after its steps", fr.block.Kind)
	}
	if p.pending != "" {
		return nil, fail(p.pendingAt, "%s %s must be followed by a message to or from %s", p.pending, p.pendingID, p.pendingID)
	}
	if p.seq.Participants == nil {
		p.seq.Participants = []diagram.Participant{}
	}
	return &p.seq, nil
}

// --- statements -------------------------------------------------------

// frontMatter skips a --- … --- block at the top.
func (p *seqParser) frontMatter() *failure {
	j := len(p.src) - len(strings.TrimLeft(p.src, " \t\r\n"))
	line, _, _ := strings.Cut(p.src[j:], "\n")
	if strings.TrimSpace(line) != "---" {
		return nil
	}
	at := j
	j += len(line)
	for j < len(p.src) {
		j++ // the \n
		l, _, _ := strings.Cut(p.src[j:], "\n")
		if strings.TrimSpace(l) == "---" {
			p.i = j + len(l)
			return nil
		}
		j += len(l)
	}
	return fail(at, "expected --- to close the front matter")
}

// next returns the next statement, nil at the end: it skips blanks,
// semicolons, comments and directives, and ends the statement at a line
// end, a comment or a semicolon that does not close an entity code
// (#9829; stays in the text).
func (p *seqParser) next() (*seqStmt, *failure) {
	for p.i < len(p.src) {
		switch c := p.src[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == ';':
			p.i++
			continue
		case strings.HasPrefix(p.src[p.i:], "%%{"):
			end := strings.Index(p.src[p.i+3:], "}%%")
			if end < 0 {
				return nil, fail(p.i, "expected }%%%% to close the directive")
			}
			p.i += 3 + end + 3
			continue
		case strings.HasPrefix(p.src[p.i:], "%%"):
			p.skipLine()
			continue
		}
		start := p.i
		for p.i < len(p.src) {
			c := p.src[p.i]
			if c == '\n' || c == '\r' || strings.HasPrefix(p.src[p.i:], "%%") || c == ';' && !seqEntityBefore(p.src[start:p.i]) {
				break
			}
			p.i++
		}
		return &seqStmt{start, strings.TrimRight(p.src[start:p.i], " \t")}, nil
	}
	return nil, nil
}

// seqEntityBefore reports whether s ends with an entity code's start
// (#9829, #quot, &amp, &#35), so that a ; after it closes the entity.
func seqEntityBefore(s string) bool {
	j := len(s)
	for j > 0 && (seqLetter(s[j-1]) || s[j-1] >= '0' && s[j-1] <= '9') {
		j--
	}
	if j == len(s) || j == 0 {
		return false
	}
	return s[j-1] == '#' || s[j-1] == '&'
}

func seqLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func (p *seqParser) skipLine() {
	if j := strings.IndexByte(p.src[p.i:], '\n'); j >= 0 {
		p.i += j
	} else {
		p.i = len(p.src)
	}
}

func (p *seqParser) describe(off int) string {
	return (&parser{src: p.src}).describe(off)
}

// seqFirstWord is s's leading letters, digits, _ and -.
func seqFirstWord(s string) string {
	j := 0
	for j < len(s) && (seqLetter(s[j]) || s[j] >= '0' && s[j] <= '9' || s[j] == '_' || s[j] == '-') {
		j++
	}
	return s[:j]
}

// seqKeyword is st's first word in lower case when a space, the end or a
// colon follows it, else "".
func seqKeyword(st seqStmt) (kw, rest string, restAt int) {
	j := 0
	for j < len(st.text) && (seqLetter(st.text[j]) || st.text[j] == '_') {
		j++
	}
	if j == 0 || j < len(st.text) && st.text[j] != ' ' && st.text[j] != '\t' && st.text[j] != ':' && st.text[j] != '{' {
		return "", "", 0
	}
	rest = st.text[j:]
	trimmed := strings.TrimLeft(rest, " \t")
	return strings.ToLower(st.text[:j]), trimmed, st.at + j + len(rest) - len(trimmed)
}

func (p *seqParser) statement(st seqStmt) *failure {
	kw, rest, restAt := seqKeyword(st)
	if p.box != nil && kw != "participant" && kw != "actor" && kw != "end" {
		return fail(st.at, "only participant and actor declarations go inside a box (close the box at line %d with end first)", p.line(p.boxAt))
	}
	if p.pending != "" && !p.isMessage(st) && kw != "activate" && kw != "deactivate" {
		return fail(st.at, "%s %s must be followed by a message to or from %s", p.pending, p.pendingID, p.pendingID)
	}
	switch kw {
	case "participant", "actor":
		return p.declare(kw, rest, restAt, false)
	case "create":
		k, r, rat := seqKeyword(seqStmt{restAt, rest})
		if k != "participant" && k != "actor" {
			return fail(restAt, "expected participant or actor after create, got %s", p.describe(restAt))
		}
		return p.declare(k, r, rat, true)
	case "destroy":
		id, f := p.wholeID(rest, restAt, "destroy")
		if f != nil {
			return f
		}
		if f := p.use(id, restAt); f != nil {
			return f
		}
		p.add(diagram.Step{Kind: diagram.DestroyStep, Participant: id})
		p.pending, p.pendingID, p.pendingAt = "destroy", id, st.at
		return nil
	case "activate", "deactivate":
		id, f := p.wholeID(rest, restAt, kw)
		if f != nil {
			return f
		}
		if f := p.use(id, restAt); f != nil {
			return f
		}
		if kw == "activate" {
			p.active[id]++
			p.add(diagram.Step{Kind: diagram.ActivateStep, Participant: id})
			return nil
		}
		if p.active[id] == 0 {
			return fail(restAt, "participant %s is not active: deactivate follows activate %s or a message ->>+%s", id, id, id)
		}
		p.active[id]--
		p.add(diagram.Step{Kind: diagram.DeactivateStep, Participant: id})
		return nil
	case "note":
		return p.note(rest, restAt)
	case "loop", "alt", "opt", "par", "critical", "break":
		return p.open(diagram.BlockKind(kw), kw, text(rest), "", st.at)
	case "rect":
		c, after := seqColour(rest)
		if c == "" {
			return fail(restAt, "expected a colour after rect, as in rect rgb(200, 220, 255), got %s", p.describe(restAt))
		}
		if strings.TrimSpace(after) != "" {
			at := restAt + len(rest) - len(strings.TrimLeft(after, " \t"))
			return fail(at, "expected a new line after rect's colour, got %s", p.describe(at))
		}
		return p.open(diagram.Rect, kw, "", c, st.at)
	case "else", "and", "option":
		return p.section(kw, text(rest), st.at)
	case "end":
		if rest != "" {
			return fail(restAt, "expected a new line after end, got %s", p.describe(restAt))
		}
		return p.end(st.at)
	case "box":
		return p.openBox(rest, st.at)
	case "autonumber":
		return p.autonumber(rest, restAt)
	case "title", "acctitle", "accdescr", "link", "links":
		if kw == "accdescr" && strings.HasPrefix(rest, "{") {
			end := strings.IndexByte(p.src[restAt:], '}')
			if end < 0 {
				return fail(restAt, "expected } to close accDescr's {")
			}
			p.i = restAt + end + 1
		}
		return nil
	}
	return p.message(st)
}

func (p *seqParser) line(off int) int {
	l, _ := position(p.src, off)
	return l
}

// add appends a step to the innermost open block's last section, or to
// the diagram.
func (p *seqParser) add(s diagram.Step) {
	if n := len(p.frames); n > 0 {
		b := p.frames[n-1].block
		sec := &b.Sections[len(b.Sections)-1]
		sec.Steps = append(sec.Steps, s)
		return
	}
	p.seq.Steps = append(p.seq.Steps, s)
}

// --- participants -----------------------------------------------------

// seqScanID returns the end of the participant id that starts s (spaces
// inside kept, trailing ones not): anything but + < = > : , ; and line
// ends, with runs of dashes inside that do not start an arrow.
func seqScanID(s string) int {
	end, j := 0, 0
	for j < len(s) {
		c := s[j]
		switch {
		case strings.IndexByte("+<=>:,;\n\r", c) >= 0:
			return end
		case c == '-':
			if seqArrowAt(s[j:]) != "" {
				return end
			}
			k := j
			for k < len(s) && s[k] == '-' {
				k++
			}
			if k == len(s) || strings.IndexByte("+<=>:,;\n\r \t", s[k]) >= 0 {
				return end
			}
			j = k
		default:
			r, size := utf8.DecodeRuneInString(s[j:])
			j += size
			if unicode.IsSpace(r) {
				continue
			}
		}
		end = j
	}
	return end
}

// wholeID reads s (at off) as one participant id and nothing more.
func (p *seqParser) wholeID(s string, off int, after string) (string, *failure) {
	n := seqScanID(s)
	if n == 0 {
		return "", fail(off, "expected a participant id after %s, got %s", after, p.describe(off))
	}
	if strings.TrimSpace(s[n:]) != "" {
		at := off + n + len(s[n:]) - len(strings.TrimLeft(s[n:], " \t"))
		return "", fail(at, "expected a new line after participant %s, got %s", s[:n], p.describe(at))
	}
	return s[:n], nil
}

// use names participant id at off, adding it if it is new.
func (p *seqParser) use(id string, off int) *failure {
	if at, ok := p.gone[id]; ok {
		return fail(off, "participant %s was destroyed at line %d: nothing may name it after the message that destroyed it", id, p.line(at))
	}
	if _, ok := p.index[id]; ok {
		return nil
	}
	p.index[id] = len(p.seq.Participants)
	p.named = append(p.named, off)
	p.seq.Participants = append(p.seq.Participants, diagram.Participant{ID: id})
	return nil
}

var seqParticipantTypes = map[string]diagram.ParticipantKind{
	"participant": diagram.PlainParticipant, "actor": diagram.Actor, "boundary": diagram.Boundary,
	"control": diagram.Control, "entity": diagram.Entity, "database": diagram.Database,
	"collections": diagram.Collections, "queue": diagram.Queue,
}

// declare reads a participant or actor declaration's rest: an id,
// @{ … } and as and a label, each optional but the id.
func (p *seqParser) declare(kw, rest string, restAt int, create bool) *failure {
	kind := diagram.ParticipantKind(kw)
	var label string
	idPart := rest
	after := ""
	afterAt := 0
	if j := strings.Index(rest, "@{"); j >= 0 {
		idPart = rest[:j]
		end := strings.IndexByte(rest[j:], '}')
		if end < 0 {
			return fail(restAt+j, "expected } to close @{")
		}
		k, f := p.metadata(rest[j+2:j+end], restAt+j+2)
		if f != nil {
			return f
		}
		if k != "" {
			kind = k
		}
		after = rest[j+end+1:]
		afterAt = restAt + j + end + 1
	} else if j := seqAsAt(rest); j >= 0 {
		idPart = rest[:j]
		after = rest[j:]
		afterAt = restAt + j
	}
	id := strings.TrimRight(idPart, " \t")
	if id == "" {
		return fail(restAt, "expected a participant id after %s, got %s", kw, p.describe(restAt))
	}
	if n := seqScanID(id); n != len(id) {
		return fail(restAt+n, "a participant id takes no %s (it would end the id in a message): write it in the label, after as", p.describe(restAt+n))
	}
	if t := strings.TrimLeft(after, " \t"); t != "" {
		tAt := afterAt + len(after) - len(t)
		if seqAsAt(" "+t) != 1 {
			return fail(tAt, "expected as and a label after participant %s, got %s", id, p.describe(tAt))
		}
		raw := t[2:]
		if strings.TrimSpace(raw) == "" {
			return fail(tAt+2, "expected a label after as, got the end of the line")
		}
		label = text(raw)
	}
	if label == id {
		label = ""
	}
	if at, ok := p.gone[id]; ok {
		return fail(restAt, "participant %s was destroyed at line %d: nothing may name it after the message that destroyed it", id, p.line(at))
	}
	i, exists := p.index[id]
	switch {
	case exists && create:
		return fail(restAt, "participant %s exists already (named at line %d): create introduces a new one", id, p.line(p.named[i]))
	case exists && p.box != nil && p.seq.Participants[i].Box != p.box.ID:
		return fail(restAt, "participant %s is placed already (named at line %d): declare it inside the box before anything names it", id, p.line(p.named[i]))
	case !exists:
		i = len(p.seq.Participants)
		p.index[id] = i
		p.named = append(p.named, restAt)
		p.seq.Participants = append(p.seq.Participants, diagram.Participant{ID: id})
	}
	pt := &p.seq.Participants[i]
	if label != "" {
		pt.Label = label
	}
	if kind != diagram.PlainParticipant || pt.Kind == "" {
		pt.Kind = kind
	}
	if pt.Kind == diagram.PlainParticipant {
		pt.Kind = ""
	}
	if p.box != nil {
		pt.Box = p.box.ID
	}
	if create {
		p.add(diagram.Step{Kind: diagram.CreateStep, Participant: id})
		p.pending, p.pendingID, p.pendingAt = "create", id, restAt
	}
	return nil
}

// seqAsAt is the offset of " as " (any case, any blanks) in s, where the
// label starts with its "as"; -1 when there is none.
func seqAsAt(s string) int {
	for j := 1; j+2 <= len(s); j++ {
		if (s[j-1] == ' ' || s[j-1] == '\t') && strings.EqualFold(s[j:j+2], "as") && (j+2 == len(s) || s[j+2] == ' ' || s[j+2] == '\t') {
			return j
		}
	}
	return -1
}

// metadata reads @{ "type": "database" }'s inside (at off): its type.
func (p *seqParser) metadata(s string, off int) (diagram.ParticipantKind, *failure) {
	var kind diagram.ParticipantKind
	pos := off
	for _, pair := range strings.Split(s, ",") {
		at := pos + len(pair) - len(strings.TrimLeft(pair, " \t"))
		pos += len(pair) + 1
		if strings.TrimSpace(pair) == "" {
			continue
		}
		k, v, ok := strings.Cut(pair, ":")
		key := strings.Trim(strings.TrimSpace(k), `"'`)
		if !ok || key != "type" {
			return "", fail(at, `expected "type": and a participant type in @{ }, got %s (other properties are not supported)`, p.describe(at))
		}
		val := strings.Trim(strings.TrimSpace(v), `"'`)
		kd, known := seqParticipantTypes[val]
		if !known {
			return "", fail(at, "participant type %q is not one of participant, actor, boundary, control, entity, database, collections, queue", val)
		}
		kind = kd
	}
	return kind, nil
}

// openBox reads box's rest: an optional colour, then a label.
func (p *seqParser) openBox(rest string, at int) *failure {
	if p.box != nil {
		return fail(at, "boxes do not nest: close the box at line %d with end first", p.line(p.boxAt))
	}
	if len(p.frames) > 0 {
		return fail(at, "a box holds participant declarations only and goes outside any block: close the %s block at line %d with end first",
			p.frames[len(p.frames)-1].block.Kind, p.line(p.frames[len(p.frames)-1].at))
	}
	c, label := seqColour(rest)
	if c == "transparent" {
		c = ""
	}
	b := diagram.ParticipantBox{ID: fmt.Sprintf("box%d", len(p.seq.Boxes)+1), Label: text(label), Color: c}
	p.seq.Boxes = append(p.seq.Boxes, b)
	p.box, p.boxAt = &p.seq.Boxes[len(p.seq.Boxes)-1], at
	return nil
}

// seqColour splits a leading CSS colour (rgb(…), rgba(…), hsl(…),
// hsla(…), #hex, a colour name or transparent) off s.
func seqColour(s string) (c, rest string) {
	s = strings.TrimLeft(s, " \t")
	lower := strings.ToLower(s)
	for _, fn := range []string{"rgb(", "rgba(", "hsl(", "hsla("} {
		if strings.HasPrefix(lower, fn) {
			if end := strings.IndexByte(s, ')'); end >= 0 {
				return s[:end+1], s[end+1:]
			}
			return "", s
		}
	}
	w, after, _ := strings.Cut(s, " ")
	if t, a, ok := strings.Cut(w, "\t"); ok {
		w, after = t, a+" "+after
	}
	if strings.HasPrefix(w, "#") && (len(w) == 4 || len(w) == 5 || len(w) == 7 || len(w) == 9) && strings.Trim(strings.ToLower(w[1:]), "0123456789abcdef") == "" {
		return w, after
	}
	if lw := strings.ToLower(w); lw == "transparent" || seqCSSColours[lw] {
		return w, after
	}
	return "", s
}

var seqCSSColours = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`aliceblue antiquewhite aqua aquamarine azure beige bisque black
	blanchedalmond blue blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue
	cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki
	darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen darkslateblue
	darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey
	dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray
	green greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush
	lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen
	lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey
	lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine mediumblue
	mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen mediumturquoise
	mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive
	olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred
	papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue
	saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray
	slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white
	whitesmoke yellow yellowgreen`) {
		m[n] = true
	}
	return m
}()

// --- steps ------------------------------------------------------------

func (p *seqParser) autonumber(rest string, at int) *failure {
	a := &diagram.Autonumber{}
	f := strings.Fields(rest)
	switch {
	case len(f) == 1 && strings.EqualFold(f[0], "off"):
		a.Off = true
	case len(f) <= 2:
		for k, w := range f {
			n, err := strconv.Atoi(w)
			if err != nil || n < 0 || n > 1e9 {
				wAt := at + strings.Index(rest, w)
				return fail(wAt, "expected autonumber, autonumber off, or autonumber with a start and an increment (numbers from 0), got %s", p.describe(wAt))
			}
			if k == 0 {
				a.Start = n
			} else {
				a.Increment = n
			}
		}
	default:
		wAt := at + strings.Index(rest, f[2])
		return fail(wAt, "expected a new line after autonumber's start and increment, got %s", p.describe(wAt))
	}
	p.add(diagram.Step{Kind: diagram.AutonumberStep, Autonumber: a})
	return nil
}

func (p *seqParser) open(kind diagram.BlockKind, kw, label, c string, at int) *failure {
	b := &diagram.Block{Kind: kind, Color: c, Sections: []diagram.Section{{Label: label}}}
	p.add(diagram.Step{Kind: diagram.BlockStep, Block: b})
	p.frames = append(p.frames, seqFrame{b, at, kw})
	return nil
}

var seqSectionOf = map[string]diagram.BlockKind{"else": diagram.Alt, "and": diagram.Par, "option": diagram.Critical}

func (p *seqParser) section(kw, label string, at int) *failure {
	want := seqSectionOf[kw]
	n := len(p.frames)
	if n == 0 || p.frames[n-1].block.Kind != want {
		where := "outside any block"
		if n > 0 {
			where = fmt.Sprintf("in the %s block at line %d", p.frames[n-1].block.Kind, p.line(p.frames[n-1].at))
		}
		return fail(at, "%s %s: %s opens another section of a %s block only", kw, where, kw, want)
	}
	b := p.frames[n-1].block
	b.Sections = append(b.Sections, diagram.Section{Label: label})
	return nil
}

func (p *seqParser) end(at int) *failure {
	if p.box != nil {
		p.box = nil
		return nil
	}
	if len(p.frames) == 0 {
		return fail(at, "end without a block or box to close")
	}
	p.frames = p.frames[:len(p.frames)-1]
	return nil
}

var seqPlacements = []struct {
	words []string
	p     diagram.NotePlacement
}{{[]string{"left", "of"}, diagram.LeftOf}, {[]string{"right", "of"}, diagram.RightOf}, {[]string{"over"}, diagram.Over}}

func (p *seqParser) note(rest string, at int) *failure {
	var place diagram.NotePlacement
	s := rest
	for _, pl := range seqPlacements {
		t := s
		ok := true
		for _, w := range pl.words {
			if len(t) < len(w) || !strings.EqualFold(t[:len(w)], w) || len(t) > len(w) && t[len(w)] != ' ' && t[len(w)] != '\t' {
				ok = false
				break
			}
			t = strings.TrimLeft(t[len(w):], " \t")
		}
		if ok {
			place, s = pl.p, t
			break
		}
	}
	if place == "" {
		return fail(at, "expected left of, right of or over after note, got %s", p.describe(at))
	}
	sAt := at + len(rest) - len(s)
	colon := strings.IndexByte(s, ':')
	names := s
	if colon >= 0 {
		names = s[:colon]
	}
	var ids []string
	off := sAt
	for _, part := range strings.Split(names, ",") {
		lead := len(part) - len(strings.TrimLeft(part, " \t"))
		id := strings.TrimSpace(part)
		if id == "" || seqScanID(part[lead:]) != len(id) {
			pAt := off + lead
			if id != "" {
				pAt += seqScanID(part[lead:])
			}
			return fail(pAt, "expected a participant id, got %s", p.describe(pAt))
		}
		if f := p.use(id, off+lead); f != nil {
			return f
		}
		ids = append(ids, id)
		off += len(part) + 1
	}
	if len(ids) > 2 || len(ids) == 2 && place != diagram.Over {
		return fail(sAt, "a note %s names one participant, a note over one or two", place)
	}
	if len(ids) == 2 && ids[0] == ids[1] {
		ids = ids[:1]
	}
	if colon < 0 {
		return fail(sAt+len(s), "expected : and the note's text after %s, got the end of the line", strings.Join(ids, ","))
	}
	p.add(diagram.Step{Kind: diagram.NoteStep, Note: &diagram.Note{Placement: place, Participants: ids, Text: text(s[colon+1:])}})
	return nil
}

// seqArrows are the message arrows, longest first where one starts another.
var seqArrows = []struct {
	s           string
	line        diagram.Line
	start, head diagram.Arrowhead
}{
	{"<<-->>", diagram.Dashed, diagram.TriangleHead, diagram.TriangleHead},
	{"<<->>", diagram.Solid, diagram.TriangleHead, diagram.TriangleHead},
	{"-->>", diagram.Dashed, diagram.NoHead, diagram.TriangleHead},
	{"->>", diagram.Solid, diagram.NoHead, diagram.TriangleHead},
	{"-->", diagram.Dashed, diagram.NoHead, diagram.NoHead},
	{"->", diagram.Solid, diagram.NoHead, diagram.NoHead},
	{"--x", diagram.Dashed, diagram.NoHead, diagram.CrossHead},
	{"-x", diagram.Solid, diagram.NoHead, diagram.CrossHead},
	{"--)", diagram.Dashed, diagram.NoHead, diagram.ArrowHead},
	{"-)", diagram.Solid, diagram.NoHead, diagram.ArrowHead},
}

// seqArrowAt is the arrow s starts with, "" if none.
func seqArrowAt(s string) string {
	for _, a := range seqArrows {
		if strings.HasPrefix(s, a.s) {
			return a.s
		}
	}
	return ""
}

func (p *seqParser) isMessage(st seqStmt) bool {
	n := seqScanID(st.text)
	rest := strings.TrimLeft(st.text[n:], " \t")
	return n > 0 && seqArrowAt(rest) != ""
}

func (p *seqParser) message(st seqStmt) *failure {
	s := st.text
	n := seqScanID(s)
	if n == 0 {
		return fail(st.at, "expected a participant id, a message (A->>B: text) or a keyword (participant, note, loop, alt, activate…), got %s", p.describe(st.at))
	}
	from := s[:n]
	j := n + len(s[n:]) - len(strings.TrimLeft(s[n:], " \t"))
	var arrow *struct {
		s           string
		line        diagram.Line
		start, head diagram.Arrowhead
	}
	for k := range seqArrows {
		if strings.HasPrefix(s[j:], seqArrows[k].s) {
			arrow = &seqArrows[k]
			break
		}
	}
	if arrow == nil {
		if j == len(s) && strings.IndexByte(from, ' ') < 0 {
			return fail(st.at, "expected a message such as %s->>B: text, or a keyword such as participant, note or loop, got %q alone", from, from)
		}
		return fail(st.at+j, "expected an arrow (->>, -->>, ->, -->, -x, --x, -), --), <<->> or <<-->>) after participant %s, got %s", from, p.describe(st.at+j))
	}
	j += len(arrow.s)
	skip := func() {
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
	}
	skip()
	m := &diagram.Message{From: from, Line: arrow.line, Start: arrow.start, Head: arrow.head}
	switch {
	case j < len(s) && s[j] == '+':
		m.Activate = true
		j++
	case j < len(s) && s[j] == '-':
		m.Deactivate = true
		j++
	}
	skip()
	toAt := j
	k := seqScanID(s[j:])
	if k == 0 {
		return fail(st.at+j, "expected a participant id after the arrow, got %s", p.describe(st.at+j))
	}
	m.To = s[j : j+k]
	j += k
	skip()
	switch {
	case j == len(s):
	case s[j] == ':':
		label := strings.TrimLeft(s[j+1:], " \t")
		for _, w := range []string{"wrap:", "nowrap:"} {
			if len(label) >= len(w) && strings.EqualFold(label[:len(w)], w) {
				label = label[len(w):]
				break
			}
		}
		m.Label = text(label)
	default:
		return fail(st.at+j, "expected : and the message's text after participant %s, got %s", m.To, p.describe(st.at+j))
	}
	if f := p.use(m.From, st.at); f != nil {
		return f
	}
	if f := p.use(m.To, st.at+toAt); f != nil {
		return f
	}
	if m.Deactivate {
		if p.active[m.From] == 0 {
			return fail(st.at+toAt-1, "participant %s is not active: a message with - after its arrow ends an activation of its sender (activate %s, or ->>+%s, first)", m.From, m.From, m.From)
		}
		p.active[m.From]--
	}
	if m.Activate {
		p.active[m.To]++
	}
	if p.pending != "" {
		if m.From != p.pendingID && m.To != p.pendingID {
			return fail(st.at, "%s %s must be followed by a message to or from %s", p.pending, p.pendingID, p.pendingID)
		}
		if p.pending == "destroy" {
			p.gone[p.pendingID] = p.pendingAt
		}
		p.pending = ""
	}
	p.add(diagram.Step{Kind: diagram.MessageStep, Message: m})
	return nil
}
