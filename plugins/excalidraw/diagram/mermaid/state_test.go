package mermaid

import "testing"

func TestStateDiagrams(t *testing.T) { testKind(t, State, stateDiagrams) }

var stateDiagrams = []kindCase{
	{"start and end", `stateDiagram-v2
    [*] --> Still
    Still --> [*]
    Still --> Moving
    Moving --> Crash
    Crash --> [*]
`, `dir TB
node start circle role start
node Still rounded
node end doublecircle role end
node Moving rounded
node Crash rounded
edge start -> Still solid -/arrow
edge Still -> end solid -/arrow
edge Still -> Moving solid -/arrow
edge Moving -> Crash solid -/arrow
edge Crash -> end solid -/arrow
`},
	{"stateDiagram, the first version", `stateDiagram
    s1 --> s2
`, `dir TB
node s1 rounded
node s2 rounded
edge s1 -> s2 solid -/arrow
`},
	{"names and descriptions", `stateDiagram-v2
    state "This is a state description" as s2
    s2 : with a line under it
    s3: one<br>two
    s4
    s2 --> s3
`, `dir TB
node s2 rounded "This is a state description"
  field "with a line under it"
node s3 rounded
  field "one\ntwo"
node s4 rounded
edge s2 -> s3 solid -/arrow
`},
	{"transition labels", `stateDiagram-v2
    s1 --> s2: A transition
    s2-->s3 : #quot;quoted#quot;
`, `dir TB
node s1 rounded
node s2 rounded
node s3 rounded
edge s1 -> s2 solid -/arrow "A transition"
edge s2 -> s3 solid -/arrow "\"quoted\""
`},
	{"composite states are groups with their own start and end", `stateDiagram-v2
    [*] --> First
    state First {
        [*] --> second
        second --> [*]
    }
    First --> [*]
`, `dir TB
group First "First"
node start circle role start
node First_start circle role start in First
node second rounded in First
node First_end doublecircle role end in First
node end doublecircle role end
edge start -> First solid -/arrow
edge First_start -> second solid -/arrow
edge second -> First_end solid -/arrow
edge First -> end solid -/arrow
`},
	{"nested composites", `stateDiagram-v2
    state "The first" as First {
        state Second {
            state Third {
                a --> b
            }
        }
    }
    Third --> First
`, `dir TB
group First "The first"
group Second "Second" in First
group Third "Third" in Second
node a rounded in Third
node b rounded in Third
edge a -> b solid -/arrow
edge Third -> First solid -/arrow
`},
	{"choice, fork and join", `stateDiagram-v2
    state if_state <<choice>>
    state fork_state <<fork>>
    state join_state [[join]]
    [*] --> if_state
    if_state --> fork_state: n < 0
    fork_state --> A
    fork_state --> B
    A --> join_state
    B --> join_state
`, `dir TB
node if_state diamond role choice
node fork_state rectangle role bar
node join_state rectangle role bar
node start circle role start
node A rounded
node B rounded
edge start -> if_state solid -/arrow
edge if_state -> fork_state solid -/arrow "n < 0"
edge fork_state -> A solid -/arrow
edge fork_state -> B solid -/arrow
edge A -> join_state solid -/arrow
edge B -> join_state solid -/arrow
`},
	{"concurrent regions are child groups", `stateDiagram-v2
    [*] --> Active
    state Active {
        [*] --> NumLockOff
        NumLockOff --> NumLockOn : EvNumLockPressed
        --
        [*] --> CapsLockOff
        CapsLockOff --> CapsLockOn : EvCapsLockPressed
        --
        state Scroll {
            x --> y
        }
    }
`, `dir TB
group Active "Active"
group Active_1 "" in Active
group Active_2 "" in Active
group Active_3 "" in Active
group Scroll "Scroll" in Active_3
node start circle role start
node Active_1_start circle role start in Active_1
node NumLockOff rounded in Active_1
node NumLockOn rounded in Active_1
node Active_2_start circle role start in Active_2
node CapsLockOff rounded in Active_2
node CapsLockOn rounded in Active_2
node x rounded in Scroll
node y rounded in Scroll
edge start -> Active solid -/arrow
edge Active_1_start -> NumLockOff solid -/arrow
edge NumLockOff -> NumLockOn solid -/arrow "EvNumLockPressed"
edge Active_2_start -> CapsLockOff solid -/arrow
edge CapsLockOff -> CapsLockOn solid -/arrow "EvCapsLockPressed"
edge x -> y solid -/arrow
`},
	{"notes", `stateDiagram-v2
    State1: The state with a note
    note right of State1
        Important information! You can write
        notes.
    end note
    State1 --> State2
    note left of State2 : This is the note to the left.
`, `dir TB
node State1 rounded
  field "The state with a note"
node note rectangle "Important information! You can write\nnotes." role note
node State2 rounded
node note_ rectangle "This is the note to the left." role note
edge note -> State1 dashed -/-
edge State1 -> State2 solid -/arrow
edge note_ -> State2 dashed -/-
`},
	{"directions", `stateDiagram-v2
    direction LR
    [*] --> A
    state B {
        direction TB
        a --> b
    }
    A --> B
`, `dir LR
group B "B" dir TB
node start circle role start
node A rounded
node a rounded in B
node b rounded in B
edge start -> A solid -/arrow
edge a -> b solid -/arrow
edge A -> B solid -/arrow
`},
	{"styles: classDef, class, :::, style", `stateDiagram-v2
    classDef movement font-style:italic,fill:#0f0
    classDef badBadEvent fill:#f00,color:white,stroke-width:2px
    [*] --> Still:::movement
    Still --> Crash
    class Crash, Group badBadEvent
    state Group {
        a
    }
    style Still stroke:#00f
`, `dir TB
group Group "Group" {fill=#f00 text=white width=2}
node start circle role start
node Still rounded {fill=#0f0 stroke=#00f}
node Crash rounded {fill=#f00 text=white width=2}
node a rounded in Group
edge start -> Still solid -/arrow
edge Still -> Crash solid -/arrow
`},
	{"made ids keep clear of the text's", `stateDiagram-v2
    [*] --> start
    start --> note
    note --> [*]
    note left of note : a note for note
`, `dir TB
node start_ circle role start
node start rounded
node note rounded
node end doublecircle role end
node note_ rectangle "a note for note" role note
edge start_ -> start solid -/arrow
edge start -> note solid -/arrow
edge note -> end solid -/arrow
edge note_ -> note dashed -/-
`},
	{"dropped: hide, scale, click, comments, accessibility, front matter", `---
title: Simple sample
---
stateDiagram-v2
    accTitle: A title
    accDescr: A description
    hide empty description
    scale 350 width
    %% a comment
    A --> B ; B --> C
`, `dir TB
node A rounded
node B rounded
node C rounded
edge A -> B solid -/arrow
edge B -> C solid -/arrow
`},
}

