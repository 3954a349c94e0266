package gen

import (
	"crypto/sha1"
	"encoding/base64"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"unicode"
)

// builder lays out one scene's elements. Everything random comes from
// its seeded generator, so a scene is a pure function of its seed.
type builder struct {
	r      *rand.Rand
	els    []*obj
	files  *obj
	clock  int64
	legacy bool // write elements as Excalidraw did in 2020–2021
	index  bool // give elements fractional indices
}

func newBuilder(seed uint64) *builder {
	return &builder{r: rand.New(rand.NewPCG(seed, 0x5eed)), files: newObj(), clock: 1735689600000 + int64(seed)*86400000, index: true}
}

const nanoidAlphabet = "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"

// id is a 21-character nanoid, as the editor makes.
func (b *builder) id() string {
	out := make([]byte, 21)
	for i := range out {
		out[i] = nanoidAlphabet[b.r.IntN(len(nanoidAlphabet))]
	}
	return string(out)
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// indexKey is the i-th of a run of integer fractional-index keys: a0…az,
// then b00…bzz, then c000…, in increasing order.
func indexKey(i int) string {
	for head, digits, span := byte('a'), 1, 62; ; head, digits, span = head+1, digits+1, span*62 {
		if i < span {
			out := make([]byte, digits)
			for d := digits - 1; d >= 0; d-- {
				out[d] = base62[i%62]
				i /= 62
			}
			return string(head) + string(out)
		}
		i -= span
	}
}

// r2 rounds to hundredths, the precision the generated geometry has.
func r2(f float64) float64 { return math.Round(f*100) / 100 }

func (b *builder) tick() int64 {
	b.clock += int64(1000 + b.r.IntN(60000))
	return b.clock
}

// style is how an element looks; the zero value is filled in by base.
type style struct {
	stroke, bg, fill, strokeStyle string
	strokeWidth, roughness        float64
	opacity                       float64
	angle                         float64
	roundness                     any // nil: sharp
	groups                        []string
	frame                         string
	link                          string
	locked                        bool
	deleted                       bool
}

func (s style) with(f func(*style)) style { f(&s); return s }

func orDefault[T comparable](v, d T) T {
	var zero T
	if v == zero {
		return d
	}
	return v
}

func strs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// base makes an element with the members every type has, in the order
// Excalidraw 0.18 writes them (or, for a legacy builder, the 2020 order
// and members: strokeSharpness and boundElementIds, no index, frameId,
// roundness, updated, link or locked).
func (b *builder) base(typ string, x, y, w, h float64, s style) *obj {
	o := newObj()
	id := b.id()
	seed, version, nonce := b.r.IntN(2_000_000_000)+1, b.r.IntN(400)+1, b.r.IntN(2_000_000_000)+1
	opacity := orDefault(s.opacity, 100)
	if b.legacy {
		sharp := "sharp"
		if s.roundness != nil {
			sharp = "round"
		}
		o.set("type", typ).set("version", version).set("versionNonce", nonce).set("isDeleted", s.deleted).set("id", id).
			set("fillStyle", orDefault(s.fill, "hachure")).set("strokeWidth", orDefault(s.strokeWidth, 1)).
			set("strokeStyle", orDefault(s.strokeStyle, "solid")).set("roughness", s.roughness).set("opacity", opacity).
			set("angle", s.angle).set("x", r2(x)).set("y", r2(y)).set("strokeColor", orDefault(s.stroke, "#000000")).
			set("backgroundColor", orDefault(s.bg, "transparent")).set("width", r2(w)).set("height", r2(h)).set("seed", seed).
			set("groupIds", strs(s.groups)).set("strokeSharpness", sharp).set("boundElementIds", nil)
		b.els = append(b.els, o)
		return o
	}
	o.set("id", id).set("type", typ).set("x", r2(x)).set("y", r2(y)).set("width", r2(w)).set("height", r2(h)).
		set("angle", s.angle).set("strokeColor", orDefault(s.stroke, "#1e1e1e")).set("backgroundColor", orDefault(s.bg, "transparent")).
		set("fillStyle", orDefault(s.fill, "solid")).set("strokeWidth", orDefault(s.strokeWidth, 2)).
		set("strokeStyle", orDefault(s.strokeStyle, "solid")).set("roughness", s.roughness).set("opacity", opacity).
		set("groupIds", strs(s.groups)).set("frameId", nullable(s.frame))
	if b.index {
		o.set("index", indexKey(len(b.els)))
	}
	// Today's editor writes an empty list; files of 2022–2023 (before
	// fractional indices) still have null.
	var bound any
	if b.index {
		bound = []any{}
	}
	o.set("roundness", s.roundness).set("seed", seed).set("version", version).set("versionNonce", nonce).
		set("isDeleted", s.deleted).set("boundElements", bound).set("updated", b.tick()).set("link", nullable(s.link)).set("locked", s.locked)
	b.els = append(b.els, o)
	return o
}

var (
	roundProportional = func() *obj { return newObj().set("type", 2) }
	roundAdaptive     = func() *obj { return newObj().set("type", 3) }
)

// shape is a rectangle, diamond or ellipse.
func (b *builder) shape(typ string, x, y, w, h float64, s style) *obj {
	return b.base(typ, x, y, w, h, s)
}

// bind lists ref (a bound text or arrow) in el's boundElements (or, for
// a legacy element, an arrow in boundElementIds).
func (b *builder) bind(el *obj, typ, ref string) {
	if b.legacy {
		if typ == "arrow" {
			ids, _ := el.get("boundElementIds").([]any)
			el.set("boundElementIds", append(ids, ref))
		}
		return
	}
	list, _ := el.get("boundElements").([]any)
	el.set("boundElements", append(list, newObj().set("type", typ).set("id", ref)))
}

// lineHeights are FONT_METADATA's line heights of Excalidraw's families.
var lineHeights = map[int]float64{1: 1.25, 2: 1.15, 3: 1.2, 5: 1.25, 6: 1.35, 7: 1.15, 8: 1.25, 9: 1.15}

// wide reports characters a font draws about one em wide.
func wide(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) || r >= 0x1F000 || (r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF)
}

