package mermaid

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// seqSummary writes a sequence one line a thing, for tests to compare:
//
//	box id "label" colour
//	participant id "label" kind in box
//	message from -> to line start/head "label" +-
//	activate id, deactivate id, create id, destroy id
//	note placement ids "text"
//	loop "label" colour {, else "label", } (nested steps indented)
//	autonumber start increment / autonumber off
func seqSummary(s *diagram.Sequence) string {
	var b strings.Builder
	for _, bx := range s.Boxes {
		fmt.Fprintf(&b, "box %s %q", bx.ID, bx.Label)
		if bx.Color != "" {
			fmt.Fprintf(&b, " %s", bx.Color)
		}
		b.WriteByte('\n')
	}
	for _, pt := range s.Participants {
		fmt.Fprintf(&b, "participant %s", pt.ID)
		if pt.Label != "" {
			fmt.Fprintf(&b, " %q", pt.Label)
		}
		if pt.Kind != "" {
			fmt.Fprintf(&b, " %s", pt.Kind)
		}
		if pt.Box != "" {
			fmt.Fprintf(&b, " in %s", pt.Box)
		}
		b.WriteByte('\n')
	}
	seqSteps(&b, s.Steps, "")
	return b.String()
}

func seqSteps(b *strings.Builder, steps []diagram.Step, indent string) {
	for _, st := range steps {
		b.WriteString(indent)
		switch st.Kind {
		case diagram.MessageStep:
			m := st.Message
			fmt.Fprintf(b, "message %s -> %s %s %s/%s", m.From, m.To, m.Line, head(m.Start), head(m.Head))
			if m.Label != "" {
				fmt.Fprintf(b, " %q", m.Label)
			}
			if m.Activate {
				b.WriteString(" +")
			}
			if m.Deactivate {
				b.WriteString(" -")
			}
		case diagram.NoteStep:
			fmt.Fprintf(b, "note %s %s %q", st.Note.Placement, strings.Join(st.Note.Participants, ","), st.Note.Text)
		case diagram.BlockStep:
			bl := st.Block
			fmt.Fprintf(b, "%s %q", bl.Kind, bl.Label())
			if bl.Color != "" {
				fmt.Fprintf(b, " %s", bl.Color)
			}
			b.WriteString(" {\n")
			for i, sec := range bl.Sections {
				if i > 0 {
					fmt.Fprintf(b, "%s%s %q\n", indent, bl.Kind.SectionKeyword(), sec.Label)
				}
				seqSteps(b, sec.Steps, indent+"  ")
			}
			b.WriteString(indent + "}")
		case diagram.AutonumberStep:
			if st.Autonumber.Off {
				b.WriteString("autonumber off")
			} else {
				fmt.Fprintf(b, "autonumber %d %d", st.Autonumber.Start, st.Autonumber.Increment)
			}
		default:
			fmt.Fprintf(b, "%s %s", st.Kind, st.Participant)
		}
		b.WriteByte('\n')
	}
}

