package diagram

import (
	"fmt"
	"strings"
)

// Sequence is a sequence diagram: participants side by side and the
// messages between them, top to bottom in time. It is laid out by
// layout.Sequence, not as a graph.
//
// Steps are in time order; a block's sections hold steps of their own.
// Activations count through blocks in the order written (an alt's
// branches are read one after the other, as Mermaid does).
type Sequence struct {
	// Participants are left to right.
	Participants []Participant `json:"participants"`
	// Boxes group neighbouring participants under a label and a colour
	// (Mermaid's box … end).
	Boxes []ParticipantBox `json:"boxes,omitempty"`
	Steps []Step           `json:"steps,omitempty"`
}

// ParticipantKind is how a participant's head is drawn.
type ParticipantKind string

// The kinds: a box, a stick figure, and the UML stereotypes Mermaid
// names with participant X@{ "type": "…" } (drawn as a box with their
// own mark, or as a plain box where there is none).
const (
	PlainParticipant ParticipantKind = "participant"
	Actor            ParticipantKind = "actor"
	Boundary         ParticipantKind = "boundary"
	Control          ParticipantKind = "control"
	Entity           ParticipantKind = "entity"
	Database         ParticipantKind = "database"
	Collections      ParticipantKind = "collections"
	Queue            ParticipantKind = "queue"
)

// ParticipantKinds are every kind, in the order above.
var ParticipantKinds = []ParticipantKind{PlainParticipant, Actor, Boundary, Control, Entity, Database, Collections, Queue}

// Participant is one lifeline's owner.
type Participant struct {
	ID string `json:"id"`
	// Label is what its head shows ("" shows its ID).
	Label string `json:"label,omitempty"`
	// Kind is PlainParticipant when empty.
	Kind ParticipantKind `json:"kind,omitempty"`
	// Box is the id of the ParticipantBox it sits in ("" none). The
	// participants of one box are neighbours.
	Box string `json:"box,omitempty"`
}

// Text is what the participant's head shows: its label, or its id.
func (p Participant) Text() string {
	if p.Label != "" {
		return p.Label
	}
	return p.ID
}

// ParticipantBox is a labelled, coloured frame around neighbouring
// participants and their lifelines.
type ParticipantBox struct {
	ID    string `json:"id"`
	Label string `json:"label,omitempty"`
	// Color is a CSS colour ("" or "transparent" is none).
	Color string `json:"color,omitempty"`
}

// StepKind says which of a Step's fields is set.
type StepKind string

// The kinds of step.
const (
	MessageStep    StepKind = "message"    // Message
	ActivateStep   StepKind = "activate"   // Participant
	DeactivateStep StepKind = "deactivate" // Participant
	NoteStep       StepKind = "note"       // Note
	BlockStep      StepKind = "block"      // Block
	AutonumberStep StepKind = "autonumber" // Autonumber
	// CreateStep: Participant appears here, its head drawn where the next
	// message, which must involve it, is.
	CreateStep StepKind = "create"
	// DestroyStep: Participant's lifeline ends at the next message,
	// which must involve it; nothing names it after that.
	DestroyStep StepKind = "destroy"
)

// Step is one thing that happens, in time order. Kind says which one
// other field is set.
type Step struct {
	Kind        StepKind    `json:"kind"`
	Message     *Message    `json:"message,omitempty"`
	Participant string      `json:"participant,omitempty"`
	Note        *Note       `json:"note,omitempty"`
	Block       *Block      `json:"block,omitempty"`
	Autonumber  *Autonumber `json:"autonumber,omitempty"`
}

// Message is an arrow from one lifeline to another (or to itself).
//
// Mermaid's arrows: ->> and -->> are Head TriangleHead (a filled head, a
// synchronous call); -> and --> NoHead; -x and --x CrossHead; -) and --)
// ArrowHead (an open head, asynchronous); <<->> and <<-->> TriangleHead
// at both ends. One dash is Solid, two Dashed.
type Message struct {
	From  string `json:"from"`
	To    string `json:"to"`
	Label string `json:"label,omitempty"`
	// Line is Solid or Dashed ("" is Solid).
	Line Line `json:"line,omitempty"`
	// Head is the mark at To, Start the mark at From (NoHead is none).
	Head  Arrowhead `json:"head,omitempty"`
	Start Arrowhead `json:"start,omitempty"`
	// Activate starts an activation of To at this message (Mermaid's
	// ->>+); Deactivate ends one of From here (-->>-).
	Activate   bool `json:"activate,omitempty"`
	Deactivate bool `json:"deactivate,omitempty"`
}

