package diagram

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func soundSequence() Sequence {
	return Sequence{
		Boxes: []ParticipantBox{{ID: "front", Label: "Front end", Color: "#eef"}},
		Participants: []Participant{
			{ID: "user", Kind: Actor, Box: "front"},
			{ID: "web", Label: "Web app", Box: "front"},
			{ID: "api", Label: "API"},
			{ID: "db", Kind: Database},
			{ID: "job", Label: "Worker"},
		},
		Steps: []Step{
			{Kind: AutonumberStep, Autonumber: &Autonumber{}},
			{Kind: MessageStep, Message: &Message{From: "user", To: "web", Label: "open", Head: TriangleHead}},
			{Kind: MessageStep, Message: &Message{From: "web", To: "api", Label: "GET /", Head: TriangleHead, Activate: true}},
			{Kind: BlockStep, Block: &Block{Kind: Alt, Sections: []Section{
				{Label: "cached", Steps: []Step{{Kind: NoteStep, Note: &Note{Placement: Over, Participants: []string{"api", "db"}, Text: "hit"}}}},
				{Label: "not", Steps: []Step{
					{Kind: MessageStep, Message: &Message{From: "api", To: "db", Label: "query", Head: TriangleHead}},
					{Kind: ActivateStep, Participant: "db"},
					{Kind: DeactivateStep, Participant: "db"},
				}},
			}}},
			{Kind: MessageStep, Message: &Message{From: "api", To: "web", Line: Dashed, Head: TriangleHead, Deactivate: true}},
			{Kind: CreateStep, Participant: "job"},
			{Kind: MessageStep, Message: &Message{From: "api", To: "job", Label: "spawn", Head: ArrowHead}},
			{Kind: DestroyStep, Participant: "job"},
			{Kind: MessageStep, Message: &Message{From: "job", To: "api", Label: "done", Head: CrossHead}},
		},
	}
}

// A sound sequence passes; each kind of mistake is named at its pointer.
func TestSequenceCheck(t *testing.T) {
	s := soundSequence()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	alt := func(s *Sequence) *Block { return s.Steps[3].Block }
	for _, tc := range []struct {
		name    string
		break_  func(*Sequence)
		pointer string
	}{
		{"no id", func(s *Sequence) { s.Participants[1].ID = "" }, "/participants/1/id"},
		{"an id twice", func(s *Sequence) { s.Participants[2].ID = "web" }, "/participants/2/id"},
		{"a kind", func(s *Sequence) { s.Participants[0].Kind = "robot" }, "/participants/0/kind"},
		{"a box", func(s *Sequence) { s.Participants[2].Box = "back" }, "/participants/2/box"},
		{"a box's participants apart", func(s *Sequence) { s.Participants[3].Box = "front" }, "/participants/3/box"},
		{"a box id twice", func(s *Sequence) { s.Boxes = append(s.Boxes, ParticipantBox{ID: "front"}) }, "/boxes/1/id"},
		{"a message's sender", func(s *Sequence) { s.Steps[1].Message.From = "nobody" }, "/steps/1/message/from"},
		{"a message's line", func(s *Sequence) { s.Steps[1].Message.Line = Thick }, "/steps/1/message/line"},
		{"a message's head", func(s *Sequence) { s.Steps[1].Message.Head = "harpoon" }, "/steps/1/message/head"},
		{"a deactivation of nobody active", func(s *Sequence) { s.Steps[2].Message.Activate = false }, "/steps/4/message/deactivate"},
		{"a note's participant", func(s *Sequence) { alt(s).Sections[0].Steps[0].Note.Participants[1] = "x" }, "/steps/3/block/sections/0/steps/0/note/participants/1"},
		{"a note right of two", func(s *Sequence) { alt(s).Sections[0].Steps[0].Note.Placement = RightOf }, "/steps/3/block/sections/0/steps/0/note/participants"},
		{"a placement", func(s *Sequence) { alt(s).Sections[0].Steps[0].Note.Placement = "under" }, "/steps/3/block/sections/0/steps/0/note/placement"},
		{"a block kind", func(s *Sequence) { alt(s).Kind = "maybe" }, "/steps/3/block/kind"},
		{"a loop with two sections", func(s *Sequence) { alt(s).Kind = Loop }, "/steps/3/block/sections"},
		{"a block without sections", func(s *Sequence) { alt(s).Sections = nil }, "/steps/3/block/sections"},
		{"a colour on a non-rect", func(s *Sequence) { alt(s).Color = "red" }, "/steps/3/block/color"},
		{"a deactivate step", func(s *Sequence) { alt(s).Sections[1].Steps[1].Participant = "api" }, "/steps/3/block/sections/1/steps/2/participant"},
		{"a step kind", func(s *Sequence) { s.Steps[0].Kind = "pause" }, "/steps/0/kind"},
		{"a step with two things", func(s *Sequence) { s.Steps[1].Participant = "web" }, "/steps/1"},
		{"a created participant named before", func(s *Sequence) { s.Steps[1].Message.To = "job" }, "/steps/1/message/to"},
		{"a destroyed participant named after", func(s *Sequence) {
			s.Steps = append(s.Steps, Step{Kind: MessageStep, Message: &Message{From: "api", To: "job"}})
		}, "/steps/9/message/to"},
		{"a create not followed by its message", func(s *Sequence) { s.Steps[6].Message.To = "db" }, "/steps/6/message"},
		{"a negative autonumber", func(s *Sequence) { s.Steps[0].Autonumber.Start = -1 }, "/steps/0/autonumber"},
	} {
		s := soundSequence()
		tc.break_(&s)
		var p Problem
		if err := s.Check(); !errors.As(err, &p) || p.Pointer != tc.pointer {
			t.Errorf("%s: %v, want a problem at %s", tc.name, err, tc.pointer)
		}
	}
}

// Messages are numbered from autonumber on, by its start and increment,
// through blocks, until it is off.
func TestSequenceNumbers(t *testing.T) {
	s := soundSequence()
	if got, want := s.Numbers(), []int{1, 2, 3, 4, 5, 6}; !reflect.DeepEqual(got, want) {
		t.Errorf("numbers %v, want %v", got, want)
	}
	s.Steps[0].Autonumber = &Autonumber{Start: 10, Increment: 5}
	s.Steps = append(s.Steps[:5:5], append([]Step{{Kind: AutonumberStep, Autonumber: &Autonumber{Off: true}}}, s.Steps[5:]...)...)
	if got, want := s.Numbers(), []int{10, 15, 20, 25, 0, 0}; !reflect.DeepEqual(got, want) {
		t.Errorf("numbers %v, want %v", got, want)
	}
}

// A sequence survives JSON, as it is kept with the scene.
func TestSequenceJSON(t *testing.T) {
	s := soundSequence()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back Sequence
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, back) {
		t.Errorf("round trip:\n%s", b)
	}
	if p := (Participant{ID: "a"}); p.Text() != "a" {
		t.Errorf("text %q", p.Text())
	}
}
