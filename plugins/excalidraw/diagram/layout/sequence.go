package layout

import (
	"errors"
	"fmt"
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// SequenceOptions are the spacing of a sequence layout, in scene units;
// zero takes the default.
type SequenceOptions struct {
	// ParticipantGap is the least space between two neighbouring heads
	// (default 40).
	ParticipantGap float64
	// MinParticipantWidth and MinParticipantHeight are a head's least
	// size (defaults 120 and 50).
	MinParticipantWidth, MinParticipantHeight float64
	// Padding is the space between a box's border and its text, and
	// between a label and what it must clear (default 10).
	Padding float64
	// RowGap is the vertical space between two steps (default 16).
	RowGap float64
	// LabelGap is the space between a message's line and its label
	// above (default 4).
	LabelGap float64
	// ActivationWidth is an activation bar's width; a nested bar is
	// shifted right by half of it (default 12).
	ActivationWidth float64
	// SelfWidth and SelfHeight are a self-message's loop (defaults 40
	// and 24).
	SelfWidth, SelfHeight float64
	// NoteMinWidth is a note's least width (default 80).
	NoteMinWidth float64
}

func (o SequenceOptions) withDefaults() SequenceOptions {
	def := func(v *float64, d float64) {
		if !(*v > 0) || math.IsInf(*v, 0) {
			*v = d
		}
	}
	def(&o.ParticipantGap, 40)
	def(&o.MinParticipantWidth, 120)
	def(&o.MinParticipantHeight, 50)
	def(&o.Padding, 10)
	def(&o.RowGap, 16)
	def(&o.LabelGap, 4)
	def(&o.ActivationWidth, 12)
	def(&o.SelfWidth, 40)
	def(&o.SelfHeight, 24)
	def(&o.NoteMinWidth, 80)
	return o
}

// SequenceResult is a sequence diagram laid out, in scene coordinates
// from (0, 0) at the top-left corner of the drawing, y down. Every text
// field is the text as drawn, and its box is the size measure gave it
// (a head or note box is that plus Padding each side).
type SequenceResult struct {
	Width, Height float64
	// Participants are in Sequence.Participants' order.
	Participants []SequenceParticipant
	// Boxes are in Sequence.Boxes' order.
	Boxes []SequenceBox
	// Messages are in time order (depth first through blocks), each
	// lower than the one before.
	Messages []SequenceMessage
	// Activations are in the order they start.
	Activations []SequenceActivation
	Notes       []SequenceNote
	// Blocks are in the order they open (a block before those inside it).
	Blocks []SequenceBlock
}

// SequenceParticipant is a participant's head, lifeline and foot.
type SequenceParticipant struct {
	ID   string
	Kind diagram.ParticipantKind
	Text string
	// Head is the box at the top, or where the participant is created;
	// Foot the same box at the bottom (zero when it is destroyed).
	Head, Foot Box
	// Label and FootLabel are the text's box, centred in Head and in
	// Foot (FootLabel zero when Foot is).
	Label, FootLabel Box
	// X is the lifeline's x; it runs from Top (Head's bottom) to Bottom
	// (Foot's top, or the message that destroys it).
	X, Top, Bottom float64
	Created        bool
	Destroyed      bool // a cross goes at (X, Bottom)
}

// SequenceBox is a participant box: a frame behind its participants'
// heads, lifelines and feet, its label at the top.
type SequenceBox struct {
	ID, Label, Color string
	Box              Box
	LabelBox         Box // zero when Label is ""
	// Box and LabelBox are zero for a box without participants.
}

// SequenceMessage is a message's arrow and label.
type SequenceMessage struct {
	Message diagram.Message
	// Number is its autonumber (0 none); Text is its label as drawn,
	// with the number in front ("3. Hello").
	Number int
	Text   string
	// Points run from From to To: two for a message between two
	// lifelines, four for a self-message (a loop to the right). Each
	// end is on the lifeline, on the side of the outermost activation
	// bar there, or on the side of a head created by this message.
	Points []Point
	// Label is Text's box, above the line (above the loop's top for a
	// self-message); zero when Text is "".
	Label Box
	Self  bool
}

// SequenceActivation is an activation bar on a lifeline.
type SequenceActivation struct {
	Participant string
	// Depth is 0 for a bar on the lifeline, 1 for one on top of that…
	Depth int
	Box   Box
}

// SequenceNote is a note's box (its text centred in it).
type SequenceNote struct {
	Note diagram.Note
	Box  Box
}

// SequenceBlock is a block's frame, its title tab at the top-left corner
// and its label beside the tab, and the dividers between its sections.
type SequenceBlock struct {
	Kind  diagram.BlockKind
	Color string
	// Depth counts the blocks around it.
	Depth int
	Box   Box
	// Title is the kind ("loop", "alt"…) in TitleBox, a tab in the
	// frame's top-left corner; "" and zero for rect.
	Title    string
	TitleBox Box
	// Label is the first section's label in brackets ("[Every
	// minute]"), in LabelBox right of the tab; "" and zero when none.
	Label    string
	LabelBox Box
	// Sections are the dividers before the second and later sections.
	Sections []SequenceSection
}

// SequenceSection is a dashed divider across a block at Y, with the
// section's label in brackets under it at the left.
type SequenceSection struct {
	Y        float64
	Label    string
	LabelBox Box // zero when Label is ""
}

// Sequence lays a sequence diagram out: participants left to right, each
// head sized to its label, neighbours far enough apart for every
// message label, note and self-message between them; then each step on
// its own row, top to bottom. s must pass Check. measure gives a text's
// size (it is called for non-empty texts only).
func Sequence(s *diagram.Sequence, measure func(text string) (w, h float64), o SequenceOptions) (*SequenceResult, error) {
	if s == nil || measure == nil {
		return nil, errors.New("layout: Sequence needs a sequence and a measure function")
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("layout: %w", err)
	}
	l := &seqLayout{s: s, o: o.withDefaults(), idx: map[string]int{}, sizes: map[string][2]float64{}}
	l.measure = func(t string) (float64, float64) {
		if t == "" {
			return 0, 0
		}
		if sz, ok := l.sizes[t]; ok {
			return sz[0], sz[1]
		}
		w, h := measure(t)
		w, h = sane(w, 0), sane(h, 0)
		l.sizes[t] = [2]float64{w, h}
		return w, h
	}
	l.plan()
	l.place()
	l.arrange()
	return l.res, nil
}

// seqRow is a step as the first pass saw it: what it needs and the
// activation depths around it.
type seqRow struct {
	kind     diagram.StepKind
	step     *diagram.Step
	block    *diagram.Block
	section  int // for blockSection
	from, to int
	text     string
	number   int
	w, h     float64
	// kFrom and kTo are the depths at the line (a bar that ends or
	// starts there counted); for a self-message, kFrom is before and
	// kTo after.
	kFrom, kTo int
	// stop is the active participant nearest the sender between the
	// two ends (-1 none), kStop its depth: the label goes between the
	// sender and it.
	stop, kStop int
	created     int // participant created at this message, -1 none
	destroyed   int // participant destroyed at this message, -1 none
}

const (
	rowBlockOpen    diagram.StepKind = "block-open"
	rowBlockSection diagram.StepKind = "block-section"
	rowBlockClose   diagram.StepKind = "block-close"
)

type seqLayout struct {
	s       *diagram.Sequence
	o       SequenceOptions
	measure func(string) (float64, float64)
	sizes   map[string][2]float64
	idx     map[string]int
	n       int
	widths  []float64
	headH   float64
	need    []map[int]float64 // need[j][i]: x[j]-x[i] at least this
	rows    []seqRow
	x       []float64
	res     *SequenceResult
}

// left and right are how far the activation bars of depth k reach left
// and right of the lifeline.
func (l *seqLayout) left(k int) float64 {
	if k == 0 {
		return 0
	}
	return l.o.ActivationWidth / 2
}

func (l *seqLayout) right(k int) float64 {
	if k == 0 {
		return 0
	}
	return l.o.ActivationWidth/2 + float64(k-1)*l.o.ActivationWidth/2
}

func (l *seqLayout) require(i, j int, d float64) {
	if i > j {
		i, j = j, i
	}
	if i == j || i < 0 {
		return
	}
	if d > l.need[j][i] {
		l.need[j][i] = d
	}
}

// plan measures, walks the steps once to find what each row needs, and
// sets the participants' x.
func (l *seqLayout) plan() {
	o := l.o
	l.n = len(l.s.Participants)
	l.widths = make([]float64, l.n)
	l.need = make([]map[int]float64, l.n)
	boxLabel := map[string]float64{}
	boxSize := map[string]int{}
	for _, b := range l.s.Boxes {
		boxLabel[b.ID], _ = l.measure(b.Label)
	}
	for _, p := range l.s.Participants {
		boxSize[p.Box]++
	}
	l.headH = o.MinParticipantHeight
	for i, p := range l.s.Participants {
		l.idx[p.ID] = i
		l.need[i] = map[int]float64{}
		w, h := l.measure(p.Text())
		l.widths[i] = max(o.MinParticipantWidth, w+2*o.Padding)
		l.headH = max(l.headH, h+2*o.Padding)
	}
	// A box of one participant is as wide as its label, past the head.
	extra := make([]float64, l.n)
	for i, p := range l.s.Participants {
		if p.Box != "" && boxSize[p.Box] == 1 {
			extra[i] = max(0, (boxLabel[p.Box]-l.widths[i])/2)
		}
	}
	// Neighbours: heads apart, and room for box borders between boxes.
	for j := 1; j < l.n; j++ {
		d := (l.widths[j-1]+l.widths[j])/2 + o.ParticipantGap
		a, b := l.s.Participants[j-1].Box, l.s.Participants[j].Box
		if a != b && (a != "" || b != "") {
			d += 2*o.Padding + extra[j-1] + extra[j]
		}
		l.require(j-1, j, d)
	}
	// A box's label fits over its participants.
	first := map[string]int{}
	for i, p := range l.s.Participants {
		if p.Box == "" {
			continue
		}
		if f, ok := first[p.Box]; !ok {
			first[p.Box] = i
		} else {
			l.require(f, i, boxLabel[p.Box]-(l.widths[f]+l.widths[i])/2)
		}
	}

	depth := make([]int, l.n)
	numbers := l.s.Numbers()
	msg := 0
	pendingCreate, pendingDestroy := -1, -1
	var walk func(steps []diagram.Step)
	walk = func(steps []diagram.Step) {
		for si := range steps {
			st := &steps[si]
			switch st.Kind {
			case diagram.MessageStep:
				m := st.Message
				r := seqRow{kind: st.Kind, step: st, from: l.idx[m.From], to: l.idx[m.To], number: numbers[msg], stop: -1, created: -1, destroyed: -1}
				msg++
				r.text = m.Label
				if r.number > 0 {
					r.text = fmt.Sprintf("%d. %s", r.number, m.Label)
					if m.Label == "" {
						r.text = fmt.Sprint(r.number)
					}
				}
				r.w, r.h = l.measure(r.text)
				if pendingCreate >= 0 {
					r.created, pendingCreate = pendingCreate, -1
				}
				if pendingDestroy >= 0 {
					r.destroyed, pendingDestroy = pendingDestroy, -1
				}
				r.kFrom = depth[r.from]
				if m.Activate {
					depth[r.to]++
				}
				if r.from != r.to {
					r.kTo = depth[r.to]
				}
				if m.Deactivate {
					depth[r.from]--
				}
				if r.from == r.to {
					r.kTo = depth[r.to]
				}
				l.planMessage(&r, depth)
				if r.destroyed >= 0 {
					depth[r.destroyed] = 0
				}
				l.rows = append(l.rows, r)
			case diagram.ActivateStep:
				i := l.idx[st.Participant]
				depth[i]++
				l.rows = append(l.rows, seqRow{kind: st.Kind, step: st, from: i})
			case diagram.DeactivateStep:
				i := l.idx[st.Participant]
				depth[i]--
				l.rows = append(l.rows, seqRow{kind: st.Kind, step: st, from: i})
			case diagram.CreateStep:
				pendingCreate = l.idx[st.Participant]
			case diagram.DestroyStep:
				pendingDestroy = l.idx[st.Participant]
			case diagram.NoteStep:
				r := seqRow{kind: st.Kind, step: st, from: l.idx[st.Note.Participants[0]], to: l.idx[st.Note.Participants[len(st.Note.Participants)-1]]}
				tw, th := l.measure(st.Note.Text)
				r.w, r.h = max(o.NoteMinWidth, tw+2*o.Padding), th+2*o.Padding
				l.planNote(&r, depth)
				l.rows = append(l.rows, r)
			case diagram.BlockStep:
				b := st.Block
				l.rows = append(l.rows, seqRow{kind: rowBlockOpen, block: b})
				for k, sec := range b.Sections {
					if k > 0 {
						l.rows = append(l.rows, seqRow{kind: rowBlockSection, block: b, section: k})
					}
					walk(sec.Steps)
				}
				l.rows = append(l.rows, seqRow{kind: rowBlockClose, block: b})
			}
		}
	}
	walk(l.s.Steps)

	l.x = make([]float64, l.n)
	for j := 0; j < l.n; j++ {
		if j == 0 {
			l.x[0] = l.widths[0] / 2
			continue
		}
		x := l.x[j-1]
		for i, d := range l.need[j] {
			x = max(x, l.x[i]+d)
		}
		l.x[j] = x
	}
}

// planMessage finds where a message's label goes and what it needs.
func (l *seqLayout) planMessage(r *seqRow, depth []int) {
	o := l.o
	if r.from == r.to {
		k := max(r.kFrom, r.kTo)
		reach := l.right(k) + max(o.SelfWidth, o.Padding/2+r.w) + o.Padding
		if r.created == r.from {
			reach += l.widths[r.from] / 2
		}
		if r.from+1 < l.n {
			l.require(r.from, r.from+1, reach+l.left(depth[r.from+1]))
		}
		return
	}
	lo, hi := min(r.from, r.to), max(r.from, r.to)
	// The ends' reach toward each other: bar sides or a created head.
	reach := func(i, k int, toRight bool) float64 {
		if i == r.created {
			return l.widths[i] / 2
		}
		if toRight {
			return l.right(k)
		}
		return l.left(k)
	}
	kLo, kHi := r.kFrom, r.kTo
	if lo != r.from {
		kLo, kHi = r.kTo, r.kFrom
	}
	a, b := lo, hi
	ra, rb := reach(lo, kLo, true), reach(hi, kHi, false)
	for k := lo + 1; k < hi; k++ {
		if depth[k] == 0 {
			continue
		}
		if r.from == lo {
			r.stop, r.kStop = k, depth[k]
			b, rb = k, l.left(depth[k])
			break
		}
		r.stop, r.kStop = k, depth[k]
		a, ra = k, l.right(depth[k])
	}
	l.require(a, b, ra+rb+max(r.w+2*o.Padding, 3*o.Padding))
	if a != lo || b != hi {
		l.require(lo, hi, reach(lo, kLo, true)+reach(hi, kHi, false)+3*o.Padding)
	}
}

// planNote keeps left and right notes clear of their neighbours, and
// widens a note over two participants' span to its text.
func (l *seqLayout) planNote(r *seqRow, depth []int) {
	o := l.o
	n := r.step.Note
	i := r.from
	switch {
	case n.Placement == diagram.RightOf:
		if i+1 < l.n {
			l.require(i, i+1, l.right(depth[i])+o.Padding+r.w+o.Padding+l.left(depth[i+1]))
		}
	case n.Placement == diagram.LeftOf:
		if i > 0 {
			l.require(i-1, i, l.left(depth[i])+o.Padding+r.w+o.Padding+l.right(depth[i-1]))
		}
	case r.from == r.to:
		if i+1 < l.n && depth[i+1] > 0 {
			l.require(i, i+1, r.w/2+o.Padding+l.left(depth[i+1]))
		}
		if i > 0 && depth[i-1] > 0 {
			l.require(i-1, i, r.w/2+o.Padding+l.right(depth[i-1]))
		}
	default:
		lo, hi := min(r.from, r.to), max(r.from, r.to)
		l.require(lo, hi, r.w-2*l.overhang())
	}
}

// overhang is how far a note over two participants reaches past their
// lifelines.
func (l *seqLayout) overhang() float64 { return l.o.ActivationWidth/2 + l.o.Padding }

type seqOpen struct {
	at     int // index in res.Blocks
	minX   float64
	maxX   float64
	any    bool
	labels []float64 // widths of sections' labels, by section
}

func (b *seqOpen) take(xs ...float64) {
	for _, x := range xs {
		if !b.any {
			b.minX, b.maxX, b.any = x, x, true
			continue
		}
		b.minX, b.maxX = min(b.minX, x), max(b.maxX, x)
	}
}

// place walks the rows top to bottom.
func (l *seqLayout) place() {
	o := l.o
	res := &SequenceResult{Participants: make([]SequenceParticipant, l.n), Boxes: []SequenceBox{},
		Messages: []SequenceMessage{}, Activations: []SequenceActivation{}, Notes: []SequenceNote{}, Blocks: []SequenceBlock{}}
	l.res = res
	top := 0.0
	if len(l.s.Boxes) > 0 {
		lh := 0.0
		for _, b := range l.s.Boxes {
			_, h := l.measure(b.Label)
			lh = max(lh, h)
		}
		top = lh + o.Padding
	}
	created := map[string]bool{}
	for _, st := range seqFlatten(l.s.Steps) {
		if st.Kind == diagram.CreateStep {
			created[st.Participant] = true
		}
	}
	for i, p := range l.s.Participants {
		tw, th := l.measure(p.Text())
		sp := SequenceParticipant{ID: p.ID, Kind: p.Kind, Text: p.Text(), X: l.x[i], Created: created[p.ID]}
		if sp.Kind == "" {
			sp.Kind = diagram.PlainParticipant
		}
		sp.Head = Box{l.x[i] - l.widths[i]/2, top, l.widths[i], l.headH}
		sp.Label = Box{l.x[i] - tw/2, top + (l.headH-th)/2, tw, th}
		sp.Top = sp.Head.Bottom()
		res.Participants[i] = sp
	}
	cursor := top + l.headH + o.RowGap
	last := top + l.headH
	stacks := make([][]int, l.n) // open bars, by participant
	var open []*seqOpen
	takeAll := func(xs ...float64) {
		for _, b := range open {
			b.take(xs...)
		}
	}
	startBar := func(i int, y float64) {
		res.Activations = append(res.Activations, SequenceActivation{Participant: l.s.Participants[i].ID, Depth: len(stacks[i]),
			Box: Box{l.x[i] - o.ActivationWidth/2 + float64(len(stacks[i]))*o.ActivationWidth/2, y, o.ActivationWidth, 0}})
		stacks[i] = append(stacks[i], len(res.Activations)-1)
	}
	endBar := func(i int, y float64) {
		k := stacks[i][len(stacks[i])-1]
		stacks[i] = stacks[i][:len(stacks[i])-1]
		b := &res.Activations[k].Box
		b.H = max(y-b.Y, 0)
	}
	for ri := range l.rows {
		r := &l.rows[ri]
		switch r.kind {
		case diagram.MessageStep:
			m := r.step.Message
			sm := SequenceMessage{Message: *m, Number: r.number, Text: r.text, Self: r.from == r.to}
			y := cursor + r.h + o.LabelGap
			if r.created >= 0 {
				y = max(y, cursor+l.headH/2)
			}
			if r.created >= 0 {
				c := &res.Participants[r.created]
				tw, th := l.measure(c.Text)
				c.Head = Box{c.X - l.widths[r.created]/2, y - l.headH/2, l.widths[r.created], l.headH}
				c.Label = Box{c.X - tw/2, c.Head.Y + (l.headH-th)/2, tw, th}
				c.Top = c.Head.Bottom()
				takeAll(c.Head.X, c.Head.Right())
			}
			// A bar starts at the line, or under a head created there.
			barY := func(i int, y float64) float64 {
				if i == r.created {
					return max(y, res.Participants[i].Top)
				}
				return y
			}
			if m.Activate && !sm.Self {
				startBar(r.to, barY(r.to, y))
			}
			if sm.Self {
				i := r.from
				sx := l.x[i] + l.right(r.kFrom)
				ex := l.x[i] + l.right(r.kTo)
				if r.created == i {
					sx, ex = l.x[i]+l.widths[i]/2, l.x[i]+l.widths[i]/2
				}
				loopX := max(sx, ex) + o.SelfWidth
				y2 := y + o.SelfHeight
				if m.Deactivate {
					endBar(i, y)
				}
				if m.Activate {
					startBar(i, barY(i, y2))
				}
				sm.Points = []Point{{sx, y}, {loopX, y}, {loopX, y2}, {ex, y2}}
				if r.text != "" {
					sm.Label = Box{sx + o.Padding/2, y - o.LabelGap - r.h, r.w, r.h}
				}
				takeAll(sx, loopX, sm.Label.Right())
				last = y2
			} else {
				side := func(i, k int, toRight bool) float64 {
					switch {
					case i == r.created:
						if toRight {
							return l.x[i] + l.widths[i]/2
						}
						return l.x[i] - l.widths[i]/2
					case toRight:
						return l.x[i] + l.right(k)
					}
					return l.x[i] - l.left(k)
				}
				right := r.to > r.from
				sx := side(r.from, r.kFrom, right)
				ex := side(r.to, r.kTo, !right)
				sm.Points = []Point{{sx, y}, {ex, y}}
				if r.text != "" {
					a, b := min(sx, ex), max(sx, ex)
					if r.stop >= 0 {
						if right {
							b = l.x[r.stop] - l.left(r.kStop)
						} else {
							a = l.x[r.stop] + l.right(r.kStop)
						}
					}
					sm.Label = Box{(a+b)/2 - r.w/2, y - o.LabelGap - r.h, r.w, r.h}
					takeAll(sm.Label.X, sm.Label.Right())
				}
				takeAll(sx, ex)
				if m.Deactivate {
					endBar(r.from, y)
				}
				last = y
			}
			if r.destroyed >= 0 {
				// The lifeline ends where the message does: for a
				// self-message, at the bottom of its loop.
				d := &res.Participants[r.destroyed]
				d.Destroyed, d.Bottom = true, last
				for len(stacks[r.destroyed]) > 0 {
					endBar(r.destroyed, last)
				}
			}
			if r.created >= 0 {
				last = max(last, y+l.headH/2)
			}
			res.Messages = append(res.Messages, sm)
			cursor = last + o.RowGap
		case diagram.ActivateStep:
			startBar(r.from, cursor)
		case diagram.DeactivateStep:
			k := stacks[r.from][len(stacks[r.from])-1]
			end := max(res.Activations[k].Box.Y+o.RowGap, last+o.LabelGap)
			endBar(r.from, end)
			cursor = max(cursor, end+o.LabelGap)
		case diagram.NoteStep:
			n := r.step.Note
			var b Box
			i := r.from
			k := len(stacks[i])
			switch {
			case n.Placement == diagram.RightOf:
				b = Box{l.x[i] + l.right(k) + o.Padding, cursor, r.w, r.h}
			case n.Placement == diagram.LeftOf:
				b = Box{l.x[i] - l.left(k) - o.Padding - r.w, cursor, r.w, r.h}
			case r.from == r.to:
				b = Box{l.x[i] - r.w/2, cursor, r.w, r.h}
			default:
				lo, hi := min(r.from, r.to), max(r.from, r.to)
				span := l.x[hi] - l.x[lo] + 2*l.overhang()
				w := max(r.w, span)
				b = Box{(l.x[lo]+l.x[hi])/2 - w/2, cursor, w, r.h}
			}
			res.Notes = append(res.Notes, SequenceNote{Note: *n, Box: b})
			takeAll(b.X, b.Right())
			last = b.Bottom()
			cursor = last + o.RowGap
		case rowBlockOpen:
			bl := r.block
			sb := SequenceBlock{Kind: bl.Kind, Color: bl.Color, Depth: len(open), Box: Box{0, cursor, 0, 0}}
			titleBottom := cursor
			if bl.Kind != diagram.Rect {
				sb.Title = string(bl.Kind)
				tw, th := l.measure(sb.Title)
				sb.TitleBox = Box{0, cursor, tw + o.Padding, th + o.Padding/2}
				titleBottom = sb.TitleBox.Bottom()
				if lb := bl.Label(); lb != "" {
					sb.Label = "[" + lb + "]"
					lw, lh := l.measure(sb.Label)
					sb.LabelBox = Box{0, cursor + o.Padding/4, lw, lh}
					titleBottom = max(titleBottom, sb.LabelBox.Bottom()+o.Padding/4)
				}
			}
			res.Blocks = append(res.Blocks, sb)
			open = append(open, &seqOpen{at: len(res.Blocks) - 1, labels: make([]float64, len(bl.Sections))})
			last = titleBottom
			cursor = last + o.RowGap/2
		case rowBlockSection:
			ob := open[len(open)-1]
			sb := &res.Blocks[ob.at]
			y := last + o.RowGap/2
			sec := SequenceSection{Y: y}
			last = y
			if lb := r.block.Sections[r.section].Label; lb != "" {
				sec.Label = "[" + lb + "]"
				lw, lh := l.measure(sec.Label)
				sec.LabelBox = Box{0, y + o.Padding/2, lw, lh}
				ob.labels[r.section] = lw
				last = sec.LabelBox.Bottom()
			}
			sb.Sections = append(sb.Sections, sec)
			cursor = last + o.RowGap/2
		case rowBlockClose:
			ob := open[len(open)-1]
			open = open[:len(open)-1]
			sb := &res.Blocks[ob.at]
			bottom := last + o.Padding
			if !ob.any {
				x := 0.0
				if l.n > 0 {
					x = l.x[0]
				}
				ob.take(x)
			}
			left := ob.minX - o.Padding
			w := ob.maxX + o.Padding - left
			w = max(w, sb.TitleBox.W+o.Padding/2+sb.LabelBox.W+o.Padding)
			for _, lw := range ob.labels {
				w = max(w, lw+2*o.Padding)
			}
			sb.Box = Box{left, sb.Box.Y, w, bottom - sb.Box.Y}
			sb.TitleBox.X = left
			sb.LabelBox.X = sb.TitleBox.Right() + o.Padding/2
			for k := range sb.Sections {
				sb.Sections[k].LabelBox.X = left + o.Padding
			}
			takeAll(sb.Box.X, sb.Box.Right())
			last = bottom
			cursor = bottom + o.RowGap
		}
	}
	bottom := cursor
	for i := range stacks {
		for _, k := range stacks[i] {
			bottom = max(bottom, res.Activations[k].Box.Y+o.RowGap+o.RowGap/2)
		}
	}
	for i := range stacks {
		for len(stacks[i]) > 0 {
			endBar(i, bottom-o.RowGap/2)
		}
	}
	for i := range res.Participants {
		p := &res.Participants[i]
		if p.Destroyed {
			continue
		}
		p.Bottom = bottom
		p.Foot = Box{p.Head.X, bottom, p.Head.W, l.headH}
		p.FootLabel = Box{p.Label.X, p.Label.Y + bottom - p.Head.Y, p.Label.W, p.Label.H}
	}
	// Bars keep a visible height, within their lifelines.
	for i := range res.Activations {
		a := &res.Activations[i]
		a.Box.H = max(a.Box.H, min(o.LabelGap, res.Participants[l.idx[a.Participant]].Bottom-a.Box.Y))
	}
	// Participant boxes.
	for _, b := range l.s.Boxes {
		sb := SequenceBox{ID: b.ID, Label: b.Label, Color: b.Color}
		lx, rx, any := 0.0, 0.0, false
		for i, p := range l.s.Participants {
			if p.Box != b.ID {
				continue
			}
			h := res.Participants[i].Head
			if !any {
				lx, rx, any = h.X, h.Right(), true
			}
			lx, rx = min(lx, h.X), max(rx, h.Right())
		}
		if any {
			lw, lh := l.measure(b.Label)
			if grow := lw - (rx - lx); grow > 0 {
				lx, rx = lx-grow/2, rx+grow/2
			}
			sb.Box = Box{lx - o.Padding, 0, rx - lx + 2*o.Padding, bottom + l.headH + o.Padding}
			if b.Label != "" {
				sb.LabelBox = Box{sb.Box.Center().X - lw/2, o.Padding / 2, lw, lh}
			}
		}
		res.Boxes = append(res.Boxes, sb)
	}
}

func seqFlatten(steps []diagram.Step) []diagram.Step {
	var out []diagram.Step
	for _, st := range steps {
		out = append(out, st)
		if st.Kind == diagram.BlockStep && st.Block != nil {
			for _, sec := range st.Block.Sections {
				out = append(out, seqFlatten(sec.Steps)...)
			}
		}
	}
	return out
}

// arrange moves everything so the drawing starts at (0, 0) and sets its
// size.
func (l *seqLayout) arrange() {
	res := l.res
	minX, maxX, maxY := math.Inf(1), math.Inf(-1), 0.0
	box := func(b Box) {
		if b.W == 0 && b.H == 0 {
			return
		}
		minX, maxX, maxY = min(minX, b.X), max(maxX, b.Right()), max(maxY, b.Bottom())
	}
	for _, p := range res.Participants {
		box(p.Head)
		box(p.Foot)
		minX, maxX = min(minX, p.X), max(maxX, p.X)
		maxY = max(maxY, p.Bottom)
	}
	for _, b := range res.Boxes {
		box(b.Box)
	}
	for _, m := range res.Messages {
		box(m.Label)
		for _, p := range m.Points {
			minX, maxX, maxY = min(minX, p.X), max(maxX, p.X), max(maxY, p.Y)
		}
	}
	for _, a := range res.Activations {
		box(a.Box)
	}
	for _, n := range res.Notes {
		box(n.Box)
	}
	for _, b := range res.Blocks {
		box(b.Box)
	}
	if math.IsInf(minX, 1) {
		minX, maxX = 0, 0
	}
	dx := -minX
	mv := func(b *Box) {
		if b.W != 0 || b.H != 0 {
			b.X += dx
		}
	}
	for i := range res.Participants {
		p := &res.Participants[i]
		mv(&p.Head)
		mv(&p.Foot)
		mv(&p.Label)
		mv(&p.FootLabel)
		p.X += dx
	}
	for i := range res.Boxes {
		mv(&res.Boxes[i].Box)
		mv(&res.Boxes[i].LabelBox)
	}
	for i := range res.Messages {
		m := &res.Messages[i]
		mv(&m.Label)
		for k := range m.Points {
			m.Points[k].X += dx
		}
	}
	for i := range res.Activations {
		mv(&res.Activations[i].Box)
	}
	for i := range res.Notes {
		mv(&res.Notes[i].Box)
	}
	for i := range res.Blocks {
		b := &res.Blocks[i]
		mv(&b.Box)
		mv(&b.TitleBox)
		mv(&b.LabelBox)
		for k := range b.Sections {
			mv(&b.Sections[k].LabelBox)
		}
	}
	res.Width, res.Height = maxX-minX, maxY
}