// sequences are the sequence diagrams written here, covering the
// syntax: each source and the model it parses into, as seqSummary
// writes it.
var sequences = []struct{ name, src, want string }{
	{"the shortest", "sequenceDiagram\n    Alice->>John: Hello John, how are you?\n    John-->>Alice: Great!\n", `participant Alice
participant John
message Alice -> John solid -/triangle "Hello John, how are you?"
message John -> Alice dashed -/triangle "Great!"
`},
	{"every arrow", `sequenceDiagram
    A->B: a
    A-->B: b
    A->>B: c
    A-->>B: d
    A-xB: e
    A--xB: f
    A-)B: g
    A--)B: h
    A<<->>B: i
    A<<-->>B: j
`, `participant A
participant B
message A -> B solid -/- "a"
message A -> B dashed -/- "b"
message A -> B solid -/triangle "c"
message A -> B dashed -/triangle "d"
message A -> B solid -/cross "e"
message A -> B dashed -/cross "f"
message A -> B solid -/arrow "g"
message A -> B dashed -/arrow "h"
message A -> B solid triangle/triangle "i"
message A -> B dashed triangle/triangle "j"
`},
	{"participants declared in their order", `sequenceDiagram
    participant John
    participant Alice
    Alice->>John: Hi
`, `participant John
participant Alice
message Alice -> John solid -/triangle "Hi"
`},
	{"actors and aliases", `sequenceDiagram
    actor A as Alice
    participant J as John Smith
    A->>J: Hello
`, `participant A "Alice" actor
participant J "John Smith"
message A -> J solid -/triangle "Hello"
`},
	{"participant types", `sequenceDiagram
    participant Alice@{ "type" : "boundary" }
    participant Db@{ "type": "database" } as The store
    participant Q@{ type: queue }
    Alice->>Db: query
`, `participant Alice boundary
participant Db "The store" database
participant Q queue
message Alice -> Db solid -/triangle "query"
`},
	{"a declaration after use sets the label", `sequenceDiagram
    A->>B: x
    participant B as Bob
`, `participant A
participant B "Bob"
message A -> B solid -/triangle "x"
`},
	{"ids with spaces and dashes", `sequenceDiagram
    Web App->>my-service: call
    my-service-->>Web App: done
`, `participant Web App
participant my-service
message Web App -> my-service solid -/triangle "call"
message my-service -> Web App dashed -/triangle "done"
`},
	{"blanks around arrows", "sequenceDiagram\n    A ->> B : spaced\n    B -->> A:tight\n", `participant A
participant B
message A -> B solid -/triangle "spaced"
message B -> A dashed -/triangle "tight"
`},
	{"a message without text", "sequenceDiagram\n    A->>B\n", `participant A
participant B
message A -> B solid -/triangle
`},
	{"a self message", "sequenceDiagram\n    A->>A: think\n", `participant A
message A -> A solid -/triangle "think"
`},
	{"activate and deactivate", `sequenceDiagram
    Alice->>John: Hello
    activate John
    John-->>Alice: Great!
    deactivate John
`, `participant Alice
participant John
message Alice -> John solid -/triangle "Hello"
activate John
message John -> Alice dashed -/triangle "Great!"
deactivate John
`},
	{"the + and - shorthand, stacked", `sequenceDiagram
    Alice->>+John: Hello
    Alice->>+John: Still there?
    John-->>-Alice: Yes
    John-->>-Alice: Bye
`, `participant Alice
participant John
message Alice -> John solid -/triangle "Hello" +
message Alice -> John solid -/triangle "Still there?" +
message John -> Alice dashed -/triangle "Yes" -
message John -> Alice dashed -/triangle "Bye" -
`},
	{"notes", `sequenceDiagram
    participant John
    Note right of John: Text in note
    note left of John: left
    Note over John: over
    Note over Alice,John: A typical interaction
    NOTE RIGHT OF John: shouted
`, `participant John
participant Alice
note right of John "Text in note"
note left of John "left"
note over John "over"
note over Alice,John "A typical interaction"
note right of John "shouted"
`},
	{"a loop", `sequenceDiagram
    Alice->John: Hello John, how are you?
    loop Every minute
        John-->Alice: Great!
    end
`, `participant Alice
participant John
message Alice -> John solid -/- "Hello John, how are you?"
loop "Every minute" {
  message John -> Alice dashed -/- "Great!"
}
`},
	{"alt, else and opt", `sequenceDiagram
    Alice->>Bob: Hello Bob, how are you?
    alt is sick
        Bob->>Alice: Not so good :(
    else is well
        Bob->>Alice: Feeling fresh like a daisy
    else
        Bob->>Alice: ...
    end
    opt Extra response
        Bob->>Alice: Thanks for asking
    end
`, `participant Alice
participant Bob
message Alice -> Bob solid -/triangle "Hello Bob, how are you?"
alt "is sick" {
  message Bob -> Alice solid -/triangle "Not so good :("
else "is well"
  message Bob -> Alice solid -/triangle "Feeling fresh like a daisy"
else ""
  message Bob -> Alice solid -/triangle "..."
}
opt "Extra response" {
  message Bob -> Alice solid -/triangle "Thanks for asking"
}
`},
	{"nested par", `sequenceDiagram
    par Alice to Bob
        Alice->>Bob: Go help John
    and Alice to John
        Alice->>John: I want this done today
        par John to Charlie
            John->>Charlie: Can we do this today?
        and John to Diana
            John->>Diana: Can you help us today?
        end
    end
`, `participant Alice
participant Bob
participant John
participant Charlie
participant Diana
par "Alice to Bob" {
  message Alice -> Bob solid -/triangle "Go help John"
and "Alice to John"
  message Alice -> John solid -/triangle "I want this done today"
  par "John to Charlie" {
    message John -> Charlie solid -/triangle "Can we do this today?"
  and "John to Diana"
    message John -> Diana solid -/triangle "Can you help us today?"
  }
}
`},
	{"critical and break", `sequenceDiagram
    critical Establish a connection to the DB
        Service-->DB: connect
    option Network timeout
        Service-->Service: Log error
    option Credentials rejected
        Service-->Service: Log different error
    end
    break when the booking process fails
        API-->Consumer: show failure
    end
`, `participant Service
participant DB
participant API
participant Consumer
critical "Establish a connection to the DB" {
  message Service -> DB dashed -/- "connect"
option "Network timeout"
  message Service -> Service dashed -/- "Log error"
option "Credentials rejected"
  message Service -> Service dashed -/- "Log different error"
}
break "when the booking process fails" {
  message API -> Consumer dashed -/- "show failure"
}
`},
	{"rect colours", `sequenceDiagram
    rect rgb(191, 223, 255)
        A->>B: x
        rect rgba(0, 0, 255, .1)
            B->>A: y
        end
    end
    rect #f0f
        A->>B: z
    end
`, `participant A
participant B
rect "" rgb(191, 223, 255) {
  message A -> B solid -/triangle "x"
  rect "" rgba(0, 0, 255, .1) {
    message B -> A solid -/triangle "y"
  }
}
rect "" #f0f {
  message A -> B solid -/triangle "z"
}
`},
	{"boxes", `sequenceDiagram
    box Purple Alice & John
        participant A
        participant J
    end
    box rgb(33,66,99)
        participant B
    end
    box Another Group
        actor C
    end
    box transparent Aqua
        participant D
    end
    A->>J: Hello
`, `box box1 "Alice & John" Purple
box box2 "" rgb(33,66,99)
box box3 "Another Group"
box box4 "Aqua"
participant A in box1
participant J in box1
participant B in box2
participant C actor in box3
participant D in box4
message A -> J solid -/triangle "Hello"
`},
	{"autonumber", `sequenceDiagram
    autonumber
    A->>B: one
    autonumber 10 5
    A->>B: ten
    autonumber off
    A->>B: none
`, `participant A
participant B
autonumber 0 0
message A -> B solid -/triangle "one"
autonumber 10 5
message A -> B solid -/triangle "ten"
autonumber off
message A -> B solid -/triangle "none"
`},
	{"create and destroy", `sequenceDiagram
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
`, `participant Alice
participant Bob
participant Carl
participant D "Donald" actor
message Alice -> Bob solid -/triangle "Hello Bob, how are you ?"
message Bob -> Alice solid -/triangle "Fine, thank you. And you?"
create Carl
message Alice -> Carl solid -/triangle "Hi Carl!"
create D
message Carl -> D solid -/triangle "Hi!"
destroy Carl
message Alice -> Carl solid -/cross "We are too many"
destroy Bob
message Bob -> Alice solid -/triangle "I agree"
`},
	{"comments, front matter, title and accessibility are dropped", `---
title: Hello
config:
  theme: forest
---
%%{init: {"theme": "dark"}}%%
sequenceDiagram
    %% a comment
    title: Greetings
    accTitle: The title
    accDescr: One line
    accDescr {
        Many
        lines
    }
    A->>B: hi %% trailing
`, `participant A
participant B
message A -> B solid -/triangle "hi"
`},
	{"semicolons and entity codes", "sequenceDiagram;A->>B: I #9829; you;B->>A: I #9829; you #infin; times;\n", `participant A
participant B
message A -> B solid -/triangle "I ♥ you"
message B -> A solid -/triangle "I ♥ you ∞ times"
`},
	{"line breaks in labels", "sequenceDiagram\n    A->>B: Hello<br/>John\n    Note over A: two<br>lines\n", `participant A
participant B
message A -> B solid -/triangle "Hello\nJohn"
note over A "two\nlines"
`},
	{"wrap prefixes and links are dropped", `sequenceDiagram
    participant A
    link A: Dashboard @ https://example.com
    links A: {"Repo": "https://example.com"}
    A->>A: wrap:a long text
`, `participant A
message A -> A solid -/triangle "a long text"
`},
	{"keywords in any case", `sequenceDiagram
    PARTICIPANT A
    Loop forever
        A->>B: x
    END
    Activate B
    DEACTIVATE B
`, ""},
	{"note over the same participant twice", "sequenceDiagram\n    Note over A,A: once\n", `participant A
note over A "once"
`},
	{"a message inside a deep nest", `sequenceDiagram
    loop a
        opt b
            alt c
                A->>B: deep
            end
        end
    end
`, `participant A
participant B
loop "a" {
  opt "b" {
    alt "c" {
      message A -> B solid -/triangle "deep"
    }
  }
}
`},
	{"actor then participant keeps the actor", `sequenceDiagram
    actor A
    participant A as Alice
`, `participant A "Alice" actor
`},
	{"empty blocks", "sequenceDiagram\n    participant A\n    loop\n    end\n", `participant A
loop "" {
}
`},
}