// textSize estimates a text's box: no font is read, so the sizes are
// those of a plausible typeface, as consistent as the editor's own.
func textSize(s string, font int, size float64) (w, h float64) {
	lines, cur := 1, 0.0
	per := 0.55
	if font == 3 || font == 8 {
		per = 0.6
	}
	for _, r := range s {
		switch {
		case r == '\n':
			lines++
			cur = 0
			continue
		case wide(r):
			cur += size
		case unicode.Is(unicode.Arabic, r) || unicode.Is(unicode.Hebrew, r):
			cur += 0.45 * size
		case unicode.IsUpper(r):
			cur += (per + 0.12) * size
		case r == ' ':
			cur += 0.3 * size
		default:
			cur += per * size
		}
		w = max(w, cur)
	}
	lh := lineHeights[font]
	if lh == 0 {
		lh = 1.25
	}
	return r2(w), r2(float64(lines) * size * lh)
}

// text is a free-standing text element.
func (b *builder) text(x, y float64, s string, font int, size float64, align string, st style) *obj {
	w, h := textSize(s, font, size)
	switch align {
	case "center":
		x -= w / 2
	case "right":
		x -= w
	}
	o := b.base("text", x, y, w, h, st)
	b.textMembers(o, s, font, size, align, "top", "")
	return o
}

func (b *builder) textMembers(o *obj, s string, font int, size float64, align, valign, container string) {
	if b.legacy {
		o.set("fontSize", size).set("fontFamily", font).set("text", s).set("baseline", math.Round(size*0.9)+(o.num("height")-size*1.25)).
			set("textAlign", align).set("verticalAlign", valign)
		return
	}
	o.set("text", s).set("fontSize", size).set("fontFamily", font).set("textAlign", align).set("verticalAlign", valign).
		set("containerId", nullable(container)).set("originalText", s).set("autoResize", true).set("lineHeight", lineHeights[font])
}

// label binds a centred text to a container (a shape or an arrow): it
// follows the container in the element order, as the editor puts it.
func (b *builder) label(c *obj, s string, font int, size float64, st style) *obj {
	w, h := textSize(s, font, size)
	cx, cy := center(c)
	st.groups = groupsOf(c)
	st.frame = c.str("frameId")
	st.roughness = c.num("roughness")
	o := b.base("text", cx-w/2, cy-h/2, w, h, st)
	b.textMembers(o, s, font, size, "center", "middle", c.str("id"))
	b.bind(c, "text", o.str("id"))
	return o
}