// NotePlacement is where a note sits against its participants.
type NotePlacement string

// The placements.
const (
	LeftOf  NotePlacement = "left of"
	RightOf NotePlacement = "right of"
	Over    NotePlacement = "over"
)

// Note is a text box by one participant, or over one or two.
type Note struct {
	Placement NotePlacement `json:"placement"`
	// Participants are one, or two for Over (it spans from one to the
	// other).
	Participants []string `json:"participants"`
	Text         string   `json:"text"`
}

// BlockKind is a block's keyword.
type BlockKind string

// The blocks, and the keyword that opens each further section.
const (
	Loop     BlockKind = "loop"
	Alt      BlockKind = "alt" // else
	Opt      BlockKind = "opt"
	Par      BlockKind = "par" // and
	Critical BlockKind = "critical"
	Break    BlockKind = "break"
	Rect     BlockKind = "rect" // a coloured background, no label
)

// BlockKinds are every block kind, in the order above.
var BlockKinds = []BlockKind{Loop, Alt, Opt, Par, Critical, Break, Rect}

// SectionKeyword is the keyword that opens a block's second and later
// sections ("else", "and", "option"), "" when it has only one.
func (k BlockKind) SectionKeyword() string {
	switch k {
	case Alt:
		return "else"
	case Par:
		return "and"
	case Critical:
		return "option"
	}
	return ""
}

// Block is a frame around steps: a loop, alternatives, parallel parts…
type Block struct {
	Kind BlockKind `json:"kind"`
	// Color is a Rect's CSS colour.
	Color string `json:"color,omitempty"`
	// Sections are at least one: the first holds the block's own label
	// and steps, each later one an else, and or option.
	Sections []Section `json:"sections"`
}

// Label is the block's own label: its first section's.
func (b *Block) Label() string {
	if len(b.Sections) == 0 {
		return ""
	}
	return b.Sections[0].Label
}

// Section is one part of a block.
type Section struct {
	Label string `json:"label,omitempty"`
	Steps []Step `json:"steps,omitempty"`
}

// Autonumber numbers the messages that follow: Start, Start+Increment…
// (both 1 when 0), until an Autonumber with Off.
type Autonumber struct {
	Start     int  `json:"start,omitempty"`
	Increment int  `json:"increment,omitempty"`
	Off       bool `json:"off,omitempty"`
}

// Numbers walks s's steps in time order and gives each message its
// number under autonumber (0 when none is on), in the order messages
// are met (depth first through blocks).
func (s *Sequence) Numbers() []int {
	var out []int
	on, next, inc := false, 0, 0
	var walk func([]Step)
	walk = func(steps []Step) {
		for _, st := range steps {
			switch {
			case st.Kind == AutonumberStep && st.Autonumber != nil:
				a := st.Autonumber
				on = !a.Off
				if !a.Off {
					next, inc = max(a.Start, 1), max(a.Increment, 1)
				}
			case st.Kind == MessageStep:
				if on {
					out = append(out, next)
					next += inc
				} else {
					out = append(out, 0)
				}
			case st.Kind == BlockStep && st.Block != nil:
				for _, sec := range st.Block.Sections {
					walk(sec.Steps)
				}
			}
		}
	}
	walk(s.Steps)
	return out
}

