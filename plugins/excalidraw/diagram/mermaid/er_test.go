package mermaid

import "testing"

func TestERDiagrams(t *testing.T) { testKind(t, ER, erDiagrams) }

var erDiagrams = []kindCase{
	{"relationships", `erDiagram
    CUSTOMER ||--o{ ORDER : places
    ORDER ||--|{ LINE-ITEM : contains
    CUSTOMER }|..|{ DELIVERY-ADDRESS : uses
`, `dir TB
node CUSTOMER rectangle "CUSTOMER"
node ORDER rectangle "ORDER"
node LINE-ITEM rectangle "LINE-ITEM"
node DELIVERY-ADDRESS rectangle "DELIVERY-ADDRESS"
edge CUSTOMER -> ORDER solid crowfoot_one/crowfoot_many "places"
edge ORDER -> LINE-ITEM solid crowfoot_one/crowfoot_one_or_many "contains"
edge CUSTOMER -> DELIVERY-ADDRESS dashed crowfoot_one_or_many/crowfoot_one_or_many "uses"
`},
	{"every mark, either way round", `erDiagram
    A |o--o| B : zero or one
    C ||--|| D : exactly one
    E }o--o{ F : zero or more
    G }|--|{ H : one or more
    I o|..|o J : written backwards
`, `dir TB
node A rectangle "A"
node B rectangle "B"
node C rectangle "C"
node D rectangle "D"
node E rectangle "E"
node F rectangle "F"
node G rectangle "G"
node H rectangle "H"
node I rectangle "I"
node J rectangle "J"
edge A -> B solid crowfoot_one/crowfoot_one "zero or one"
edge C -> D solid crowfoot_one/crowfoot_one "exactly one"
edge E -> F solid crowfoot_many/crowfoot_many "zero or more"
edge G -> H solid crowfoot_one_or_many/crowfoot_one_or_many "one or more"
edge I -> J dashed crowfoot_one/crowfoot_one "written backwards"
`},
	{"cardinalities and identification in words", `erDiagram
    CAR 1 to zero or more NAMED-DRIVER : allows
    PERSON many(0) optionally to 0+ NAMED-DRIVER : is
    MAKER only one to one or many CAR : makes
    A one or zero optionally to 1+ B : x
    C zero or many to many(1) D : y
    E Zero Or One to One Or More F : any case
`, `dir TB
node CAR rectangle "CAR"
node NAMED-DRIVER rectangle "NAMED-DRIVER"
node PERSON rectangle "PERSON"
node MAKER rectangle "MAKER"
node A rectangle "A"
node B rectangle "B"
node C rectangle "C"
node D rectangle "D"
node E rectangle "E"
node F rectangle "F"
edge CAR -> NAMED-DRIVER solid crowfoot_one/crowfoot_many "allows"
edge PERSON -> NAMED-DRIVER dashed crowfoot_many/crowfoot_many "is"
edge MAKER -> CAR solid crowfoot_one/crowfoot_one_or_many "makes"
edge A -> B dashed crowfoot_one/crowfoot_one_or_many "x"
edge C -> D solid crowfoot_many/crowfoot_one_or_many "y"
edge E -> F solid crowfoot_one/crowfoot_one_or_many "any case"
`},
	{"attributes", `erDiagram
    CAR {
        string registrationNumber
        string make
        string[] parts
        varchar(99) model
    }
`, `dir TB
node CAR rectangle "CAR"
  field "string registrationNumber"
  field "string make"
  field "string[] parts"
  field "varchar(99) model"
`},
	{"keys and comments", `erDiagram
    PERSON {
        string driversLicense PK "The license #"
        string firstName "Only 99 characters are allowed"
        string phone UK
    }
    NAMED-DRIVER {
        string carRegistrationNumber PK, FK
        string driverLicence PK,FK "both"
    }
`, `dir TB
node PERSON rectangle "PERSON"
  field "string driversLicense PK \"The license #\""
  field "string firstName \"Only 99 characters are allowed\""
  field "string phone UK"
node NAMED-DRIVER rectangle "NAMED-DRIVER"
  field "string carRegistrationNumber PK, FK"
  field "string driverLicence PK, FK \"both\""
`},
	{"attributes without a type, and empty blocks", `erDiagram
    T {
        id PK
        name
    }
    U { }
    T { string more }
`, `dir TB
node T rectangle "T"
  field "id PK"
  field "name"
  field "string more"
node U rectangle "U"
`},
	{"aliases", `erDiagram
    p[Person] {
        string firstName
    }
    a["Customer Account"] ||--o{ p : owns
`, `dir TB
node p rectangle "Person"
  field "string firstName"
node a rectangle "Customer Account"
edge a -> p solid crowfoot_one/crowfoot_many "owns"
`},
	{"quoted names and labels", `erDiagram
    "DELIVERY ADDRESS" ||--|| CUSTOMER : "has one; only one"
    CUSTOMER ||--o{ ORDER : "#quot;places#quot;"
`, `dir TB
node DELIVERY ADDRESS rectangle "DELIVERY ADDRESS"
node CUSTOMER rectangle "CUSTOMER"
node ORDER rectangle "ORDER"
edge DELIVERY ADDRESS -> CUSTOMER solid crowfoot_one/crowfoot_one "has one; only one"
edge CUSTOMER -> ORDER solid crowfoot_one/crowfoot_many "\"places\""
`},
	{"entities alone and unicode names", `erDiagram
    CUSTOMER
    Größe ||--o{ 注文 : hat
`, `dir TB
node CUSTOMER rectangle "CUSTOMER"
node Größe rectangle "Größe"
node 注文 rectangle "注文"
edge Größe -> 注文 solid crowfoot_one/crowfoot_many "hat"
`},
	{"direction", `erDiagram
    direction LR
    A ||--o{ B : has
`, `dir LR
node A rectangle "A"
node B rectangle "B"
edge A -> B solid crowfoot_one/crowfoot_many "has"
`},
	{"styles: classDef, class, :::, style", `erDiagram
    CAR:::hot ||--o{ DRIVER : allows
    PERSON
    classDef hot fill:#f96
    classDef cold stroke:#00f
    class PERSON,DRIVER cold
    style CAR stroke-width:3px
`, `dir TB
node CAR rectangle "CAR" {fill=#f96 width=3}
node DRIVER rectangle "DRIVER" {stroke=#00f}
node PERSON rectangle "PERSON" {stroke=#00f}
edge CAR -> DRIVER solid crowfoot_one/crowfoot_many "allows"
`},
	{"dropped: comments, accessibility, front matter", `---
title: Order example
config:
  er:
    layoutDirection: LR
---
erDiagram
    accTitle: Orders
    accDescr {
        Customers and orders
    }
    %% a comment
    CUSTOMER ||--o{ ORDER : places
    ORDER {
        %% a comment in a block
        int id PK
    }
`, `dir TB
node CUSTOMER rectangle "CUSTOMER"
node ORDER rectangle "ORDER"
  field "int id PK"
edge CUSTOMER -> ORDER solid crowfoot_one/crowfoot_many "places"
`},
	{"entities named like keywords", `erDiagram
    style ||--o{ class : has
`, `dir TB
node style rectangle "style"
node class rectangle "class"
edge style -> class solid crowfoot_one/crowfoot_many "has"
`},
}

