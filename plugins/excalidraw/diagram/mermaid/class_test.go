package mermaid

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// kindCase is a diagram of a kind and the graph it parses into, as
// summary writes it.
type kindCase struct{ name, src, want string }

// errorCase is a mistake and the error it is.
type errorCase struct{ name, src, want string }

// testKind parses each case through Read, checks its kind and the graph
// (which must pass Check) against the case's summary.
func testKind(t *testing.T, kind Kind, cases []kindCase) {
	t.Helper()
	if len(cases) < 12 {
		t.Fatalf("%d cases, want at least 12", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := Read(c.src)
			if err != nil {
				t.Fatal(err)
			}
			if d.Kind != kind {
				t.Fatalf("kind %s, want %s", d.Kind, kind)
			}
			if err := d.Graph.Check(); err != nil {
				t.Fatalf("Check: %v", err)
			}
			if got := summary(d.Graph); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

// testErrors reads each case through Read and wants its *Error.
func testErrors(t *testing.T, cases []errorCase) {
	t.Helper()
	if len(cases) < 8 {
		t.Fatalf("%d error cases, want at least 8", len(cases))
	}
	for _, c := range cases {
		_, err := Read(c.src)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || fmt.Sprintf("mermaid:%d:%d: %s", e.Line, e.Column, e.Message) != c.want {
			t.Errorf("%s: %#v is not the *Error it prints", c.name, err)
		}
	}
}

// fuzzRead: Read never panics; what it takes passes Check, and what it
// refuses is an *Error at a line and column of the text.
func fuzzRead(t *testing.T, src string) {
	d, err := Read(src)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || e.Line < 1 || e.Column < 1 || e.Line > strings.Count(src, "\n")+1 {
			t.Fatalf("%q: error %#v", src, err)
		}
		return
	}
	if d.Graph == nil {
		return
	}
	if err := d.Graph.Check(); err != nil {
		t.Fatalf("%q: accepted, but Check: %v", src, err)
	}
}

// Read sends each kind to its parser, after front matter and comments.
func TestReadKinds(t *testing.T) {
	for src, want := range map[string]Kind{
		"flowchart LR\n a --> b":                         Flowchart,
		"%% a comment\nclassDiagram\n A <|-- B":          Class,
		"classDiagram-v2\n A <|-- B":                     Class,
		"---\ntitle: t\n---\nstateDiagram\n [*] --> A":   State,
		"%%{init: {}}%%\nstateDiagram-v2\n A --> B":      State,
		"erDiagram\n A ||--o{ B : has":                   ER,
		"---\nconfig: {}\n---\n%% x\nerDiagram\n A {\n}": ER,
	} {
		d, err := Read(src)
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if d.Kind != want || d.Graph == nil || len(d.Graph.Nodes) < 1 {
			t.Errorf("%q: kind %s, graph %+v, want %s", src, d.Kind, d.Graph, want)
		}
	}
}

func TestClassDiagrams(t *testing.T) { testKind(t, Class, classDiagrams) }

var classDiagrams = []kindCase{
	{"inheritance points at the parent", `classDiagram
    Animal <|-- Duck
    Animal <|-- Fish
`, `dir TB
node Animal rectangle "Animal"
node Duck rectangle "Duck"
node Fish rectangle "Fish"
edge Duck -> Animal solid -/triangle_outline
edge Fish -> Animal solid -/triangle_outline
`},
	{"members from lines and bodies, in order", `classDiagram
    BankAccount : +String owner
    BankAccount : +BigDecimal balance
    class BankAccount {
        +deposit(amount) bool
        -withdrawal(amount)$ int
        %% a comment
    }
    BankAccount: #audit()*
`, `dir TB
node BankAccount rectangle "BankAccount"
  field "+String owner"
  field "+BigDecimal balance"
  field "+deposit(amount) bool"
  field "-withdrawal(amount)$ int"
  field "#audit()*"
`},
	{"every relation", `classDiagram
    classA --|> classB : Inheritance
    classC --* classD : Composition
    classE --o classF : Aggregation
    classG --> classH : Association
    classI -- classJ : Link(Solid)
    classK ..> classL : Dependency
    classM ..|> classN : Realization
    classO .. classP : Link(Dashed)
`, `dir TB
node classA rectangle "classA"
node classB rectangle "classB"
node classC rectangle "classC"
node classD rectangle "classD"
node classE rectangle "classE"
node classF rectangle "classF"
node classG rectangle "classG"
node classH rectangle "classH"
node classI rectangle "classI"
node classJ rectangle "classJ"
node classK rectangle "classK"
node classL rectangle "classL"
node classM rectangle "classM"
node classN rectangle "classN"
node classO rectangle "classO"
node classP rectangle "classP"
edge classA -> classB solid -/triangle_outline "Inheritance"
edge classC -> classD solid -/diamond "Composition"
edge classE -> classF solid -/diamond_outline "Aggregation"
edge classG -> classH solid -/arrow "Association"
edge classI -> classJ solid -/- "Link(Solid)"
edge classK -> classL dashed -/arrow "Dependency"
edge classM -> classN dashed -/triangle_outline "Realization"
edge classO -> classP dashed -/- "Link(Dashed)"
`},
	{"heads on the left turn the edge round", `classDiagram
    Car *-- Wheel
    Pond o-- Duck
    Client <.. Server
    Shape <|.. Circle
    Api ()-- Impl
`, `dir TB
node Car rectangle "Car"
node Wheel rectangle "Wheel"
node Pond rectangle "Pond"
node Duck rectangle "Duck"
node Client rectangle "Client"
node Server rectangle "Server"
node Shape rectangle "Shape"
node Circle rectangle "Circle"
node Api rectangle "Api"
node Impl rectangle "Impl"
edge Wheel -> Car solid -/diamond
edge Duck -> Pond solid -/diamond_outline
edge Server -> Client dashed -/arrow
edge Circle -> Shape dashed -/triangle_outline
edge Impl -> Api solid -/circle_outline
`},
	{"two-way relations keep their order", `classDiagram
    Animal <|--|> Zebra
    A *--o B
    C <--> D
`, `dir TB
node Animal rectangle "Animal"
node Zebra rectangle "Zebra"
node A rectangle "A"
node B rectangle "B"
node C rectangle "C"
node D rectangle "D"
edge Animal -> Zebra solid triangle_outline/triangle_outline
edge A -> B solid diamond/diamond_outline
edge C -> D solid arrow/arrow
`},
	{"multiplicities by their ends", `classDiagram
    Customer "1" --> "*" Ticket
    Student "1" --> "1..*" Course
    Galaxy --> "many" Star : Contains
    Company "1" *-- "many" Department : has
`, `dir TB
node Customer rectangle "Customer"
node Ticket rectangle "Ticket"
node Student rectangle "Student"
node Course rectangle "Course"
node Galaxy rectangle "Galaxy"
node Star rectangle "Star"
node Company rectangle "Company"
node Department rectangle "Department"
edge Customer -> Ticket solid -/arrow ends "1"/"*"
edge Student -> Course solid -/arrow ends "1"/"1..*"
edge Galaxy -> Star solid -/arrow "Contains" ends ""/"many"
edge Department -> Company solid -/diamond "has" ends "many"/"1"
`},
	{"generics and annotations in the label", `classDiagram
    class Square~Shape~{
        int id
        List~int~ position
        getPoints() List~int~
    }
    Square : +getMatrix() List~List~int~~
    <<interface>> Shape
    class Service {
        <<service>>
        +run()
    }
    Shape <|.. Square~Shape~
`, `dir TB
node Square rectangle "Square<Shape>"
  field "int id"
  field "List<int> position"
  field "getPoints() List<int>"
  field "+getMatrix() List<List<int>>"
node Shape rectangle "«interface»\nShape"
node Service rectangle "«service»\nService"
  field "+run()"
edge Square -> Shape dashed -/triangle_outline
`},
	{"labels and backtick names", "classDiagram\n    class Animal[\"Animal with a label\"]\n    class `Animal Class!`\n    Animal --> `Animal Class!`\n", `dir TB
node Animal rectangle "Animal with a label"
node Animal Class! rectangle "Animal Class!"
edge Animal -> Animal Class! solid -/arrow
`},
	{"namespaces are groups", `classDiagram
    namespace BaseShapes {
        class Triangle
        class Rectangle {
            double width
        }
    }
    Triangle --> Rectangle
    Circle --> Triangle
`, `dir TB
group BaseShapes "BaseShapes"
node Triangle rectangle "Triangle" in BaseShapes
node Rectangle rectangle "Rectangle" in BaseShapes
  field "double width"
node Circle rectangle "Circle"
edge Triangle -> Rectangle solid -/arrow
edge Circle -> Triangle solid -/arrow
`},
	{"direction", `classDiagram
    direction RL
    Student --> IdCard
`, `dir RL
node Student rectangle "Student"
node IdCard rectangle "IdCard"
edge Student -> IdCard solid -/arrow
`},
	{"notes, alone and for a class", `classDiagram
    note "From Duck till Zebra"
    Animal <|-- Duck
    note for Duck "can fly<br>can swim"
`, `dir TB
node note rectangle "From Duck till Zebra" role note
node Animal rectangle "Animal"
node Duck rectangle "Duck"
node note_ rectangle "can fly\ncan swim" role note
edge Duck -> Animal solid -/triangle_outline
edge note_ -> Duck dashed -/-
`},
	{"styles: classDef, cssClass, :::, style", `classDiagram
    class Animal:::hot
    Zebra:::cold --> Animal
    Bird
    cssClass "Bird,Zebra" hot
    classDef hot fill:#f96,stroke:#333
    classDef cold stroke-dasharray:5 5
    classDef default color:#111
    style Bird stroke-width:4px
`, `dir TB
node Animal rectangle "Animal" {fill=#f96 stroke=#333 text=#111}
node Zebra rectangle "Zebra" {fill=#f96 stroke=#333 text=#111 dashed}
node Bird rectangle "Bird" {fill=#f96 stroke=#333 text=#111 width=4}
edge Zebra -> Animal solid -/arrow
`},
	{"interactions, accessibility, comments and front matter dropped", `---
title: Animals
---
%%{init: {"theme": "dark"}}%%
classDiagram-v2
    accTitle: Animals
    accDescr {
        Some animals
    }
    %% a comment
    Animal <|-- Duck ; Duck : +swim()
    click Duck href "https://example.com" "A duck"
    click Animal call callback()
    link Duck "https://example.com"
    callback Animal "callbackFunction" "A tooltip"
`, `dir TB
node Animal rectangle "Animal"
node Duck rectangle "Duck"
  field "+swim()"
edge Duck -> Animal solid -/triangle_outline
`},
	{"classes named like keywords", `classDiagram
    note --> link
    link : +url
`, `dir TB
node note rectangle "note"
node link rectangle "link"
  field "+url"
edge note -> link solid -/arrow
`},
}

func TestClassErrors(t *testing.T) {
	testErrors(t, []errorCase{
		{"a control character in a backticked name", "classDiagram\n    class `a\x01b`\n", "mermaid:2:11: a class name may not hold control characters"},
		{"an unknown relation", "classDiagram\n    A <|-> B\n", `mermaid:2:7: unexpected "<|->"; expected a relation (<|--, *--, o--, -->, --, ..>, ..|>, ..), ": member" or a new line`},
		{"two names side by side", "classDiagram\n    A \"1\" B\n", `mermaid:2:11: unexpected "B"; expected a relation (<|--, *--, o--, -->, --, ..>, ..|>, ..), ": member" or a new line`},
		{"an unclosed body", "classDiagram\n    class A {\n      +x\n", "mermaid:2:13: expected } to close the body of class A"},
		{"text after a relation", "classDiagram\n    A --> B extra\n", `mermaid:2:13: expected ";" or a new line after the relation (": label" names it), got "extra"`},
		{"an unclosed namespace", "classDiagram\n    namespace N {\n      class A\n", `mermaid:2:5: "N" is not closed: expected } after its body`},
		{"a stray brace", "classDiagram\n    A --> B\n    }\n", "mermaid:3:5: unexpected }; there is no namespace to close"},
		{"a note without text", "classDiagram\n    note for A\n", "mermaid:2:15: expected the note's text in quotes, got the end of the line"},
		{"an unclosed label", "classDiagram\n    class A[\"x\"\n", `mermaid:2:16: expected "]" after the label opened at column 12, got the end of the line`},
		{"an empty member", "classDiagram\n    A :\n    B\n", "mermaid:2:8: expected a member after A :, got the end of the line"},
		{"an unclosed annotation", "classDiagram\n    <<interface Shape\n", "mermaid:2:5: expected >> to close the annotation on this line"},
		{"a style for nothing", "classDiagram\n    A\n    style Q fill:#f00\n", "mermaid:3:11: style Q: nothing is named Q"},
		{"a bad direction", "classDiagram\n    direction sideways\n", `mermaid:2:15: expected a direction (TB, TD, BT, LR or RL), got "sideways"`},
		{"a namespace twice", "classDiagram\n    namespace N {\n    }\n    namespace N {\n    }\n", `mermaid:4:5: namespace "N" is defined twice (first at line 2); write its body in one block`},
		{"an unclosed generic", "classDiagram\n    A~T --> B\n", "mermaid:2:6: expected ~ to close the generic type of A"},
		{"a direction in the header", "classDiagram LR\n    A\n", "mermaid:1:14: expected a new line after the header; write the direction on a line of its own: direction LR"},
	})
}

func FuzzClass(f *testing.F) {
	for _, c := range classDiagrams {
		f.Add(c.src)
	}
	f.Add("classDiagram\n A~T~ \"1\" <|--|> \"2\" `B c` : x\n namespace N {\n class C~X~[\"c\"]:::k {\n <<i>>\n }\n }")
	f.Fuzz(fuzzRead)
}