// Check returns the first problem of s: a participant without an id or
// with one used twice, a kind, box, line, arrowhead, placement or block
// kind that is not one of the above, a box's participants that are not
// neighbours, a step naming a participant that does not exist (or is
// not created yet, or destroyed), a deactivation of a participant that
// is not active, a block without sections or with more than its kind
// takes. nil when s is sound.
func (s *Sequence) Check() error {
	boxes := map[string]bool{}
	for i, b := range s.Boxes {
		at := fmt.Sprintf("/boxes/%d", i)
		switch {
		case strings.TrimSpace(b.ID) == "":
			return Problem{at + "/id", "a box needs an id"}
		case boxes[b.ID]:
			return Problem{at + "/id", fmt.Sprintf("box id %q is used twice", b.ID)}
		}
		boxes[b.ID] = true
	}
	parts := map[string]bool{}
	closed := map[string]bool{} // boxes whose run of participants ended
	prevBox := ""
	for i, p := range s.Participants {
		at := fmt.Sprintf("/participants/%d", i)
		switch {
		case strings.TrimSpace(p.ID) == "":
			return Problem{at + "/id", "a participant needs an id"}
		case parts[p.ID]:
			return Problem{at + "/id", fmt.Sprintf("participant id %q is used twice", p.ID)}
		case p.Kind != "" && !validKind(p.Kind):
			return Problem{at + "/kind", fmt.Sprintf("kind %q is not one of %s", p.Kind, list(ParticipantKinds))}
		case p.Box != "" && !boxes[p.Box]:
			return Problem{at + "/box", fmt.Sprintf("there is no box %q", p.Box)}
		case p.Box != "" && closed[p.Box]:
			return Problem{at + "/box", fmt.Sprintf("the participants of box %q must be neighbours", p.Box)}
		}
		if prevBox != "" && p.Box != prevBox {
			closed[prevBox] = true
		}
		prevBox = p.Box
		parts[p.ID] = true
	}
	c := &seqChecker{parts: parts, active: map[string]int{}, created: map[string]bool{}, gone: map[string]bool{}}
	for _, st := range flatSteps(s.Steps) {
		if st.Kind == CreateStep {
			c.created[st.Participant] = true
		}
	}
	// A created participant may not be named before its create step.
	for id := range c.created {
		c.gone[id] = true
	}
	if err := c.steps("", s.Steps); err != nil {
		return err
	}
	if c.pending != "" {
		return Problem{c.pendingAt, fmt.Sprintf("no message involving %q follows", c.pendingID)}
	}
	return nil
}

func flatSteps(steps []Step) []Step {
	var out []Step
	for _, st := range steps {
		out = append(out, st)
		if st.Kind == BlockStep && st.Block != nil {
			for _, sec := range st.Block.Sections {
				out = append(out, flatSteps(sec.Steps)...)
			}
		}
	}
	return out
}

type seqChecker struct {
	parts   map[string]bool
	active  map[string]int
	created map[string]bool // participants with a create step
	gone    map[string]bool // not created yet, or destroyed
	// pending is "create" or "destroy" until a message involves
	// pendingID.
	pending, pendingID, pendingAt string
}

func (c *seqChecker) participant(at, id string) error {
	switch {
	case !c.parts[id]:
		return Problem{at, fmt.Sprintf("there is no participant %q", id)}
	case c.gone[id]:
		return Problem{at, fmt.Sprintf("participant %q is not created yet, or destroyed already", id)}
	}
	return nil
}

func (c *seqChecker) steps(at string, steps []Step) error {
	for i, st := range steps {
		here := fmt.Sprintf("%s/steps/%d", at, i)
		set := 0
		for _, b := range []bool{st.Message != nil, st.Participant != "", st.Note != nil, st.Block != nil, st.Autonumber != nil} {
			if b {
				set++
			}
		}
		if set > 1 {
			return Problem{here, "a step sets one of message, participant, note, block and autonumber"}
		}
		if c.pending != "" && st.Kind != MessageStep && st.Kind != ActivateStep && st.Kind != DeactivateStep {
			return Problem{here, fmt.Sprintf("%s %q must be followed by a message involving it", c.pending, c.pendingID)}
		}
		switch st.Kind {
		case MessageStep:
			if err := c.message(here+"/message", st.Message); err != nil {
				return err
			}
		case ActivateStep, DeactivateStep, CreateStep, DestroyStep:
			if st.Participant == "" {
				return Problem{here + "/participant", fmt.Sprintf("a %s step needs a participant", st.Kind)}
			}
			if st.Kind == CreateStep {
				if !c.parts[st.Participant] {
					return Problem{here + "/participant", fmt.Sprintf("there is no participant %q", st.Participant)}
				}
				if !c.gone[st.Participant] {
					return Problem{here + "/participant", fmt.Sprintf("participant %q is created twice", st.Participant)}
				}
				delete(c.gone, st.Participant)
				c.pending, c.pendingID, c.pendingAt = "create", st.Participant, here
				continue
			}
			if err := c.participant(here+"/participant", st.Participant); err != nil {
				return err
			}
			switch st.Kind {
			case ActivateStep:
				c.active[st.Participant]++
			case DeactivateStep:
				if c.active[st.Participant] == 0 {
					return Problem{here + "/participant", fmt.Sprintf("participant %q is not active", st.Participant)}
				}
				c.active[st.Participant]--
			case DestroyStep:
				c.pending, c.pendingID, c.pendingAt = "destroy", st.Participant, here
			}
		case NoteStep:
			if err := c.note(here+"/note", st.Note); err != nil {
				return err
			}
		case BlockStep:
			if err := c.block(here+"/block", st.Block); err != nil {
				return err
			}
		case AutonumberStep:
			a := st.Autonumber
			if a == nil {
				return Problem{here + "/autonumber", "an autonumber step needs autonumber"}
			}
			if a.Start < 0 || a.Increment < 0 {
				return Problem{here + "/autonumber", "autonumber's start and increment are not negative"}
			}
		default:
			return Problem{here + "/kind", fmt.Sprintf("kind %q is not one of message, activate, deactivate, note, block, autonumber, create, destroy", st.Kind)}
		}
	}
	return nil
}