func groupsOf(o *obj) []string {
	var out []string
	for _, g := range o.get("groupIds").([]any) {
		out = append(out, g.(string))
	}
	return out
}

// center is a box's centre, or a linear element's middle point.
func center(o *obj) (float64, float64) {
	if pts, ok := o.get("points").([]any); ok {
		p, q := pts[(len(pts)-1)/2].([]any), pts[len(pts)/2].([]any)
		return o.num("x") + (p[0].(float64)+q[0].(float64))/2, o.num("y") + (p[1].(float64)+q[1].(float64))/2
	}
	return o.num("x") + o.num("width")/2, o.num("y") + o.num("height")/2
}

// edge is where the ray from el's centre in direction (dx, dy) leaves
// its outline (a box, an ellipse or a diamond).
func edge(el *obj, dx, dy float64) (float64, float64) {
	cx, cy := center(el)
	hw, hh := el.num("width")/2, el.num("height")/2
	var t float64
	switch el.str("type") {
	case "ellipse":
		t = 1 / math.Sqrt((dx/hw)*(dx/hw)+(dy/hh)*(dy/hh))
	case "diamond":
		t = 1 / (math.Abs(dx)/hw + math.Abs(dy)/hh)
	default:
		t = math.Min(hw/math.Max(math.Abs(dx), 1e-9), hh/math.Max(math.Abs(dy), 1e-9))
	}
	return cx + dx*t, cy + dy*t
}

func pt(x, y float64) []any { return []any{r2(x), r2(y)} }

// relative is abs as a linear element stores it: the first point's
// position, the points from it, and their bounds.
func relative(abs [][2]float64) (x0, y0 float64, pts []any, minX, minY, maxX, maxY float64) {
	x0, y0 = r2(abs[0][0]), r2(abs[0][1])
	minX, minY, maxX, maxY = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range abs {
		px, py := r2(p[0]-x0), r2(p[1]-y0)
		pts = append(pts, []any{px, py})
		minX, minY, maxX, maxY = math.Min(minX, px), math.Min(minY, py), math.Max(maxX, px), math.Max(maxY, py)
	}
	return x0, y0, pts, minX, minY, maxX, maxY
}

// linear makes a line or arrow through absolute points.
func (b *builder) linear(typ string, abs [][2]float64, st style) *obj {
	x0, y0, pts, minX, minY, maxX, maxY := relative(abs)
	o := b.base(typ, x0, y0, maxX-minX, maxY-minY, st)
	if b.legacy {
		o.set("startBinding", nil).set("endBinding", nil).set("lastCommittedPoint", nil).set("startArrowhead", nil)
		if typ == "arrow" {
			o.set("endArrowhead", "arrow")
		} else {
			o.set("endArrowhead", nil)
		}
		o.set("points", pts)
		return o
	}
	o.set("points", pts).set("lastCommittedPoint", nil).set("startBinding", nil).set("endBinding", nil).set("startArrowhead", nil)
	if typ == "arrow" {
		o.set("endArrowhead", "arrow").set("elbowed", false)
	} else {
		o.set("endArrowhead", nil)
	}
	return o
}

// binding is a start or end binding; fixed (an elbow arrow's) is the
// bound point as a share of the target's width and height.
func binding(to *obj, focus, gap float64, fixed []float64) *obj {
	o := newObj().set("elementId", to.str("id")).set("focus", r2(focus)).set("gap", r2(gap))
	if fixed != nil {
		o.set("fixedPoint", []any{fixed[0], fixed[1]})
	}
	return o
}

// arrow joins two elements with a bound arrow along the line through
// their centres, gap px off each outline; bends are extra points, as
// shares along the way plus a sideways offset.
func (b *builder) arrow(from, to *obj, bend float64, st style) *obj {
	ax, ay := center(from)
	bx, by := center(to)
	dx, dy := bx-ax, by-ay
	l := math.Hypot(dx, dy)
	ux, uy := dx/l, dy/l
	gap := float64(4 + b.r.IntN(5))
	sx, sy := edge(from, ux, uy)
	ex, ey := edge(to, -ux, -uy)
	abs := [][2]float64{{sx + ux*gap, sy + uy*gap}}
	if bend != 0 {
		mx, my := (sx+ex)/2-uy*bend, (sy+ey)/2+ux*bend
		abs = append(abs, [2]float64{mx, my})
	}
	abs = append(abs, [2]float64{ex - ux*gap, ey - uy*gap})
	o := b.linear("arrow", abs, st)
	o.set("startBinding", binding(from, 0, gap, nil)).set("endBinding", binding(to, 0, gap, nil))
	b.bind(from, "arrow", o.str("id"))
	b.bind(to, "arrow", o.str("id"))
	return o
}