// Each sequence diagram written here parses into the model it says,
// which passes Check.
func TestSequences(t *testing.T) {
	if len(sequences) < 25 {
		t.Fatalf("%d sequences, want at least 25", len(sequences))
	}
	for _, c := range sequences {
		t.Run(c.name, func(t *testing.T) {
			s, err := parseSequence(c.src)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Check(); err != nil {
				t.Fatalf("Check: %v", err)
			}
			if c.want == "" {
				return
			}
			if got := seqSummary(s); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// Mistakes and syntax not taken are errors at their line and column.
func TestSequenceErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"no header", "Alice->>Bob: hi\n", `mermaid:1:1: expected sequenceDiagram, got "Alice"`},
		{"text after the header", "sequenceDiagram A->>B: hi\n", `mermaid:1:17: expected a new line after sequenceDiagram, got "A"`},
		{"an unknown arrow", "sequenceDiagram\n    A=>B: hi\n", `mermaid:2:6: expected an arrow (->>, -->>, ->, -->, -x, --x, -), --), <<->> or <<-->>) after participant A, got "=>"`},
		{"no participant after the arrow", "sequenceDiagram\n    A->>: hi\n", `mermaid:2:9: expected a participant id after the arrow, got ":"`},
		{"a word alone", "sequenceDiagram\n    hello\n", `mermaid:2:5: expected a message such as hello->>B: text, or a keyword such as participant, note or loop, got "hello" alone`},
		{"a colon in a declared id", "sequenceDiagram\n    participant A:B\n", `mermaid:2:18: a participant id takes no ":" (it would end the id in a message): write it in the label, after as`},
		{"end without a block", "sequenceDiagram\n    A->>B: x\n    end\n", `mermaid:3:5: end without a block or box to close`},
		{"a loop without end", "sequenceDiagram\n    loop every day\n        A->>B: x\n", `mermaid:2:5: loop block has no end: expected end after its steps`},
		{"else outside alt", "sequenceDiagram\n    loop x\n    else y\n    end\n", `mermaid:3:5: else in the loop block at line 2: else opens another section of a alt block only`},
		{"and outside any block", "sequenceDiagram\n    and y\n", `mermaid:2:5: and outside any block: and opens another section of a par block only`},
		{"deactivate an inactive participant", "sequenceDiagram\n    A->>B: x\n    deactivate B\n", `mermaid:3:16: participant B is not active: deactivate follows activate B or a message ->>+B`},
		{"a - from an inactive sender", "sequenceDiagram\n    B-->>-A: x\n", `mermaid:2:10: participant B is not active: a message with - after its arrow ends an activation of its sender (activate B, or ->>+B, first)`},
		{"a note without placement", "sequenceDiagram\n    Note A: x\n", `mermaid:2:10: expected left of, right of or over after note, got "A"`},
		{"a note without text", "sequenceDiagram\n    Note over A\n", `mermaid:2:16: expected : and the note's text after A, got the end of the line`},
		{"a note right of two", "sequenceDiagram\n    Note right of A,B: x\n", `mermaid:2:19: a note right of names one participant, a note over one or two`},
		{"rect without a colour", "sequenceDiagram\n    rect\n    end\n", `mermaid:2:9: expected a colour after rect, as in rect rgb(200, 220, 255), got the end of the line`},
		{"a message in a box", "sequenceDiagram\n    box Blue\n        A->>B: x\n    end\n", `mermaid:3:9: only participant and actor declarations go inside a box (close the box at line 2 with end first)`},
		{"a box without end", "sequenceDiagram\n    box Blue team\n        participant A\n", `mermaid:2:5: box has no end: expected end after its participants`},
		{"a participant placed before its box", "sequenceDiagram\n    A->>B: x\n    box Blue\n        participant A\n    end\n", `mermaid:4:21: participant A is placed already (named at line 2): declare it inside the box before anything names it`},
		{"an unknown participant type", "sequenceDiagram\n    participant A@{ \"type\": \"robot\" }\n", `mermaid:2:21: participant type "robot" is not one of participant, actor, boundary, control, entity, database, collections, queue`},
		{"create an existing participant", "sequenceDiagram\n    A->>B: x\n    create participant B\n", `mermaid:3:24: participant B exists already (named at line 2): create introduces a new one`},
		{"create without a message", "sequenceDiagram\n    A->>B: x\n    create participant C\n    Note over A: x\n", `mermaid:4:5: create C must be followed by a message to or from C`},
		{"a destroyed participant named", "sequenceDiagram\n    A->>B: x\n    destroy B\n    A-xB: bye\n    A->>B: again\n", `mermaid:5:9: participant B was destroyed at line 3: nothing may name it after the message that destroyed it`},
		{"autonumber with a word", "sequenceDiagram\n    autonumber ten\n", `mermaid:2:16: expected autonumber, autonumber off, or autonumber with a start and an increment (numbers from 0), got "ten"`},
		{"text after end", "sequenceDiagram\n    loop x\n    end loop\n", `mermaid:3:9: expected a new line after end, got "loop"`},
		{"an unclosed directive", "%%{init: {}\nsequenceDiagram\n", `mermaid:1:1: expected }%% to close the directive`},
		{"nested boxes", "sequenceDiagram\n    box a\n    box b\n", `mermaid:3:5: only participant and actor declarations go inside a box (close the box at line 2 with end first)`},
		{"columns count characters", "sequenceDiagram\n    Ünï->>Bö: x\n    Ünï=>Bö: x\n", `mermaid:3:8: expected an arrow (->>, -->>, ->, -->, -x, --x, -), --), <<->> or <<-->>) after participant Ünï, got "=>"`},
	} {
		_, err := parseSequence(c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: %#v is not an *Error", c.name, err)
		}
	}
}

// Read picks the sequence parser by the header, after front matter and
// comments.
func TestReadSequence(t *testing.T) {
	d, err := Read("---\ntitle: x\n---\n%% hi\nsequenceDiagram\n    Alice->>+Bob: Hi\n    Bob-->>-Alice: Hello\n")
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != Sequence || d.Sequence == nil || d.Graph != nil {
		t.Fatalf("got %+v", d)
	}
	if len(d.Sequence.Participants) != 2 || len(d.Sequence.Steps) != 2 {
		t.Errorf("got %s", seqSummary(d.Sequence))
	}
	if _, err := Read("sequenceDiagram\n    A=>B\n"); err == nil {
		t.Error("Read took a bad sequence")
	}
}

// A long sequence parses quickly: 200 participants, 20,000 messages in
// nested loops.
func TestSequenceLong(t *testing.T) {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	for i := 0; i < 20000; i++ {
		if i%100 == 0 {
			b.WriteString("loop x\n")
		}
		fmt.Fprintf(&b, "p%d->>+p%d: m%d\np%d-->>-p%d: r\n", i%200, (i*7+1)%200, i, (i*7+1)%200, i%200)
		if i%100 == 99 {
			b.WriteString("end\n")
		}
	}
	s, err := parseSequence(b.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Participants) != 200 {
		t.Errorf("%d participants", len(s.Participants))
	}
}

// FuzzSequence: parseSequence never panics; what it takes passes Check,
// and what it refuses is an *Error at a line and column of the text.
func FuzzSequence(f *testing.F) {
	for _, c := range sequences {
		f.Add(c.src)
	}
	f.Add("sequenceDiagram\n\v-x0")
	f.Add("sequenceDiagram\n box Red x\n actor A\n end\n A->>+A: x\n A-->>-A: y\n destroy A\n A-xA: z")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := parseSequence(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Line < 1 || e.Column < 1 || e.Line > strings.Count(src, "\n")+1 {
				t.Fatalf("%q: error %#v", src, err)
			}
			if strings.Contains(e.Message, "not sound") {
				t.Fatalf("%q: %v", src, err)
			}
			return
		}
		if err := s.Check(); err != nil {
			t.Fatalf("%q: accepted, but Check: %v", src, err)
		}
	})
}