func (c *seqChecker) message(at string, m *Message) error {
	if m == nil {
		return Problem{at, "a message step needs a message"}
	}
	if err := c.participant(at+"/from", m.From); err != nil {
		return err
	}
	if err := c.participant(at+"/to", m.To); err != nil {
		return err
	}
	switch {
	case m.Line != "" && m.Line != Solid && m.Line != Dashed:
		return Problem{at + "/line", fmt.Sprintf("line %q is not one of solid, dashed", m.Line)}
	case !validHead(m.Head):
		return Problem{at + "/head", fmt.Sprintf("arrowhead %q is not one of %s", m.Head, headList())}
	case !validHead(m.Start):
		return Problem{at + "/start", fmt.Sprintf("arrowhead %q is not one of %s", m.Start, headList())}
	}
	if m.Deactivate {
		if c.active[m.From] == 0 {
			return Problem{at + "/deactivate", fmt.Sprintf("participant %q is not active", m.From)}
		}
		c.active[m.From]--
	}
	if m.Activate {
		c.active[m.To]++
	}
	if c.pending != "" {
		if m.From != c.pendingID && m.To != c.pendingID {
			return Problem{at, fmt.Sprintf("%s %q must be followed by a message involving it", c.pending, c.pendingID)}
		}
		if c.pending == "destroy" {
			c.gone[c.pendingID] = true
		}
		c.pending = ""
	}
	return nil
}

func (c *seqChecker) note(at string, n *Note) error {
	if n == nil {
		return Problem{at, "a note step needs a note"}
	}
	switch n.Placement {
	case LeftOf, RightOf:
		if len(n.Participants) != 1 {
			return Problem{at + "/participants", fmt.Sprintf("a note %s names one participant", n.Placement)}
		}
	case Over:
		if len(n.Participants) != 1 && len(n.Participants) != 2 {
			return Problem{at + "/participants", "a note over names one or two participants"}
		}
	default:
		return Problem{at + "/placement", fmt.Sprintf("placement %q is not one of left of, right of, over", n.Placement)}
	}
	for i, p := range n.Participants {
		if err := c.participant(fmt.Sprintf("%s/participants/%d", at, i), p); err != nil {
			return err
		}
	}
	return nil
}

func (c *seqChecker) block(at string, b *Block) error {
	if b == nil {
		return Problem{at, "a block step needs a block"}
	}
	ok := false
	for _, k := range BlockKinds {
		ok = ok || b.Kind == k
	}
	switch {
	case !ok:
		return Problem{at + "/kind", fmt.Sprintf("block kind %q is not one of %s", b.Kind, list(BlockKinds))}
	case len(b.Sections) == 0:
		return Problem{at + "/sections", "a block needs at least one section"}
	case len(b.Sections) > 1 && b.Kind.SectionKeyword() == "":
		return Problem{at + "/sections", fmt.Sprintf("a %s block has one section (only alt, par and critical have more)", b.Kind)}
	case b.Color != "" && b.Kind != Rect:
		return Problem{at + "/color", "only a rect block has a colour"}
	}
	for i, sec := range b.Sections {
		if err := c.steps(fmt.Sprintf("%s/sections/%d", at, i), sec.Steps); err != nil {
			return err
		}
	}
	return nil
}

func validKind(k ParticipantKind) bool {
	for _, x := range ParticipantKinds {
		if k == x {
			return true
		}
	}
	return false
}

func list[T ~string](xs []T) string {
	names := make([]string, len(xs))
	for i, x := range xs {
		names[i] = string(x)
	}
	return strings.Join(names, ", ")
}