func TestStateErrors(t *testing.T) {
	testErrors(t, []errorCase{
		{"a short arrow", "stateDiagram-v2\n    [*] -> A\n", `mermaid:2:9: unexpected "->"; expected "-->" after [*]`},
		{"an unclosed composite", "stateDiagram-v2\n    state X {\n      a --> b\n", `mermaid:2:11: "X" is not closed: expected } after its body`},
		{"a region outside a composite", "stateDiagram-v2\n    a\n    --\n", "mermaid:3:5: unexpected --; a -- line separates concurrent regions, inside a composite state { … }"},
		{"a note without end note", "stateDiagram-v2\n    note right of A\n    text\n", "mermaid:2:5: expected end note to close the note"},
		{"a note above", "stateDiagram-v2\n    note above A : x\n", `mermaid:2:10: unexpected "above"; expected "left of" or "right of" after note`},
		{"an unknown stereotype", "stateDiagram-v2\n    state X <<junction>>\n", `mermaid:2:15: unexpected "junction"; expected choice, fork or join`},
		{"a lone [*]", "stateDiagram-v2\n    [*]\n", `mermaid:2:8: unexpected end of line; expected "-->" after [*]`},
		{"a chain", "stateDiagram-v2\n    A --> B --> C\n", `mermaid:2:13: expected ";" or a new line after the transition (": label" names it), got "-->"`},
		{"a name without as", "stateDiagram-v2\n    state \"Long\" X\n", `mermaid:2:18: expected "as" and the state's id after its name, got "X"`},
		{"a composite twice", "stateDiagram-v2\n    state X {\n    }\n    state X {\n    }\n", `mermaid:4:11: composite state "X" is defined twice (first at line 2); write its body in one block`},
		{"no target", "stateDiagram-v2\n    A -->\n", "mermaid:2:10: unexpected end of line; expected a state id or [*]"},
		{"a stray brace", "stateDiagram-v2\n    }\n", "mermaid:2:5: unexpected }; there is no composite state to close"},
		{"two states side by side", "stateDiagram-v2\n    A B\n", `mermaid:2:7: unexpected "B"; expected "-->", ": description" or a new line`},
	})
}

func FuzzState(f *testing.F) {
	for _, c := range stateDiagrams {
		f.Add(c.src)
	}
	f.Fuzz(fuzzRead)
}
