package gen

import (
	"fmt"
	"math"
	"strings"
)

const (
	srcWeb    = "https://excalidraw.com"
	srcVSCode = "https://marketplace.visualstudio.com/items?itemName=pomdtr.excalidraw-editor"
)

var (
	strokes     = []string{"#1e1e1e", "#e03131", "#2f9e44", "#1971c2", "#f08c00", "#6741d9"}
	fills       = []string{"transparent", "#ffc9c9", "#b2f2bb", "#a5d8ff", "#ffec99", "#d0bfff", "#eebefa"}
	oldStrokes  = []string{"#000000", "#c92a2a", "#364fc7", "#087f5b", "#e67700"}
	oldFills    = []string{"transparent", "#ced4da", "#fa5252", "#15aabf", "#40c057", "#fab005"}
	fillStyles  = []string{"solid", "hachure", "cross-hatch", "zigzag"}
	strokeKinds = []string{"solid", "dashed", "dotted"}
	arrowheads  = []any{nil, "arrow", "bar", "dot", "circle", "circle_outline", "triangle", "triangle_outline", "diamond", "diamond_outline", "crowfoot_one", "crowfoot_many", "crowfoot_one_or_many"}
	words       = []string{"API", "Gateway", "Auth", "Users", "Orders", "Billing", "Queue", "Worker", "Cache", "Search", "Index", "Mailer", "Store", "Logs", "Metrics", "Client", "Server", "Proxy", "Database", "Scheduler", "Reports", "Export", "Import", "Sync", "Config"}
)

// Scene is one generated file.
type Scene struct {
	Name string
	Data []byte
}

// Scenes builds every scene of the corpus, sorted by name.
func Scenes() []Scene {
	list := []struct {
		name string
		make func() []byte
	}{
		{"arrows-arrowheads", arrowsArrowheads},
		{"arrows-elbow", arrowsElbow},
		{"arrows-labels", arrowsLabels},
		{"background-dark", func() []byte {
			return backgroundScene(31, "#1e1e1e", []string{"#ffffff", "#ffc9c9", "#b2f2bb", "#a5d8ff"})
		}},
		{"background-tinted", func() []byte { return backgroundScene(32, "#fff9db", strokes) }},
		{"deleted-locked-links", deletedLockedLinks},
		{"embeds", embeds},
		{"empty", empty},
		{"flow-excalifont", func() []byte { return flow(11, []int{5}, 0, 1, srcWeb) }},
		{"flow-nunito-comic", func() []byte { return flow(13, []int{5, 6, 8}, 0, 0, srcWeb) }},
		{"flow-virgil-cascadia", func() []byte { return flow(12, []int{1, 3}, 1, 1, srcWeb) }},
		{"frames", frames},
		{"freedraw-mouse", func() []byte { return freedrawScene(41, false) }},
		{"freedraw-pen", func() []byte { return freedrawScene(42, true) }},
		{"groups-nested", groupsNested},
		{"images", images},
		{"large-2000", large},
		{"legacy-2020", legacy2020},
		{"legacy-draw-type", legacyDraw},
		{"legacy-no-index", legacyNoIndex},
		{"legacy-version-1", legacyVersion1},
		{"lines-polygons", linesPolygons},
		{"null-numbers", nullNumbers},
		{"shapes-rotated-opacity", shapesRotated},
		{"shapes-styles", shapesStyles},
		{"single-text", singleText},
		{"text-fonts", textFonts},
		{"text-mindmap-cjk", mindmapCJK},
		{"text-scripts", textScripts},
	}
	for i := range 8 {
		seed := uint64(100 + i)
		list = append(list, struct {
			name string
			make func() []byte
		}{fmt.Sprintf("diagram-%02d", i+1), func() []byte { return diagram(seed) }})
	}
	out := make([]Scene, 0, len(list))
	for _, s := range list {
		out = append(out, Scene{Name: s.name + ".excalidraw", Data: s.make()})
	}
	return out
}

// box is a shape with a centred label.
func (b *builder) box(typ string, x, y, w, h float64, label string, font int, s style) *obj {
	o := b.shape(typ, x, y, w, h, s)
	if label != "" {
		b.label(o, label, font, 20, style{stroke: s.stroke})
	}
	return o
}