// elbow joins from's right side to to's left side with an elbow arrow:
// out, across at mid, and in, each segment axis-aligned.
func (b *builder) elbow(from, to *obj, st style) *obj {
	fy, ty := from.num("y")+from.num("height")*0.5, to.num("y")+to.num("height")*0.5
	sx, ex := from.num("x")+from.num("width"), to.num("x")
	mid := r2((sx + ex) / 2)
	abs := [][2]float64{{sx, fy}, {mid, fy}, {mid, ty}, {ex, ty}}
	if fy == ty {
		abs = [][2]float64{{sx, fy}, {ex, ty}}
	}
	st.roundness = nil
	o := b.linear("arrow", abs, st)
	o.set("startBinding", binding(from, 0, 1, []float64{1, 0.5})).set("endBinding", binding(to, 0, 1, []float64{0, 0.5})).
		set("elbowed", true).set("fixedSegments", nil).set("startIsSpecial", nil).set("endIsSpecial", nil)
	b.bind(from, "arrow", o.str("id"))
	b.bind(to, "arrow", o.str("id"))
	return o
}

// freedraw is a pen stroke through absolute points; pressures nil means
// a mouse stroke (simulatePressure).
func (b *builder) freedraw(abs [][2]float64, pressures []float64, committed bool, st style) *obj {
	x0, y0, pts, minX, minY, maxX, maxY := relative(abs)
	o := b.base("freedraw", x0+minX, y0+minY, maxX-minX, maxY-minY, st)
	// x and y are the first point's position: the box is from the points.
	o.set("x", x0).set("y", y0)
	ps := []any{}
	for _, p := range pressures {
		ps = append(ps, math.Round(p*1000)/1000)
	}
	var last any
	if committed {
		last = pts[len(pts)-1]
	}
	o.set("points", pts).set("pressures", ps).set("simulatePressure", pressures == nil).set("lastCommittedPoint", last)
	return o
}

// image places a PNG, adding it to the scene's files once.
func (b *builder) image(x, y, w, h float64, png []byte, st style) *obj {
	sum := sha1.Sum(png)
	fileID := hex.EncodeToString(sum[:])
	if b.files.get(fileID) == nil {
		t := b.tick()
		b.files.set(fileID, newObj().set("mimeType", "image/png").set("id", fileID).
			set("dataURL", "data:image/png;base64,"+base64.StdEncoding.EncodeToString(png)).set("created", t).set("lastRetrieved", t))
	}
	o := b.base("image", x, y, w, h, st)
	o.set("status", "saved").set("fileId", fileID).set("scale", []any{1.0, 1.0}).set("crop", nil)
	return o
}

// frame is a frame (or magicframe) around the given children, which it
// marks with its id; it follows them in the element order.
func (b *builder) frame(typ, name string, x, y, w, h float64, children ...*obj) *obj {
	o := b.base(typ, x, y, w, h, style{stroke: "#bbb", roughness: 0})
	o.set("name", nullable(name))
	for _, c := range children {
		c.set("frameId", o.str("id"))
	}
	return o
}

// document wraps the elements in a scene.
func (b *builder) document(source, background string, version int) []byte {
	els := make([]any, len(b.els))
	for i, e := range b.els {
		els[i] = e
	}
	app := newObj()
	if !b.legacy {
		app.set("gridSize", 20).set("gridStep", 5).set("gridModeEnabled", false)
	} else {
		app.set("gridSize", nil)
	}
	app.set("viewBackgroundColor", background)
	d := newObj().set("type", "excalidraw").set("version", version).set("source", source).set("elements", els).set("appState", app)
	if !b.legacy || len(b.files.keys) > 0 {
		d.set("files", b.files)
	}
	return encode(d, source == srcVSCode)
}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }
