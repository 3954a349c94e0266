package mermaid

// flowcharts are the flowcharts written here, covering the syntax: each
// source, and the graph it parses into as summary writes it.
var flowcharts = []struct{ name, src, want string }{
	{"graph TD, the shortest", `graph TD
    A --> B
`, `dir TB
node A rectangle
node B rectangle
edge A -> B solid -/arrow
`},
	{"flowchart LR", `flowchart LR
    Start --> Stop
`, `dir LR
node Start rectangle
node Stop rectangle
edge Start -> Stop solid -/arrow
`},
	{"BT", `flowchart BT
    a --> b
`, `dir BT
node a rectangle
node b rectangle
edge a -> b solid -/arrow
`},
	{"RL", `graph RL
    a --> b
`, `dir RL
node a rectangle
node b rectangle
edge a -> b solid -/arrow
`},
	{"TB and TD are one", `flowchart TD
    a --> b
`, `dir TB
node a rectangle
node b rectangle
edge a -> b solid -/arrow
`},
	{"no direction is top to bottom", `flowchart
    a --> b
`, `dir TB
node a rectangle
node b rectangle
edge a -> b solid -/arrow
`},
	{"Mermaid's old arrows for directions", `graph >
    a --> b
`, `dir LR
node a rectangle
node b rectangle
edge a -> b solid -/arrow
`},
	{"flowchart-elk", `flowchart-elk LR
    a --> b
`, `dir LR
node a rectangle
node b rectangle
edge a -> b solid -/arrow
`},
	{"every classic shape", `flowchart LR
    rect[Rectangle]
    round(Rounded)
    stad([Stadium])
    sub[[Subroutine]]
    db[(Database)]
    circ((Circle))
    dbl(((Double)))
    odd>Asymmetric]
    dec{Decision}
    hex{{Hexagon}}
    par[/Parallelogram/]
    para[\Parallelogram alt\]
    trap[/Trapezoid\]
    trapa[\Trapezoid alt/]
    ell(-Ellipse-)
    bare
`, `dir LR
node rect rectangle "Rectangle"
node round rounded "Rounded"
node stad stadium "Stadium"
node sub subroutine "Subroutine"
node db cylinder "Database"
node circ circle "Circle"
node dbl doublecircle "Double"
node odd asymmetric "Asymmetric"
node dec diamond "Decision"
node hex hexagon "Hexagon"
node par parallelogram "Parallelogram"
node para parallelogram-alt "Parallelogram alt"
node trap trapezoid "Trapezoid"
node trapa trapezoid-alt "Trapezoid alt"
node ell ellipse "Ellipse"
node bare rectangle
`},
	{"quoted labels keep brackets and parentheses", `flowchart LR
    id1["This is the (text) in the box"] --> id2{"Is [it] {ok}?"}
    id3(("a \ b")) --> id4>"quoted ] odd"]
`, `dir LR
node id1 rectangle "This is the (text) in the box"
node id2 diamond "Is [it] {ok}?"
node id3 circle "a \\ b"
node id4 asymmetric "quoted ] odd"
edge id1 -> id2 solid -/arrow
edge id3 -> id4 solid -/arrow
`},
	{"unicode labels and ids", `flowchart LR
    id["This ❤ Unicode"] --> 開始[終了] --> Größe
`, `dir LR
node id rectangle "This ❤ Unicode"
node 開始 rectangle "終了"
node Größe rectangle
edge id -> 開始 solid -/arrow
edge 開始 -> Größe solid -/arrow
`},
	{"markdown strings keep their text", "flowchart LR\n    markdown[\"`This **is** _Markdown_`\"]\n    newLines[\"`Line1\n    Line 2\n    Line 3`\"]\n    markdown --> newLines\n", `dir LR
node markdown rectangle "This **is** _Markdown_"
node newLines rectangle "Line1\nLine 2\nLine 3"
edge markdown -> newLines solid -/arrow
`},
	{"entity codes", `flowchart LR
    A["A double quote:#quot;"] --> B["A dec char:#9829;"]
    C["#lt;tag#gt; &amp; #35; #x2665; #unknown; # alone"]
`, `dir LR
node A rectangle "A double quote:\""
node B rectangle "A dec char:♥"
node C rectangle "<tag> & # ♥ #unknown; # alone"
edge A -> B solid -/arrow
`},
	{"line breaks", `flowchart TD
    a[one<br>two<br/>three<BR />four] -->|five<br>six| b["seven\neight"]
    c[<b>bold</b> and <i>italic</i>]
`, `dir TB
node a rectangle "one\ntwo\nthree\nfour"
node b rectangle "seven\neight"
node c rectangle "bold and italic"
edge a -> b solid -/arrow "five\nsix"
`},
	{"every line", `flowchart LR
    a --> b
    c --- d
    e -.-> f
    g -.- h
    i ==> j
    k === l
    m ~~~ n
`, `dir LR
node a rectangle
node b rectangle
node c rectangle
node d rectangle
node e rectangle
node f rectangle
node g rectangle
node h rectangle
node i rectangle
node j rectangle
node k rectangle
node l rectangle
node m rectangle
node n rectangle
edge a -> b solid -/arrow
edge c -> d solid -/-
edge e -> f dashed -/arrow
edge g -> h dashed -/-
edge i -> j thick -/arrow
edge k -> l thick -/-
edge m -> n invisible -/-
`},
	{"every head", `flowchart LR
    a --o b
    c --x d
    e o--o f
    g <--> h
    i x--x j
    k <-.-> l
    m <==> n
    o ==x p
    q -.-o r
`, `dir LR
node a rectangle
node b rectangle
node c rectangle
node d rectangle
node e rectangle
node f rectangle
node g rectangle
node h rectangle
node i rectangle
node j rectangle
node k rectangle
node l rectangle
node m rectangle
node n rectangle
node o rectangle
node p rectangle
node q rectangle
node r rectangle
edge a -> b solid -/circle
edge c -> d solid -/cross
edge e -> f solid circle/circle
edge g -> h solid arrow/arrow
edge i -> j solid cross/cross
edge k -> l dashed arrow/arrow
edge m -> n thick arrow/arrow
edge o -> p thick -/cross
edge q -> r dashed -/circle
`},
	{"longer links", `flowchart TD
    a ----> b
    c -...-> d
    e ====> f
    g ------ h
    i ~~~~~ j
    k -..- l
`, `dir TB
node a rectangle
node b rectangle
node c rectangle
node d rectangle
node e rectangle
node f rectangle
node g rectangle
node h rectangle
node i rectangle
node j rectangle
node k rectangle
node l rectangle
edge a -> b solid -/arrow
edge c -> d dashed -/arrow
edge e -> f thick -/arrow
edge g -> h solid -/-
edge i -> j invisible -/-
edge k -> l dashed -/-
`},
	{"labels on links", `flowchart LR
    a -- text --> b
    c -->|text| d
    e -. text .-> f
    g == text ==> h
    i -- open --- j
    k ---|pipe| l
    m -->|"quoted | pipe"| n
    o -- "quoted --> arrow" --> p
    q -- longer ----> r
    s ~~~|hidden| t
`, `dir LR
node a rectangle
node b rectangle
node c rectangle
node d rectangle
node e rectangle
node f rectangle
node g rectangle
node h rectangle
node i rectangle
node j rectangle
node k rectangle
node l rectangle
node m rectangle
node n rectangle
node o rectangle
node p rectangle
node q rectangle
node r rectangle
node s rectangle
node t rectangle
edge a -> b solid -/arrow "text"
edge c -> d solid -/arrow "text"
edge e -> f dashed -/arrow "text"
edge g -> h thick -/arrow "text"
edge i -> j solid -/- "open"
edge k -> l solid -/- "pipe"
edge m -> n solid -/arrow "quoted | pipe"
edge o -> p solid -/arrow "quoted --> arrow"
edge q -> r solid -/arrow "longer"
edge s -> t invisible -/- "hidden"
`},
	{"labels with no spaces", `flowchart LR
    a--text-->b
    c-->|text|d
    e-.text.->f
    g==text==>h
`, `dir LR
node a rectangle
node b rectangle
node c rectangle
node d rectangle
node e rectangle
node f rectangle
node g rectangle
node h rectangle
edge a -> b solid -/arrow "text"
edge c -> d solid -/arrow "text"
edge e -> f dashed -/arrow "text"
edge g -> h thick -/arrow "text"
`},
	{"chains", `flowchart LR
    A --> B --> C -.-> D
    A -- one --> E -- two --> F
`, `dir LR
node A rectangle
node B rectangle
node C rectangle
node D rectangle
node E rectangle
node F rectangle
edge A -> B solid -/arrow
edge B -> C solid -/arrow
edge C -> D dashed -/arrow
edge A -> E solid -/arrow "one"
edge E -> F solid -/arrow "two"
`},
	{"& on both sides", `flowchart TB
    a & b --> c & d
`, `dir TB
node a rectangle
node b rectangle
node c rectangle
node d rectangle
edge a -> c solid -/arrow
edge a -> d solid -/arrow
edge b -> c solid -/arrow
edge b -> d solid -/arrow
`},
	{"& inside a chain", `flowchart TB
    A --> B & C --> D
`, `dir TB
node A rectangle
node B rectangle
node C rectangle
node D rectangle
edge A -> B solid -/arrow
edge A -> C solid -/arrow
edge B -> D solid -/arrow
edge C -> D solid -/arrow
`},
	{"Mermaid's subgraph example", `flowchart TB
    c1-->a2
    subgraph one
    a1-->a2
    end
    subgraph two
    b1-->b2
    end
    subgraph three
    c1-->c2
    end
`, `dir TB
group one "one"
group two "two"
group three "three"
node c1 rectangle in three
node a2 rectangle in one
node a1 rectangle in one
node b1 rectangle in two
node b2 rectangle in two
node c2 rectangle in three
edge c1 -> a2 solid -/arrow
edge a1 -> a2 solid -/arrow
edge b1 -> b2 solid -/arrow
edge c1 -> c2 solid -/arrow
`},
	{"subgraph ids and titles", `flowchart TB
    subgraph ide1 [one]
        a1 --> a2
    end
    subgraph ide2["two (2)"]
        b1
    end
    subgraph "three, quoted"
        c1
    end
    subgraph Four words for a title
        d1
    end
    subgraph five
        e1
    end
`, `dir TB
group ide1 "one"
group ide2 "two (2)"
group subGraph2 "three, quoted"
group subGraph3 "Four words for a title"
group five "five"
node a1 rectangle in ide1
node a2 rectangle in ide1
node b1 rectangle in ide2
node c1 rectangle in subGraph2
node d1 rectangle in subGraph3
node e1 rectangle in five
edge a1 -> a2 solid -/arrow
`},
	{"edges to and from subgraphs", `flowchart TB
    c1-->a2
    subgraph one
    a1-->a2
    end
    subgraph two
    b1-->b2
    end
    subgraph three
    c1-->c2
    end
    one --> two
    three --> two
    two --> c2
`, `dir TB
group one "one"
group two "two"
group three "three"
node c1 rectangle in three
node a2 rectangle in one
node a1 rectangle in one
node b1 rectangle in two
node b2 rectangle in two
node c2 rectangle in three
edge c1 -> a2 solid -/arrow
edge a1 -> a2 solid -/arrow
edge b1 -> b2 solid -/arrow
edge c1 -> c2 solid -/arrow
edge one -> two solid -/arrow
edge three -> two solid -/arrow
edge two -> c2 solid -/arrow
`},
	{"nested subgraphs with their own direction", `flowchart LR
  subgraph TOP
    direction TB
    subgraph B1
        direction RL
        i1 -->f1
    end
    subgraph B2
        direction BT
        i2 -->f2
    end
  end
  A --> TOP --> B
  B1 --> B2
`, `dir LR
group TOP "TOP" dir TB
group B1 "B1" in TOP dir RL
group B2 "B2" in TOP dir BT
node i1 rectangle in B1
node f1 rectangle in B1
node i2 rectangle in B2
node f2 rectangle in B2
node A rectangle
node B rectangle
edge i1 -> f1 solid -/arrow
edge i2 -> f2 solid -/arrow
edge A -> TOP solid -/arrow
edge TOP -> B solid -/arrow
edge B1 -> B2 solid -/arrow
`},
	{"a node in two subgraphs stays in the first to close", `flowchart LR
    subgraph one
        a --> shared
    end
    subgraph two
        shared --> b
    end
`, `dir LR
group one "one"
group two "two"
node a rectangle in one
node shared rectangle in one
node b rectangle in two
edge a -> shared solid -/arrow
edge shared -> b solid -/arrow
`},
	{"a node named first outside, then in a subgraph, is in it", `flowchart LR
    x --> y
    subgraph s
        y
    end
`, `dir LR
group s "s"
node x rectangle
node y rectangle in s
edge x -> y solid -/arrow
`},
	{"an inner subgraph closes first and keeps its nodes", `flowchart LR
    subgraph outer
        subgraph inner
            n1
        end
        n1 --> n2
    end
`, `dir LR
group outer "outer"
group inner "inner" in outer
node n1 rectangle in inner
node n2 rectangle in outer
edge n1 -> n2 solid -/arrow
`},
	{"an empty subgraph", `flowchart LR
    subgraph empty [Nothing here]
    end
    a --> empty
`, `dir LR
group empty "Nothing here"
node a rectangle
edge a -> empty solid -/arrow
`},
	{"classDef, class and :::", `flowchart LR
    A:::someclass --> B
    C
    classDef someclass fill:#f96
    classDef other stroke:#333,stroke-width:4px,color:#fff,stroke-dasharray: 5 5
    class B,C other
    class D other
`, `dir LR
node A rectangle {fill=#f96}
node B rectangle {stroke=#333 text=#fff width=4 dashed}
node C rectangle {stroke=#333 text=#fff width=4 dashed}
edge A -> B solid -/arrow
`},
	{"the brief's classDef", `flowchart LR
    a --> b
    classDef name fill:#f9f,stroke:#333,stroke-width:4px,color:#fff,stroke-dasharray: 5 5
    class a,b name
`, `dir LR
node a rectangle {fill=#f9f stroke=#333 text=#fff width=4 dashed}
node b rectangle {fill=#f9f stroke=#333 text=#fff width=4 dashed}
edge a -> b solid -/arrow
`},
	{"classDef default", `flowchart LR
    a --> b:::hot
    classDef default fill:#eee,stroke:#999
    classDef hot fill:#f00
`, `dir LR
node a rectangle {fill=#eee stroke=#999}
node b rectangle {fill=#f00 stroke=#999}
edge a -> b solid -/arrow
`},
	{"style on nodes and subgraphs", `flowchart LR
    id1(Start)-->id2(Stop)
    style id1 fill:#f9f,stroke:#333,stroke-width:4px
    style id2 fill:#bbf,stroke:#f66,stroke-width:2px,color:#fff,stroke-dasharray: 5 5
    subgraph g1
        x
    end
    style g1 fill:none,stroke:rgb(10,20,30)
    class g1 warm
    classDef warm color:#a00
`, `dir LR
group g1 "g1" {fill=transparent stroke=rgb(10,20,30) text=#a00}
node id1 rounded "Start" {fill=#f9f stroke=#333 width=4}
node id2 rounded "Stop" {fill=#bbf stroke=#f66 text=#fff width=2 dashed}
node x rectangle in g1
edge id1 -> id2 solid -/arrow
`},
	{"style properties the model has no place for are dropped", `flowchart LR
    a
    style a font-size:12pt,rx:5,fill:#fff !important,stroke-width:2em
`, `dir LR
node a rectangle {fill=#fff}
`},
	{"linkStyle", `flowchart LR
    a --> b
    b --> c
    c --> d
    d -.-> e
    linkStyle 0 stroke:#ff3,stroke-width:4px,color:red;
    linkStyle 1,2 stroke-dasharray: 5\, 5
    linkStyle 3 stroke-dasharray:0
    linkStyle default interpolate basis stroke:#999
    linkStyle 0 fill:none,whatever,stroke-width:thick
`, `dir LR
node a rectangle
node b rectangle
node c rectangle
node d rectangle
node e rectangle
edge a -> b solid -/arrow {stroke=#ff3 text=red width=4}
edge b -> c dashed -/arrow {stroke=#999}
edge c -> d dashed -/arrow {stroke=#999}
edge d -> e solid -/arrow {stroke=#999}
`},
	{"comments and directives", `%%{init: {"theme": "forest"}}%%
%% a comment before the header
flowchart LR
    %% a comment
    a --> b %% a comment after a statement
    %%{
        init: { "flowchart": { "curve": "basis" } }
    }%%
    b --> c
`, `dir LR
node a rectangle
node b rectangle
node c rectangle
edge a -> b solid -/arrow
edge b -> c solid -/arrow
`},
	{"front matter", `---
title: A titled flow
config:
  theme: dark
---
flowchart LR
    a --> b
`, `dir LR
node a rectangle
node b rectangle
edge a -> b solid -/arrow
`},
	{"click, href and accessibility lines", `flowchart LR
    A-->B
    click A callback "Tooltip for a callback"
    click B href "https://www.github.com" "This is a tooltip; for a link" _blank
    accTitle: The title
    accDescr: One line
    accDescr {
        Several
        lines
    }
`, `dir LR
node A rectangle
node B rectangle
edge A -> B solid -/arrow
`},
	{"semicolons", `graph TD;A-->B;B-->C;
    C-->D;
`, `dir TB
node A rectangle
node B rectangle
node C rectangle
node D rectangle
edge A -> B solid -/arrow
edge B -> C solid -/arrow
edge C -> D solid -/arrow
`},
	{"ids with dashes, dots and digits", `flowchart LR
    my-service --> api.v2 --> 42 --> snake_case
`, `dir LR
node my-service rectangle
node api.v2 rectangle
node 42 rectangle
node snake_case rectangle
edge my-service -> api.v2 solid -/arrow
edge api.v2 -> 42 solid -/arrow
edge 42 -> snake_case solid -/arrow
`},
	{"o and x after a link are heads", `flowchart LR
    A---oB
    C---xD
    dev--- ops
    dev---Ops
`, `dir LR
node A rectangle
node B rectangle
node C rectangle
node D rectangle
node dev rectangle
node ops rectangle
node Ops rectangle
edge A -> B solid -/circle
edge C -> D solid -/cross
edge dev -> ops solid -/-
edge dev -> Ops solid -/-
`},
	{"the last label and shape given win", `flowchart LR
    a[First] --> b
    a(Second)
    a --> c
`, `dir LR
node a rounded "Second"
node b rectangle
node c rectangle
edge a -> b solid -/arrow
edge a -> c solid -/arrow
`},
	{"@{ shape } names", `flowchart LR
    A@{ shape: diam, label: "Decide?" }
    B@{ shape: cyl }
    C@{shape: lean-r, label: "In, out"} --> D@{ shape: trap-t }
    E@{ shape: stadium }:::x
`, `dir LR
node A diamond "Decide?"
node B cylinder
node C parallelogram "In, out"
node D trapezoid-alt
node E stadium
edge C -> D solid -/arrow
`},
	{"edge ids and their properties", `flowchart LR
    A e1@--> B
    e1@{ animate: true }
    B e2@-.-> C
`, `dir LR
node A rectangle
node B rectangle
node C rectangle
edge A -> B solid -/arrow
edge B -> C dashed -/arrow
`},
	{"Windows line ends", "flowchart LR\r\n    a[One] --> b\r\n    b --> c\r\n", `dir LR
node a rectangle "One"
node b rectangle
node c rectangle
edge a -> b solid -/arrow
edge b -> c solid -/arrow
`},
	{"style makes a node it names", `flowchart LR
    a --> b
    style c fill:#0f0
`, `dir LR
node a rectangle
node b rectangle
node c rectangle {fill=#0f0}
edge a -> b solid -/arrow
`},
	{"a CI/CD pipeline", `flowchart LR
    commit([Commit]) --> build[Build] --> test{Tests pass?}
    test -->|yes| stage[Deploy to staging]
    test -->|no| fix[Fix] -.-> commit
    stage --> approve{Approved?}
    approve -- yes --> prod[(Production)]
    approve -- no --> fix
    build -. skip tests .-> stage
    classDef danger fill:#ffc9c9,stroke:#e03131
    class fix danger
`, `dir LR
node commit stadium "Commit"
node build rectangle "Build"
node test diamond "Tests pass?"
node stage rectangle "Deploy to staging"
node fix rectangle "Fix" {fill=#ffc9c9 stroke=#e03131}
node approve diamond "Approved?"
node prod cylinder "Production"
edge commit -> build solid -/arrow
edge build -> test solid -/arrow
edge test -> stage solid -/arrow "yes"
edge test -> fix solid -/arrow "no"
edge fix -> commit dashed -/arrow
edge stage -> approve solid -/arrow
edge approve -> prod solid -/arrow "yes"
edge approve -> fix solid -/arrow "no"
edge build -> stage dashed -/arrow "skip tests"
`},
	{"an architecture with clusters", `flowchart TB
    user((User)) --> cdn[CDN]
    subgraph edge [Edge]
        cdn --> lb{{Load balancer}}
    end
    subgraph app [Application]
        direction LR
        lb --> web1[Web 1] & web2[Web 2]
        web1 & web2 --> api[[API]]
    end
    subgraph data [Data]
        api --> db[(Postgres)]
        api --> cache[(Redis)]
    end
    api -.-> queue>Queue] ==> worker[/Worker/]
    style data fill:#e7f5ff
`, `dir TB
group edge "Edge"
group app "Application" dir LR
group data "Data" {fill=#e7f5ff}
node user circle "User"
node cdn rectangle "CDN" in edge
node lb hexagon "Load balancer" in edge
node web1 rectangle "Web 1" in app
node web2 rectangle "Web 2" in app
node api subroutine "API" in app
node db cylinder "Postgres" in data
node cache cylinder "Redis" in data
node queue asymmetric "Queue"
node worker parallelogram "Worker"
edge user -> cdn solid -/arrow
edge cdn -> lb solid -/arrow
edge lb -> web1 solid -/arrow
edge lb -> web2 solid -/arrow
edge web1 -> api solid -/arrow
edge web2 -> api solid -/arrow
edge api -> db solid -/arrow
edge api -> cache solid -/arrow
edge api -> queue dashed -/arrow
edge queue -> worker thick -/arrow
`},
	{"a self loop and a multi-line edge label", `flowchart LR
    a -->|retry<br>on failure| a
`, `dir LR
node a rectangle
edge a -> a solid -/arrow "retry\non failure"
`},
	{"text link with start head", `flowchart LR
    a <-- both ways --> b
    c x-. crossed .-x d
    e o== round ==o f
`, `dir LR
node a rectangle
node b rectangle
node c rectangle
node d rectangle
node e rectangle
node f rectangle
edge a -> b solid arrow/arrow "both ways"
edge c -> d dashed cross/cross "crossed"
edge e -> f thick circle/circle "round"
`},
	{"subgraph ids on one line with semicolons", `flowchart LR
    subgraph s1; a --> b; end; c --> s1
`, `dir LR
group s1 "s1"
node a rectangle in s1
node b rectangle in s1
node c rectangle
edge a -> b solid -/arrow
edge c -> s1 solid -/arrow
`},
	{"Font Awesome icons are dropped, animated edges are plain", `flowchart TD
    B["fa:fa-twitter for peace"]
    B-->C[fa:fa-ban forbidden]
    B e1@==> D(fa:fa-spinner)
    classDef animate stroke-dasharray: 9,5,stroke-dashoffset: 900,animation: dash 25s linear infinite;
    class e1 animate
    D:::animate
`, `dir TB
node B rectangle "for peace"
node C rectangle "forbidden"
node D rounded {dashed}
edge B -> C solid -/arrow
edge B -> D thick -/arrow
`},
	{"spaces before the shape", `flowchart LR
    a [Spaced] --> b (Round)
`, `dir LR
node a rectangle "Spaced"
node b rounded "Round"
edge a -> b solid -/arrow
`},
}