// flow is a small labelled flowchart: a row of steps, a decision, and
// arrows between them, in the given fonts.
func flow(seed uint64, fonts []int, roughness float64, rounded int, source string) []byte {
	b := newBuilder(seed)
	steps := []string{"Request", "Validate", "Plan", "Execute", "Respond", "Archive"}[:4+seed%3]
	cols := 2 + int(seed%3)
	var prev *obj
	var round any
	if rounded == 1 {
		round = roundAdaptive()
	}
	for i, s := range steps {
		font := fonts[i%len(fonts)]
		typ := "rectangle"
		if i == 2 {
			typ = "diamond"
		}
		st := style{stroke: strokes[i%len(strokes)], bg: fills[(i+1)%len(fills)], fill: fillStyles[seed%4], roughness: roughness, roundness: round}
		o := b.box(typ, 40+float64(i%cols)*(200+40*float64(cols%2)), 40+float64(i/cols)*(160+float64(b.r.IntN(60))), 160, 90, s, font, st)
		if prev != nil {
			a := b.arrow(prev, o, 0, style{roughness: roughness, roundness: roundProportional()})
			if i == 3 {
				b.label(a, "yes", font, 16, style{})
			}
		}
		prev = o
	}
	b.text(40, 460, "Notes: every step logs its outcome", fonts[0], 20, "left", style{roughness: roughness})
	b.text(520, 460, "v2", fonts[len(fonts)-1], 28, "left", style{stroke: "#e03131"})
	b.shape("ellipse", 560, 300, 120, 80, style{bg: "#ffec99", fill: "hachure", roughness: roughness})
	return b.document(source, "#ffffff", 2)
}

func shapesStyles() []byte {
	b := newBuilder(1)
	i := 0
	for _, typ := range []string{"rectangle", "diamond", "ellipse"} {
		for _, fs := range fillStyles {
			for _, sk := range strokeKinds {
				var round any
				if i%2 == 1 && typ != "ellipse" {
					round = pick[any](b.r, roundProportional(), roundAdaptive())
				}
				b.shape(typ, float64(i%12)*130, float64(i/12)*130, 100, 90, style{
					stroke: strokes[i%len(strokes)], bg: fills[1+i%(len(fills)-1)], fill: fs, strokeStyle: sk,
					strokeWidth: []float64{1, 2, 4}[i%3], roughness: float64(i % 3), roundness: round,
				})
				i++
			}
		}
	}
	return b.document(srcWeb, "#ffffff", 2)
}

func shapesRotated() []byte {
	b := newBuilder(2)
	for i := range 16 {
		x, y := float64(i%4)*220, float64(i/4)*200
		st := style{stroke: strokes[i%len(strokes)], bg: fills[1+i%(len(fills)-1)], angle: r2(float64(i) * math.Pi / 9),
			opacity: float64(20 + (i*15)%81), roughness: float64(i % 3), fill: fillStyles[i%4]}
		switch i % 4 {
		case 0:
			b.shape("rectangle", x, y, 150, 80, st)
		case 1:
			b.shape("ellipse", x, y, 120, 120, st)
		case 2:
			b.shape("diamond", x, y, 140, 100, st)
		default:
			t := b.text(x, y, "turned", 5, 24, "left", st)
			t.set("backgroundColor", "transparent")
		}
	}
	return b.document(srcWeb, "#ffffff", 2)
}

func arrowsArrowheads() []byte {
	b := newBuilder(3)
	for i := range 13 {
		y := float64(i) * 60
		st := style{stroke: strokes[i%len(strokes)], strokeStyle: strokeKinds[i%3], strokeWidth: []float64{1, 2, 4}[i%3], roughness: float64(i % 3)}
		var pts [][2]float64
		switch i % 3 {
		case 0:
			pts = [][2]float64{{0, y}, {300, y}}
		case 1:
			pts = [][2]float64{{0, y}, {150, y + 40}, {300, y}}
			st.roundness = roundProportional()
		default:
			pts = [][2]float64{{0, y}, {100, y + 30}, {200, y - 10}, {300, y + 20}}
		}
		a := b.linear("arrow", pts, st)
		a.set("startArrowhead", arrowheads[(i+5)%len(arrowheads)]).set("endArrowhead", arrowheads[i])
	}
	return b.document(srcWeb, "#ffffff", 2)
}