func TestERErrors(t *testing.T) {
	testErrors(t, []errorCase{
		{"a control character in a quoted name", "erDiagram\n\"\x00\"", "mermaid:2:1: an entity name may not hold control characters"},
		{"no label", "erDiagram\n    A ||--o{ B\n", `mermaid:2:15: expected ":" and the relationship's label, got the end of the line`},
		{"no second cardinality", "erDiagram\n    A ||-- B : x\n", `mermaid:2:12: unexpected "B"; expected a cardinality (||, |o, o|, }o, o{, }|, |{ or words such as zero or more)`},
		{"an unknown mark", "erDiagram\n    A |x--o{ B : x\n", `mermaid:2:7: unexpected "|"; expected "{" and attributes, a relationship such as ||--o{, or a new line`},
		{"an unknown key", "erDiagram\n    A {\n      string name PQ\n    }\n", `mermaid:3:19: unexpected "PQ"; expected a key (PK, FK or UK), a "comment" or a new line`},
		{"an unclosed block", "erDiagram\n    A {\n      string name\n", "mermaid:2:7: expected } to close the attributes of A"},
		{"an unclosed alias", "erDiagram\n    A[Alias : x\n", `mermaid:2:6: expected "]" to close the alias on this line`},
		{"an unknown line", "erDiagram\n    A ||~~o{ B : x\n", `mermaid:2:9: unexpected "~~"; expected "--" (identifying), ".." (non-identifying), "to" or "optionally to"`},
		{"text after a comment", "erDiagram\n    A { string name \"x\" y }\n", `mermaid:2:25: unexpected "y"; expected a key (PK, FK or UK), a "comment" or a new line`},
		{"a bad direction", "erDiagram\n    direction up\n", `mermaid:2:15: expected a direction (TB, TD, BT, LR or RL), got "up"`},
		{"a style for nothing", "erDiagram\n    A\n    style Z fill:#f00\n", "mermaid:3:11: style Z: nothing is named Z"},
		{"an unclosed quote", "erDiagram\n    \"A ||--o{ B : x\n", `mermaid:2:5: expected " to close this quoted text`},
		{"text after the label", "erDiagram\n    A ||--o{ B : \"x\" y\n", `mermaid:2:22: expected ";" or a new line after the relationship's label, got "y"`},
	})
}

func FuzzER(f *testing.F) {
	for _, c := range erDiagrams {
		f.Add(c.src)
	}
	f.Fuzz(fuzzRead)
}
