package layout

import (
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram/mermaid"
)

// measureText is a stand-in for the caller's text metrics: 8 units a
// character, 20 a line.
func measureText(text string) (w, h float64) {
	lines := strings.Split(text, "\n")
	for _, l := range lines {
		w = max(w, 8*float64(utf8.RuneCountInString(l)))
	}
	return w, 20 * float64(len(lines))
}

// seqDiagrams are the sequence diagrams every layout property is checked
// on.
var seqDiagrams = map[string]string{
	"hello": `sequenceDiagram
    Alice->>John: Hello John, how are you?
    John-->>Alice: Great!
    Alice-)John: See you later!
`,
	"every arrow, long labels": `sequenceDiagram
    A->B: a solid line without a head, and a long label
    A-->B: b
    A->>C: c goes over B with a label longer than the heads
    C-->>A: d
    A-xB: e
    B--xA: f
    A-)C: g
    A--)C: h
    A<<->>B: i
    C<<-->>A: j
`,
	"activations": `sequenceDiagram
    Alice->>+John: Hello John, how are you?
    Alice->>+John: John, can you hear me?
    John-->>-Alice: Hi Alice, I can hear you!
    John-->>-Alice: I feel great!
    activate Alice
    Alice->>Bob: over to you
    activate Bob
    Bob->>John: and to John over Alice's bar
    deactivate Bob
    deactivate Alice
`,
	"over an active participant": `sequenceDiagram
    participant A
    participant B
    participant C
    participant D
    activate B
    activate C
    A->>D: a long message over two active lifelines
    D->>A: and back over both of them again
    deactivate C
    deactivate B
`,
	"self messages": `sequenceDiagram
    A->>A: think about it for a while
    A->>+A: start
    A->>B: then
    B->>B: B thinks too
    A-->>-A: stop
    B->>B: and B, the last, thinks long
`,
	"notes": `sequenceDiagram
    participant Alice
    participant Bob
    participant Carol
    Note right of Alice: a note right of Alice, wide
    Note left of Alice: left of the first
    Note over Bob: over Bob
    Note over Alice,Carol: across all three, with a long text that is wider than them all
    Note over Carol,Bob: two<br/>lines
    Note right of Carol: right of the last
    Alice->>Bob: hi
`,
	"notes by bars": `sequenceDiagram
    A->>+B: x
    Note right of A: beside an active B
    Note left of B: on B's left
    Note over A: over A with B active and wide
    B-->>-A: y
`,
	"blocks": `sequenceDiagram
    Alice->>Bob: Hello Bob, how are you?
    alt is sick
        Bob->>Alice: Not so good :(
    else is well
        Bob->>Alice: Feeling fresh like a daisy
    else
    end
    opt Extra response with a label far wider than its messages
        Bob->>Alice: Thanks for asking
    end
    loop Every minute
        Alice->>Alice: wait
    end
`,
	"nested blocks": `sequenceDiagram
    par Alice to Bob
        Alice->>Bob: Go help John
    and Alice to John
        Alice->>John: I want this done today
        par John to Charlie
            John->>Charlie: Can we do this today?
        and John to Diana
            John->>Diana: Can you help us today?
            critical deep
                Diana->>Diana: ok
            option no
                Note over Diana: panic
            end
        end
    end
    rect rgb(200, 220, 255)
        break when it fails
            Charlie-->>Alice: failure
        end
    end
`,
	"empty blocks": `sequenceDiagram
    loop
    end
    alt x
    else y
    end
    rect #eee
    end
`,
	"boxes": `sequenceDiagram
    box Purple Alice & John
        participant A as Alice
        participant J as John
    end
    box Another group with a very long label indeed
        participant B
    end
    participant C
    box Aqua x
        participant D
        participant E
    end
    A->>J: Hello John
    J->>B: Hello Bob
    B->>C: Hello Charlie
    C->>E: Hello Eve
`,
	"autonumber": `sequenceDiagram
    autonumber
    Alice->>John: Hello John, how are you?
    loop Healthcheck
        John->>John: Fight against hypochondria
    end
    autonumber 10 10
    John-->>Alice: Great!
    John->>Bob
    autonumber off
    Bob-->>John: Jolly good!
`,
	"create and destroy": `sequenceDiagram
    Alice->>Bob: Hello Bob, how are you ?
    Bob->>Alice: Fine, thank you. And you?
    create participant Carl
    Alice->>Carl: Hi Carl!
    create actor D as Donald
    Carl->>D: Hi!
    destroy Carl
    Alice-xCarl: We are too many
    destroy Bob
    Bob->>Alice: I agree
    Alice->>D: just us
`,
	"actors and tall labels": `sequenceDiagram
    actor U as User<br/>on a phone
    participant S@{ "type": "database" } as Store
    U->>S: one<br/>two<br/>three lines
    S-->>U: ok
`,
	"create and destroy, odd cases": `sequenceDiagram
    participant A
    create participant B
    B->>B: born talking to itself
    A->>+B: wake
    destroy B
    B-->>-A: gone
    create participant C as A much longer name
    A->>+C: hello there
    Note right of C: new
    destroy C
    C-xA: bye
    create participant D
    D->>A: from the new one
    destroy A
    D->>+A: the end
`,
	"one participant": `sequenceDiagram
    participant Solo
`,
	"empty": "sequenceDiagram\n",
}