func arrowsLabels() []byte {
	b := newBuilder(4)
	var nodes []*obj
	for i := range 6 {
		typ := []string{"rectangle", "ellipse", "diamond"}[i%3]
		nodes = append(nodes, b.box(typ, float64(i%3)*300, float64(i/3)*260, 170, 100, words[i], 5, style{bg: fills[i%len(fills)], roundness: roundAdaptive()}))
	}
	for i, pair := range [][2]int{{0, 1}, {1, 2}, {0, 3}, {3, 4}, {4, 5}, {2, 5}, {0, 4}} {
		a := b.arrow(nodes[pair[0]], nodes[pair[1]], float64((i%3-1)*30), style{roundness: roundProportional(), stroke: strokes[i%len(strokes)]})
		if i%2 == 0 {
			b.label(a, []string{"calls", "reads", "writes", "emits"}[i%4], 5, 16, style{})
		}
	}
	return b.document(srcWeb, "#ffffff", 2)
}

func arrowsElbow() []byte {
	b := newBuilder(5)
	var nodes []*obj
	for i := range 6 {
		nodes = append(nodes, b.box("rectangle", float64(i%3)*320, float64(i/3)*240+float64(i%2)*40, 160, 80, words[5+i], 5, style{bg: "#a5d8ff", roughness: 0}))
	}
	for i, pair := range [][2]int{{0, 1}, {1, 2}, {3, 4}, {4, 5}, {0, 4}} {
		a := b.elbow(nodes[pair[0]], nodes[pair[1]], style{roughness: 0})
		if i == 4 {
			b.label(a, "async", 5, 16, style{})
		}
	}
	return b.document(srcWeb, "#ffffff", 2)
}

func linesPolygons() []byte {
	b := newBuilder(6)
	for i := range 8 {
		x, y := float64(i%4)*220, float64(i/4)*220
		n := 3 + i%4
		var pts [][2]float64
		for k := 0; k <= n; k++ {
			a := 2 * math.Pi * float64(k%n) / float64(n)
			pts = append(pts, [2]float64{x + 80 + 70*math.Cos(a), y + 80 + 70*math.Sin(a)})
		}
		st := style{stroke: strokes[i%len(strokes)], bg: fills[1+i%(len(fills)-1)], fill: fillStyles[i%4], roughness: float64(i % 3)}
		if i%2 == 1 {
			st.roundness = roundProportional()
		}
		b.linear("line", pts, st)
	}
	for i := range 4 {
		y := 480 + float64(i)*40
		b.linear("line", [][2]float64{{0, y}, {200, y + 20}, {400, y - 20}, {600, y}}, style{strokeStyle: strokeKinds[i%3], strokeWidth: float64(1 + i)})
	}
	return b.document(srcWeb, "#ffffff", 2)
}

// stroke is a hand-drawn wobbly path: a spiral, a wave or a loop.
func stroke(b *builder, x, y float64, kind, n int) [][2]float64 {
	var pts [][2]float64
	for k := range n {
		t := float64(k) / float64(n-1)
		var px, py float64
		switch kind % 3 {
		case 0:
			a := t * 4 * math.Pi
			px, py = x+t*60*math.Cos(a), y+t*60*math.Sin(a)
		case 1:
			px, py = x+t*240, y+30*math.Sin(t*3*math.Pi)
		default:
			a := t * 2 * math.Pi
			px, py = x+80*math.Sin(a), y+40*math.Sin(2*a)
		}
		pts = append(pts, [2]float64{px + b.r.Float64()*1.5, py + b.r.Float64()*1.5})
	}
	return pts
}

func freedrawScene(seed uint64, pen bool) []byte {
	b := newBuilder(seed)
	for i := range 9 {
		n := 12 + b.r.IntN(90)
		pts := stroke(b, float64(i%3)*300+80, float64(i/3)*200+80, i, n)
		var pr []float64
		if pen {
			for k := range n {
				pr = append(pr, 0.2+0.7*math.Sin(math.Pi*float64(k)/float64(n))+0.05*b.r.Float64())
			}
		}
		b.freedraw(pts, pr, i%2 == 0, style{stroke: strokes[i%len(strokes)], strokeWidth: []float64{1, 2, 4}[i%3], roughness: 1, opacity: float64(100 - i*5)})
	}
	if !pen {
		b.freedraw([][2]float64{{900, 40}, {901, 41}}, nil, false, style{strokeWidth: 4}) // a dot
	}
	return b.document(srcWeb, "#ffffff", 2)
}

var fontSamples = map[int]string{
	1: "Virgil: The quick brown fox", 2: "Helvetica: jumps over", 3: "Cascadia: func main() {}",
	5: "Excalifont: the lazy dog", 6: "Nunito: 0123456789", 7: "Lilita One: BOLD TITLES", 8: "Comic Shanns: x := 42", 9: "Liberation Sans: sans serif",
}

func textFonts() []byte {
	b := newBuilder(7)
	y := 0.0
	for i, f := range []int{1, 2, 3, 5, 6, 7, 8, 9} {
		align := []string{"left", "center", "right"}[i%3]
		x := map[string]float64{"left": 0, "center": 300, "right": 600}[align]
		size := []float64{16, 20, 28, 36}[i%4]
		b.text(x, y, fontSamples[f], f, size, align, style{stroke: strokes[i%len(strokes)]})
		y += size * 1.6
	}
	b.text(0, y+20, "Two lines\nof Excalifont,\nthree in all", 5, 20, "left", style{})
	b.text(400, y+20, "Cascadia\n  indented\n    code", 3, 16, "left", style{})
	return b.document(srcWeb, "#ffffff", 2)
}

var scripts = []struct {
	text string
	font int
}{
	{"你好，世界：流程图", 5}, {"日本語のテキスト、ひらがな", 5}, {"한국어 텍스트", 6}, {"مرحبا بالعالم", 5},
	{"שלום עולם", 2}, {"Привет, мир", 1}, {"Γειά σου κόσμε", 8}, {"Emoji 🎉🚀✅", 5}, {"混合 mixed テキスト", 8}, {"数据库 ↔ 缓存", 1},
}

func textScripts() []byte {
	b := newBuilder(8)
	for i, s := range scripts {
		b.text(float64(i%2)*420, float64(i/2)*70, s.text, s.font, 24, "left", style{stroke: strokes[i%len(strokes)]})
	}
	box := b.shape("rectangle", 0, 380, 260, 100, style{bg: "#ffec99"})
	b.label(box, "服务 → 队列", 5, 20, style{})
	return b.document(srcWeb, "#ffffff", 2)
}

func mindmapCJK() []byte {
	b := newBuilder(9)
	hub := b.box("ellipse", 400, 300, 200, 100, "项目计划", 5, style{bg: "#ffec99"})
	topics := []string{"需求分析", "系统设计", "开发", "测试", "上线", "复盘"}
	for i, t := range topics {
		a := 2 * math.Pi * float64(i) / float64(len(topics))
		n := b.box("rectangle", 420+320*math.Cos(a), 320+220*math.Sin(a), 160, 60, t, 5, style{bg: fills[1+i%(len(fills)-1)], roundness: roundAdaptive()})
		b.arrow(hub, n, 0, style{roundness: roundProportional()})
	}
	b.text(380, 620, "备注：每周五更新", 5, 20, "left", style{stroke: "#868e96"})
	return b.document(srcWeb, "#ffffff", 2)
}

// tinyPNG is a w×h picture: a gradient, a checkerboard or rings.
func tinyPNG(kind, w, h int) []byte {
	return pngRGB(w, h, func(x, y int) (byte, byte, byte) {
		switch kind {
		case 0:
			return byte(255 * x / w), byte(255 * y / h), 160
		case 1:
			if (x/4+y/4)%2 == 0 {
				return 30, 30, 30
			}
			return 240, 200, 60
		default:
			d := (x-w/2)*(x-w/2) + (y-h/2)*(y-h/2)
			if (d/40)%2 == 0 {
				return 25, 113, 194
			}
			return 255, 255, 255
		}
	})
}

func images() []byte {
	b := newBuilder(10)
	p0, p1, p2 := tinyPNG(0, 48, 32), tinyPNG(1, 32, 32), tinyPNG(2, 40, 40)
	b.image(0, 0, 240, 160, p0, style{})
	b.image(300, 0, 160, 160, p1, style{opacity: 80})
	b.image(520, 0, 200, 200, p2, style{angle: 0.3})
	b.image(0, 240, 96, 64, p0, style{}) // the same file again
	caption := b.shape("rectangle", 280, 240, 200, 80, style{})
	b.label(caption, "Screenshot", 5, 20, style{})
	return b.document(srcVSCode, "#ffffff", 2)
}

func frames() []byte {
	b := newBuilder(14)
	var kids1, kids2 []*obj
	for i := range 3 {
		o := b.box("rectangle", 40+float64(i)*180, 60, 140, 80, words[i], 5, style{bg: fills[i+1]})
		kids1 = append(kids1, o)
	}
	kids1 = append(kids1, b.arrow(kids1[0], kids1[1], 0, style{roundness: roundProportional()}))
	// labels inside the frame belong to it too
	for _, e := range b.els {
		if e.str("type") == "text" {
			kids1 = append(kids1, e)
		}
	}
	b.frame("frame", "Services", 0, 0, 600, 200, kids1...)
	kids2 = append(kids2, b.shape("ellipse", 60, 300, 160, 100, style{bg: "#b2f2bb"}), b.text(260, 320, "in frame two", 5, 20, "left", style{}))
	b.frame("frame", "", 0, 260, 480, 200, kids2...)
	m := b.shape("rectangle", 700, 60, 120, 120, style{fill: "hachure", bg: "#ffc9c9"})
	b.frame("magicframe", "Generate", 660, 20, 220, 200, m)
	b.shape("diamond", 700, 300, 120, 100, style{}) // outside every frame
	return b.document(srcWeb, "#ffffff", 2)
}