func readSeq(t testing.TB, src string) *diagram.Sequence {
	t.Helper()
	d, err := mermaid.Read(src)
	if err != nil {
		t.Fatal(err)
	}
	return d.Sequence
}

func laySeq(t testing.TB, s *diagram.Sequence) *SequenceResult {
	t.Helper()
	res, err := Sequence(s, measureText, SequenceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// randomSeq is a sound sequence of n participants and m messages, with
// activations, notes and nested blocks, from seed.
func randomSeq(n, m int, seed int64) *diagram.Sequence {
	rng := rand.New(rand.NewSource(seed))
	s := &diagram.Sequence{}
	for i := 0; i < n; i++ {
		s.Participants = append(s.Participants, diagram.Participant{ID: fmt.Sprintf("p%d", i), Label: strings.Repeat("x", rng.Intn(30))})
	}
	depth := make([]int, n)
	id := func(i int) string { return s.Participants[i].ID }
	word := func() string { return strings.Repeat("w", rng.Intn(40)) }
	var stack []*diagram.Block
	add := func(st diagram.Step) {
		if len(stack) == 0 {
			s.Steps = append(s.Steps, st)
			return
		}
		b := stack[len(stack)-1]
		b.Sections[len(b.Sections)-1].Steps = append(b.Sections[len(b.Sections)-1].Steps, st)
	}
	add(diagram.Step{Kind: diagram.AutonumberStep, Autonumber: &diagram.Autonumber{}})
	for k := 0; k < m; {
		switch r := rng.Intn(20); {
		case r < 12:
			from, to := rng.Intn(n), rng.Intn(n)
			if rng.Intn(4) == 0 {
				to = from
			}
			msg := &diagram.Message{From: id(from), To: id(to), Label: word(), Head: diagram.TriangleHead}
			if depth[from] > 0 && rng.Intn(3) == 0 {
				msg.Deactivate = true
				depth[from]--
			}
			if depth[to] < 3 && rng.Intn(4) == 0 {
				msg.Activate = true
				depth[to]++
			}
			add(diagram.Step{Kind: diagram.MessageStep, Message: msg})
			k++
		case r == 12:
			i := rng.Intn(n)
			depth[i]++
			add(diagram.Step{Kind: diagram.ActivateStep, Participant: id(i)})
		case r == 13:
			i := rng.Intn(n)
			if depth[i] > 0 {
				depth[i]--
				add(diagram.Step{Kind: diagram.DeactivateStep, Participant: id(i)})
			}
		case r == 14:
			i := rng.Intn(n)
			note := &diagram.Note{Placement: []diagram.NotePlacement{diagram.LeftOf, diagram.RightOf, diagram.Over}[rng.Intn(3)], Participants: []string{id(i)}, Text: word()}
			if note.Placement == diagram.Over && rng.Intn(2) == 0 {
				note.Participants = append(note.Participants, id(rng.Intn(n)))
			}
			add(diagram.Step{Kind: diagram.NoteStep, Note: note})
		case r == 15 || r == 16:
			if len(stack) < 4 {
				kind := diagram.BlockKinds[rng.Intn(len(diagram.BlockKinds))]
				b := &diagram.Block{Kind: kind, Sections: []diagram.Section{{Label: word()}}}
				if kind == diagram.Rect {
					b.Color, b.Sections[0].Label = "#eef", ""
				}
				add(diagram.Step{Kind: diagram.BlockStep, Block: b})
				stack = append(stack, b)
			}
		case r == 17:
			if len(stack) > 0 && stack[len(stack)-1].Kind.SectionKeyword() != "" {
				b := stack[len(stack)-1]
				b.Sections = append(b.Sections, diagram.Section{Label: word()})
			}
		default:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return s
}

// seqCase is one diagram to check.
type seqCase struct {
	name string
	s    *diagram.Sequence
}

func seqCases(t testing.TB) []seqCase {
	var out []seqCase
	for name, src := range seqDiagrams {
		out = append(out, seqCase{name, readSeq(t, src)})
	}
	for seed := int64(1); seed <= 30; seed++ {
		s := randomSeq(2+int(seed)%7, 40, seed)
		if err := s.Check(); err != nil {
			t.Fatalf("random %d: %v", seed, err)
		}
		out = append(out, seqCase{fmt.Sprintf("random %d", seed), s})
	}
	return out
}

// Every layout keeps what a sequence diagram must be; see checkSeq.
func TestSequenceProperties(t *testing.T) {
	for _, c := range seqCases(t) {
		t.Run(c.name, func(t *testing.T) {
			checkSeq(t, c.s, laySeq(t, c.s))
		})
	}
}

// segmentHits reports whether the segment a-b passes through the inside
// of box b shrunk by eps.
func segmentHits(a, c Point, b Box) bool {
	b = Box{b.X + eps, b.Y + eps, b.W - 2*eps, b.H - 2*eps}
	if b.W <= 0 || b.H <= 0 {
		return false
	}
	// Liang–Barsky clipping.
	t0, t1 := 0.0, 1.0
	dx, dy := c.X-a.X, c.Y-a.Y
	for _, pq := range [][2]float64{{-dx, a.X - b.X}, {dx, b.Right() - a.X}, {-dy, a.Y - b.Y}, {dy, b.Bottom() - a.Y}} {
		p, q := pq[0], pq[1]
		if p == 0 {
			if q < 0 {
				return false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = max(t0, r)
		} else {
			t1 = min(t1, r)
		}
	}
	return t0 < t1
}

func polyHits(pts []Point, b Box) bool {
	for i := 1; i < len(pts); i++ {
		if segmentHits(pts[i-1], pts[i], b) {
			return true
		}
	}
	return false
}

type seqItem struct {
	what string
	box  Box
}

// checkSeq asserts what every sequence layout must be: everything
// placed, inside the drawing, sized to its text; messages top to bottom,
// each end on its lifeline, a bar's side or a created head's side; no
// two texts or boxes overlapping, no text crossed by an arrow or an
// activation bar; blocks around what they hold and nested or apart;
// participant boxes around their heads and apart.
func checkSeq(t *testing.T, s *diagram.Sequence, res *SequenceResult) {
	t.Helper()
	o := SequenceOptions{}.withDefaults()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf(format, args...)
	}
	steps := seqFlatten(s.Steps)
	count := map[diagram.StepKind]int{}
	for _, st := range steps {
		count[st.Kind]++
	}
	if len(res.Participants) != len(s.Participants) || len(res.Messages) != count[diagram.MessageStep] ||
		len(res.Notes) != count[diagram.NoteStep] || len(res.Blocks) != count[diagram.BlockStep] || len(res.Boxes) != len(s.Boxes) {
		t.Fatalf("placed %d participants, %d messages, %d notes, %d blocks, %d boxes", len(res.Participants), len(res.Messages), len(res.Notes), len(res.Blocks), len(res.Boxes))
	}
	all := Box{0, 0, res.Width, res.Height}
	inside := func(what string, b Box) {
		t.Helper()
		if (b.W != 0 || b.H != 0) && !all.Contains(b, eps) {
			fail("%s %+v is outside the drawing %+v", what, b, all)
		}
	}
	exact := func(what, text string, b Box) {
		t.Helper()
		w, h := measureText(text)
		if text == "" {
			w, h = 0, 0
		}
		if math.Abs(b.W-w) > eps || math.Abs(b.H-h) > eps {
			fail("%s %q: box %vx%v, text %vx%v", what, text, b.W, b.H, w, h)
		}
	}
	fits := func(what, text string, b Box, pad float64) {
		t.Helper()
		w, h := measureText(text)
		if text == "" {
			w, h = 0, 0
		}
		if b.W < w+2*pad-eps || b.H < h+2*pad-eps {
			fail("%s %q: box %vx%v too small for %vx%v", what, text, b.W, b.H, w, h)
		}
	}
	var solid []seqItem // texts and boxes that may not overlap each other
	byID := map[string]*SequenceParticipant{}
	for i := range res.Participants {
		p := &res.Participants[i]
		byID[p.ID] = p
		fits("head", p.Text, p.Head, o.Padding)
		exact("head label", p.Text, p.Label)
		if !p.Head.Contains(p.Label, eps) {
			fail("%s: label %+v outside head %+v", p.ID, p.Label, p.Head)
		}
		if math.Abs(p.Head.Center().X-p.X) > eps || math.Abs(p.Top-p.Head.Bottom()) > eps || p.Bottom < p.Top-eps {
			fail("%s: lifeline x %v from %v to %v, head %+v", p.ID, p.X, p.Top, p.Bottom, p.Head)
		}
		inside("head", p.Head)
		inside("foot", p.Foot)
		solid = append(solid, seqItem{"head " + p.ID, p.Head})
		if p.Destroyed != (p.Foot == Box{}) {
			fail("%s: destroyed %v, foot %+v", p.ID, p.Destroyed, p.Foot)
		}
		if !p.Destroyed {
			solid = append(solid, seqItem{"foot " + p.ID, p.Foot})
			exact("foot label", p.Text, p.FootLabel)
			if !p.Foot.Contains(p.FootLabel, eps) {
				fail("%s: label %+v outside foot %+v", p.ID, p.FootLabel, p.Foot)
			}
			if math.Abs(p.Foot.Y-p.Bottom) > eps || p.Foot.W != p.Head.W || p.Foot.H != p.Head.H {
				fail("%s: foot %+v does not mirror head %+v at %v", p.ID, p.Foot, p.Head, p.Bottom)
			}
		}
	}
	for i := 1; i < len(res.Participants); i++ {
		if res.Participants[i].X <= res.Participants[i-1].X {
			fail("participants %d and %d out of order", i-1, i)
		}
	}
	bars := map[string][]SequenceActivation{}
	for _, a := range res.Activations {
		bars[a.Participant] = append(bars[a.Participant], a)
		p := byID[a.Participant]
		inside("bar", a.Box)
		if a.Box.H < 0 || a.Box.Y < p.Top-eps || a.Box.Bottom() > p.Bottom+eps || math.Abs(a.Box.X-(p.X-o.ActivationWidth/2+float64(a.Depth)*o.ActivationWidth/2)) > eps {
			fail("bar %+v off %s's lifeline (x %v, %v to %v)", a, p.ID, p.X, p.Top, p.Bottom)
		}
	}
	// onEnd: x at y is p's lifeline, a side of a bar there, or a side of
	// the head created there.
	onEnd := func(id string, pt Point) bool {
		p := byID[id]
		if p.Created && pt.Y >= p.Head.Y-eps && pt.Y <= p.Head.Bottom()+eps && (math.Abs(pt.X-p.Head.X) < eps || math.Abs(pt.X-p.Head.Right()) < eps) {
			return true
		}
		if pt.Y < p.Top-eps || pt.Y > p.Bottom+eps {
			return false
		}
		covered := false
		for _, a := range bars[id] {
			if pt.Y >= a.Box.Y-eps && pt.Y <= a.Box.Bottom()+eps {
				if math.Abs(pt.X-a.Box.X) < eps || math.Abs(pt.X-a.Box.Right()) < eps {
					return true
				}
			}
			if pt.Y > a.Box.Y+eps && pt.Y < a.Box.Bottom()-eps {
				covered = true
			}
		}
		return !covered && math.Abs(pt.X-p.X) < eps
	}
	lastY := -1.0
	for i, m := range res.Messages {
		what := fmt.Sprintf("message %d (%s->%s %q)", i, m.Message.From, m.Message.To, m.Text)
		if len(m.Points) < 2 {
			fail("%s: %d points", what, len(m.Points))
			continue
		}
		first, end := m.Points[0], m.Points[len(m.Points)-1]
		if first.Y <= lastY+eps {
			fail("%s at y %v, not below the one before (%v)", what, first.Y, lastY)
		}
		for _, p := range m.Points {
			lastY = max(lastY, p.Y)
			if p.X < -eps || p.X > res.Width+eps || p.Y > res.Height+eps {
				fail("%s: point %v outside the drawing", what, p)
			}
		}
		if !onEnd(m.Message.From, first) {
			fail("%s starts at %v, off %s", what, first, m.Message.From)
		}
		if !onEnd(m.Message.To, end) {
			fail("%s ends at %v, off %s", what, end, m.Message.To)
		}
		if m.Self != (m.Message.From == m.Message.To) || !m.Self && (len(m.Points) != 2 || first.Y != end.Y) {
			fail("%s: self %v, points %v", what, m.Self, m.Points)
		}
		if m.Text == "" {
			if m.Label != (Box{}) {
				fail("%s: a label box without text", what)
			}
			continue
		}
		exact(what, m.Text, m.Label)
		inside(what, m.Label)
		if m.Label.Bottom() > first.Y+eps {
			fail("%s: label %+v not above its line at %v", what, m.Label, first.Y)
		}
		solid = append(solid, seqItem{what, m.Label})
	}
	for i, n := range res.Notes {
		what := fmt.Sprintf("note %d %q", i, n.Note.Text)
		fits(what, n.Note.Text, n.Box, o.Padding)
		inside(what, n.Box)
		solid = append(solid, seqItem{what, n.Box})
	}
	for i, b := range res.Blocks {
		what := fmt.Sprintf("block %d %s", i, b.Kind)
		inside(what, b.Box)
		if b.Kind != diagram.Rect {
			w, h := measureText(b.Title)
			if b.Title != string(b.Kind) || b.TitleBox.W < w || b.TitleBox.H < h {
				fail("%s: title %q in %+v", what, b.Title, b.TitleBox)
			}
			solid = append(solid, seqItem{what + " title", b.TitleBox})
		}
		boxes := []Box{b.TitleBox}
		if b.Label != "" {
			exact(what+" label", b.Label, b.LabelBox)
			solid = append(solid, seqItem{what + " label", b.LabelBox})
			boxes = append(boxes, b.LabelBox)
		}
		for k, sec := range b.Sections {
			if sec.Y <= b.Box.Y+eps || sec.Y >= b.Box.Bottom()-eps || k > 0 && sec.Y <= b.Sections[k-1].Y {
				fail("%s: section %d at %v, box %+v", what, k, sec.Y, b.Box)
			}
			if sec.Label != "" {
				exact(what+" section label", sec.Label, sec.LabelBox)
				solid = append(solid, seqItem{fmt.Sprintf("%s section %d label", what, k), sec.LabelBox})
				boxes = append(boxes, sec.LabelBox)
				if sec.LabelBox.Y < sec.Y-eps {
					fail("%s: section %d's label above its divider", what, k)
				}
			}
		}
		for _, bx := range boxes {
			if (bx.W != 0 || bx.H != 0) && !b.Box.Contains(bx, eps) {
				fail("%s: %+v outside %+v", what, bx, b.Box)
			}
		}
	}
	for i, b := range res.Boxes {
		what := fmt.Sprintf("box %s", b.ID)
		if b.Box == (Box{}) {
			if b.LabelBox != (Box{}) {
				t.Errorf("%s: a label but no box", what)
			}
			continue // no participants
		}
		inside(what, b.Box)
		if b.Label != "" {
			exact(what+" label", b.Label, b.LabelBox)
			solid = append(solid, seqItem{what + " label", b.LabelBox})
			if !b.Box.Contains(b.LabelBox, eps) {
				fail("%s: label outside", what)
			}
		}
		for k, p := range s.Participants {
			if p.Box == b.ID {
				rp := res.Participants[k]
				if !b.Box.Contains(rp.Head, eps) || !rp.Destroyed && !b.Box.Contains(rp.Foot, eps) {
					fail("%s does not hold %s", what, p.ID)
				}
			}
		}
		for _, c := range res.Boxes[i+1:] {
			if b.Box.Overlaps(c.Box, eps) {
				fail("%s overlaps box %s", what, c.ID)
			}
		}
	}
	// No two solid things overlap, no arrow crosses one (but a created
	// head's own message, which ends on its side).
	for i, a := range solid {
		for _, b := range solid[i+1:] {
			if a.box.Overlaps(b.box, eps) {
				fail("%s %+v overlaps %s %+v", a.what, a.box, b.what, b.box)
			}
		}
		for k, m := range res.Messages {
			if polyHits(m.Points, a.box) {
				fail("message %d (%s->%s) crosses %s %+v", k, m.Message.From, m.Message.To, a.what, a.box)
			}
		}
	}
	// No bar under a message's label, nor under a note but one over the
	// bar's lifeline. (A block's title and labels are drawn over the
	// lifelines and bars that run through the block, as in Mermaid.)
	for _, a := range res.Activations {
		for _, it := range solid {
			if !strings.HasPrefix(it.what, "message") {
				continue
			}
			if a.Box.Overlaps(it.box, eps) {
				fail("%s's bar %+v under %s %+v", a.Participant, a.Box, it.what, it.box)
			}
		}
		for k, n := range res.Notes {
			if n.Note.Placement == diagram.Over && overSpan(s, n.Note, a.Participant) {
				continue
			}
			if a.Box.Overlaps(n.Box, eps) {
				fail("%s's bar %+v under note %d %+v", a.Participant, a.Box, k, n.Box)
			}
		}
	}
	checkSeqBlocks(t, s, res)
}

// overSpan reports whether a note over participants spans id.
func overSpan(s *diagram.Sequence, n diagram.Note, id string) bool {
	at := map[string]int{}
	for i, p := range s.Participants {
		at[p.ID] = i
	}
	lo, hi := at[n.Participants[0]], at[n.Participants[len(n.Participants)-1]]
	if lo > hi {
		lo, hi = hi, lo
	}
	return at[id] >= lo && at[id] <= hi
}

// checkSeqBlocks: a block holds the messages and notes written in it,
// and its nested blocks; blocks not nested do not overlap.
func checkSeqBlocks(t *testing.T, s *diagram.Sequence, res *SequenceResult) {
	t.Helper()
	msg, note, blk := 0, 0, 0
	parent := map[int]int{}
	var walk func(steps []diagram.Step, open []int)
	walk = func(steps []diagram.Step, open []int) {
		for _, st := range steps {
			switch st.Kind {
			case diagram.MessageStep:
				m := res.Messages[msg]
				for _, b := range open {
					bb := res.Blocks[b].Box
					if (m.Label != Box{}) && !bb.Contains(m.Label, eps) {
						t.Errorf("block %d does not hold message %d's label", b, msg)
					}
					for _, p := range m.Points {
						if !bb.Contains(Box{p.X, p.Y, 0, 0}, eps) {
							t.Errorf("block %d does not hold message %d's point %v", b, msg, p)
						}
					}
				}
				msg++
			case diagram.NoteStep:
				for _, b := range open {
					if !res.Blocks[b].Box.Contains(res.Notes[note].Box, eps) {
						t.Errorf("block %d does not hold note %d", b, note)
					}
				}
				note++
			case diagram.BlockStep:
				me := blk
				blk++
				parent[me] = -1
				if len(open) > 0 {
					parent[me] = open[len(open)-1]
					if res.Blocks[me].Depth != len(open) {
						t.Errorf("block %d: depth %d, want %d", me, res.Blocks[me].Depth, len(open))
					}
					outer := res.Blocks[open[len(open)-1]].Box
					in := res.Blocks[me].Box
					if !outer.Contains(in, eps) || in.X < outer.X+eps || in.Right() > outer.Right()-eps || in.Bottom() > outer.Bottom()-eps {
						t.Errorf("block %d %+v not well inside block %d %+v", me, in, open[len(open)-1], outer)
					}
				}
				for _, sec := range st.Block.Sections {
					walk(sec.Steps, append(open[:len(open):len(open)], me))
				}
			}
		}
	}
	walk(s.Steps, nil)
	ancestor := func(a, b int) bool {
		for p := parent[b]; p >= 0; p = parent[p] {
			if p == a {
				return true
			}
		}
		return false
	}
	for i := range res.Blocks {
		for j := i + 1; j < len(res.Blocks); j++ {
			if !ancestor(i, j) && res.Blocks[i].Box.Overlaps(res.Blocks[j].Box, eps) {
				t.Errorf("blocks %d and %d overlap", i, j)
			}
		}
	}
}

// The same diagram lays out the same, every time.
func TestSequenceDeterministic(t *testing.T) {
	for _, c := range seqCases(t) {
		a, b := laySeq(t, c.s), laySeq(t, c.s)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: two layouts differ", c.name)
		}
	}
}

// A neighbour moves aside for a long label: the gap between two
// participants fits every message label between them.
func TestSequenceGapFitsLabels(t *testing.T) {
	short := laySeq(t, readSeq(t, "sequenceDiagram\n    A->>B: x\n"))
	long := laySeq(t, readSeq(t, "sequenceDiagram\n    A->>B: "+strings.Repeat("long ", 40)+"\n"))
	gap := func(r *SequenceResult) float64 { return r.Participants[1].X - r.Participants[0].X }
	w, _ := measureText(strings.TrimSpace(strings.Repeat("long ", 40)))
	if gap(long) < w || gap(long) <= gap(short) {
		t.Errorf("gaps %v (short) and %v (long, label %v)", gap(short), gap(long), w)
	}
	r := laySeq(t, readSeq(t, "sequenceDiagram\n    autonumber 7\n    A->>B: hi\n"))
	if r.Messages[0].Text != "7. hi" || r.Messages[0].Number != 7 {
		t.Errorf("autonumbered %q (%d)", r.Messages[0].Text, r.Messages[0].Number)
	}
}

// What Check refuses, Sequence refuses.
func TestSequenceBadInput(t *testing.T) {
	s := &diagram.Sequence{Participants: []diagram.Participant{{ID: "a"}}, Steps: []diagram.Step{{Kind: diagram.MessageStep, Message: &diagram.Message{From: "a", To: "b"}}}}
	if _, err := Sequence(s, measureText, SequenceOptions{}); err == nil {
		t.Error("laid out a message to nobody")
	}
	if _, err := Sequence(nil, measureText, SequenceOptions{}); err == nil {
		t.Error("laid out nil")
	}
}

// A large diagram, 50 participants and 1,000 messages, lays out quickly
// and soundly.
func TestSequenceLarge(t *testing.T) {
	s := randomSeq(50, 1000, 42)
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := laySeq(t, s)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if len(res.Messages) != 1000 {
		t.Fatalf("%d messages", len(res.Messages))
	}
	checkSeq(t, s, res)
}

// FuzzSequenceLayout: whatever Mermaid text reads as a sequence lays out
// soundly.
func FuzzSequenceLayout(f *testing.F) {
	for _, src := range seqDiagrams {
		f.Add(src)
	}
	f.Add("sequenceDiagram\nACtivAte 0")
	f.Add("sequenceDiagram\nBoX 0\nend")
	// A participant that destroys itself with a self-message: its
	// lifeline once ended at the top of the loop, above where the loop
	// comes back (found by this fuzzer in CI).
	f.Add("sequenceDiagram\ndestroy 0\n0->>0:")
	f.Add("sequenceDiagram\nactivate 0\ndestroy 0\n0->>+0: x")
	f.Fuzz(func(t *testing.T, src string) {
		d, err := mermaid.Read(src)
		if err != nil || d.Sequence == nil {
			return
		}
		res, err := Sequence(d.Sequence, measureText, SequenceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		checkSeq(t, d.Sequence, res)
	})
}