func embeds() []byte {
	b := newBuilder(15)
	b.box("rectangle", 0, 0, 200, 80, "Watch the demo", 5, style{bg: "#a5d8ff"})
	b.shape("embeddable", 260, 0, 480, 270, style{link: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", roughness: 0})
	i := b.shape("iframe", 260, 320, 400, 240, style{roughness: 0, bg: "transparent"})
	i.set("customData", newObj().set("generationData", newObj().set("status", "done").set("html", "<p>hi</p>")))
	b.text(0, 320, "An embedded page\nand a generated one", 5, 20, "left", style{})
	return b.document(srcWeb, "#ffffff", 2)
}

func groupsNested() []byte {
	b := newBuilder(16)
	outer := b.id()
	for g := range 3 {
		inner := b.id()
		groups := []string{inner, outer}
		if g == 2 {
			groups = []string{inner} // a group outside the outer one
		}
		x := float64(g) * 260
		st := style{groups: groups, bg: fills[g+1]}
		r := b.shape("rectangle", x, 0, 200, 120, st)
		b.label(r, words[g+8], 5, 20, style{})
		b.shape("ellipse", x+60, 150, 80, 80, st)
		b.text(x, 250, "part "+string(rune('A'+g)), 1, 20, "left", st)
	}
	return b.document(srcWeb, "#ffffff", 2)
}

func backgroundScene(seed uint64, bg string, inks []string) []byte {
	b := newBuilder(seed)
	var prev *obj
	for i := range 6 {
		o := b.box(pick(b.r, "rectangle", "ellipse", "diamond"), float64(i%3)*240, float64(i/3)*200, 160, 90, words[b.r.IntN(len(words))], 5,
			style{stroke: inks[i%len(inks)], bg: "transparent", roughness: 1})
		if prev != nil {
			b.arrow(prev, o, 0, style{stroke: inks[0], roundness: roundProportional()})
		}
		prev = o
	}
	for _, t := range b.els {
		if t.str("type") == "text" {
			t.set("strokeColor", inks[0])
		}
	}
	b.freedraw(stroke(b, 600, 420, 1, 40), nil, false, style{stroke: inks[len(inks)-1], strokeWidth: 2})
	return b.document(srcWeb, bg, 2)
}

func deletedLockedLinks() []byte {
	b := newBuilder(17)
	for i := range 10 {
		st := style{bg: fills[i%len(fills)], deleted: i%3 == 2, locked: i%4 == 1}
		if i%3 == 0 {
			st.link = []string{"https://excalidraw.com", "https://github.com/dshgo/dsh", "https://example.com/?element=1"}[i/3%3]
		}
		o := b.box("rectangle", float64(i%5)*180, float64(i/5)*140, 140, 80, words[i], 5, st)
		if st.deleted {
			for _, e := range b.els {
				if e.str("containerId") == o.str("id") {
					e.set("isDeleted", true)
				}
			}
		}
	}
	b.text(0, 320, "", 5, 20, "left", style{deleted: true}) // restore deletes an empty text
	c := b.shape("ellipse", 400, 300, 100, 100, style{})
	c.set("customData", newObj().set("owner", "tests").set("tags", []any{"a", "b"}))
	return b.document(srcWeb, "#ffffff", 2)
}

func singleText() []byte {
	b := newBuilder(18)
	b.text(0, 0, "Hello", 5, 20, "left", style{})
	return b.document(srcWeb, "#ffffff", 2)
}

func empty() []byte {
	b := newBuilder(19)
	return b.document(srcWeb, "#ffffff", 2)
}

// legacyScene draws a small diagram with a legacy builder.
func legacyScene(b *builder) {
	var nodes []*obj
	for i := range 5 {
		typ := []string{"rectangle", "ellipse", "diamond"}[i%3]
		var round any
		if i%2 == 0 {
			round = roundAdaptive()
		}
		nodes = append(nodes, b.shape(typ, float64(i%3)*260, float64(i/3)*220, 160, 90,
			style{stroke: oldStrokes[i%len(oldStrokes)], bg: oldFills[1+i%(len(oldFills)-1)], roughness: 1, roundness: round}))
		b.text(float64(i%3)*260+20, float64(i/3)*220+110, words[i+12], 1, 20, "left", style{stroke: oldStrokes[0]})
	}
	for _, p := range [][2]int{{0, 1}, {1, 2}, {0, 3}, {3, 4}} {
		b.arrow(nodes[p[0]], nodes[p[1]], 0, style{roughness: 1, roundness: roundProportional()})
	}
	b.linear("line", [][2]float64{{0, 480}, {300, 480}, {300, 540}}, style{roughness: 1})
}

func legacy2020() []byte {
	b := newBuilder(20)
	b.legacy = true
	legacyScene(b)
	b.freedraw(stroke(b, 700, 450, 2, 30), nil, false, style{})
	return b.document(srcWeb, "#ffffff", 2)
}

func legacyVersion1() []byte {
	b := newBuilder(21)
	b.legacy = true
	legacyScene(b)
	return b.document(srcWeb, "#ffffff", 1)
}

// legacyDraw holds the pre-2020 "draw" type, which restore turns into a
// line.
func legacyDraw() []byte {
	b := newBuilder(22)
	b.legacy = true
	for i := range 3 {
		o := b.linear("line", stroke(b, float64(i)*250, 100, i, 20), style{roughness: 1})
		o.set("type", "draw")
	}
	b.shape("rectangle", 0, 250, 200, 100, style{roughness: 1})
	b.text(20, 380, "drawn in 2020", 1, 20, "left", style{})
	return b.document(srcWeb, "#ffffff", 2)
}

// legacyNoIndex is a 2022–2024 scene: today's members but no fractional
// index, and text that still carries baseline.
func legacyNoIndex() []byte {
	b := newBuilder(23)
	b.index = false
	var prev *obj
	for i := range 6 {
		o := b.box("rectangle", float64(i%3)*240, float64(i/3)*180, 170, 80, words[i+3], 1, style{bg: fills[1+i%(len(fills)-1)], roughness: 1, roundness: roundAdaptive()})
		if prev != nil {
			b.arrow(prev, o, 0, style{roundness: roundProportional()})
		}
		prev = o
	}
	b.text(0, 400, "note: no index yet", 1, 20, "left", style{})
	for _, e := range b.els {
		if e.str("type") == "text" {
			e.set("baseline", math.Round(e.num("height")*0.8))
		}
	}
	return b.document(srcWeb, "#ffffff", 2)
}

// nullNumbers has the nulls JSON.stringify writes for NaN in numeric
// members restore fills in.
func nullNumbers() []byte {
	b := newBuilder(24)
	for i := range 8 {
		b.shape([]string{"rectangle", "ellipse"}[i%2], float64(i%4)*180, float64(i/4)*160, 140, 100, style{bg: fills[1+i%(len(fills)-1)]})
	}
	for i, k := range []string{"angle", "opacity", "roughness", "strokeWidth", "seed", "version", "updated", "versionNonce"} {
		b.els[i].set(k, nil)
	}
	t := b.text(0, 340, "null numbers", 5, 20, "left", style{})
	t.set("lineHeight", nil)
	return b.document(srcWeb, "#ffffff", 2)
}

// diagram is an architecture drawing: labelled nodes on a grid, bound
// arrows between neighbours, a few notes, groups and a hand-drawn mark.
func diagram(seed uint64) []byte {
	b := newBuilder(seed)
	r := b.r
	font := pick(r, 1, 5, 5, 6, 8, 3)
	rough := float64(r.IntN(3))
	cols, rows := 3+r.IntN(3), 2+r.IntN(3)
	var nodes []*obj
	for i := range cols * rows {
		if r.IntN(6) == 0 {
			nodes = append(nodes, nil)
			continue
		}
		typ := pick(r, "rectangle", "rectangle", "ellipse", "diamond")
		var round any
		if r.IntN(2) == 0 && typ != "ellipse" {
			round = roundAdaptive()
		}
		x, y := float64(i%cols)*(220+float64(r.IntN(40))), float64(i/cols)*(180+float64(r.IntN(40)))
		st := style{stroke: pick(r, strokes...), bg: pick(r, fills...), fill: pick(r, fillStyles...), roughness: rough, roundness: round,
			strokeStyle: pick(r, "solid", "solid", "dashed")}
		label := words[r.IntN(len(words))]
		if r.IntN(4) == 0 {
			label += "\n" + strings.ToLower(words[r.IntN(len(words))])
		}
		nodes = append(nodes, b.box(typ, x, y, 150+float64(r.IntN(40)), 70+float64(r.IntN(30)), label, font, st))
	}
	for i, n := range nodes {
		if n == nil {
			continue
		}
		for _, j := range []int{i + 1, i + cols} {
			if j < len(nodes) && nodes[j] != nil && (j != i+1 || (i+1)%cols != 0) && r.IntN(3) > 0 {
				a := b.arrow(n, nodes[j], 0, style{roughness: rough, roundness: roundProportional(), stroke: "#1e1e1e"})
				a.set("endArrowhead", pick(r, arrowheads[1:4]...))
			}
		}
	}
	g := b.id()
	b.text(0, float64(rows)*220+20, "Legend", font, 24, "left", style{groups: []string{g}})
	b.shape("rectangle", 0, float64(rows)*220+60, 30, 20, style{bg: "#a5d8ff", groups: []string{g}})
	b.text(40, float64(rows)*220+58, "service", font, 16, "left", style{groups: []string{g}})
	b.freedraw(stroke(b, float64(cols)*220+40, 60, int(seed), 30), nil, false, style{stroke: "#e03131"})
	bg := pick(r, "#ffffff", "#ffffff", "#f8f9fa")
	return b.document(pick(r, srcWeb, srcVSCode), bg, 2)
}

// large is a 2,000-element flow, 250 stages of 8 elements one under
// another: taller (over 65,535 px) than a browser canvas can hold.
func large() []byte {
	b := newBuilder(25)
	var prev *obj
	for s := range 250 {
		y := float64(s) * 300
		r := b.box("rectangle", 0, y, 220, 90, fmt.Sprintf("Stage %d", s+1), 5, style{bg: fills[1+s%(len(fills)-1)], roundness: roundAdaptive()})
		d := b.box("diamond", 400, y, 200, 110, words[s%len(words)], 5, style{bg: "#ffec99"})
		b.arrow(r, d, 0, style{roundness: roundProportional()})
		if prev != nil {
			b.arrow(prev, r, 0, style{roundness: roundProportional()})
		}
		b.shape("ellipse", 760, y+10, 100, 70, style{fill: fillStyles[s%4], bg: fills[s%len(fills)]})
		b.text(900, y+30, fmt.Sprintf("step %d of 250", s+1), 5, 16, "left", style{})
		prev = d
	}
	b.text(0, -80, "Pipeline", 5, 36, "left", style{})
	return b.document(srcWeb, "#ffffff", 2)
}
