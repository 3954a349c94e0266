package lint

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	model "github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// el is one live element in one scene: what the rules read of it
// (elData, shared by every scene that holds the element's version) and
// what depends on the scene around it. A scene allocates these in one
// block, so they are kept small.
type el struct {
	*elData
	pos   int        // position in the elements array
	idx   int        // position in scene.els
	z     float64    // drawing order: higher is drawn later (on top)
	label int        // index (in scene.els) of the bound text, -1
	box   geom.Rect  // where it is drawn: stored, but an arrow's label moved onto the arrow (placeLinearLabels)
	ink   *inkLayout // a text's lines' letters (inkLines), computed on first use
}

// elData is what the rules read of one element's version, parsed once:
// a frozen element's is shared by every scene that holds it (and read
// by them at once), so nothing changes it once parseEl returns.
type elData struct {
	o *ojson.Object

	id, typ           string
	x, y, w, h, angle float64
	finite            bool       // x, y, width, height and angle are finite numbers
	stored            geom.Rect  // rotated bounding box (points' box for linear elements)
	pts               []geom.Vec // global points of arrows, lines and freedraw; nil if malformed
	elbowed           bool       // an elbow arrow, drawn with straight segments whatever its roundness
	// The outline of a box shape (outline) and an arrow's drawn path
	// (path), computed on first use by whichever scene asks first.
	poly, drawn atomic.Pointer[[]geom.Vec]

	groups           []string
	frame, container string
	start, end       string // binding targets of an arrow
	hasStart, hasEnd bool
	bound            []boundRef
	stroke, bg, fill string
	opacity          float64
	index            string
	indexOK          bool   // index is a valid fractional index
	zero             bool   // every point within minLinearLength of the first (isZeroLength)
	strokeKey        string // the stroke colour strokeColors counts, "" for none
	txt, orig        string // a text's text and originalText
	blank            bool   // a text of nothing but whitespace
	isDeleted        bool
	roundness        int // roundness.type, 0 when sharp
	fontSize         float64
	fontFamily       float64
	hasFontSize      bool
	hasFontFamily    bool
}

type boundRef struct{ id, typ string }

// Element classes.
func isBoxShape(t string) bool {
	switch t {
	case "rectangle", "ellipse", "diamond", "image", "embeddable", "iframe":
		return true
	}
	return false
}

func isFrame(t string) bool   { return t == "frame" || t == "magicframe" }
func hasPoints(t string) bool { return model.IsLinear(t) || t == "freedraw" }

// isSized: types whose width and height are their own (not derived from
// points).
func isSized(t string) bool { return isBoxShape(t) || isFrame(t) || t == "text" }

// scene is one Run's state.
type scene struct {
	opts    Options
	block   []el            // a record for each element, by position (elData nil for a null)
	els     []*el           // live elements with an id, in array order
	byID    map[string]int  // id → index into els (first live one)
	deleted map[string]bool // ids whose only elements are deleted
	tombs   map[string]*el  // the first deleted element of each id
	out     []Finding

	canvas rgba
	index  *grid        // every live element with a finite box, built on first use
	near   map[int]bool // with a scope: elements near a scoped one
	visits int          // candidates the spatial index returned (tests check it grows linearly)
	beside [][]*el      // by index: the arrows and texts near an arrow (besideArrow), looked up on first use
	// Under a scope: the live scoped elements and those near them
	// (subjects), in array order, listed on first use.
	scoped, nearby []*el
	texts          []*el // the texts in scope (scopedTexts), listed on first use
	// kept are a model's findings of the wholeScene rules by code, once
	// run; nil for a scene of one Run.
	kept map[string][]Finding
	// follows: the scene was read after prev (newScene) with the same
	// ids at the same positions; edits are the elements whose record
	// differs from prev's, and prior what this scene may take again of
	// prev's when the edits leave it alone.
	follows bool
	edits   []edit
	prior   prior
	refs    *refIndex // built on first use (references)
}

// prior is what a model's scene read after another version (newScene's
// prev) may take of it: the findings prev's model had kept (for
// keptWhile) and its reference index (for sameRefs edits).
type prior struct {
	kept map[string][]Finding
	refs *refIndex
}

// refIndex is what the elements' references say, over every element:
// which elements name each id, and the boundElements entries that do
// not hold (staleBoundEntries). It depends on the ids at each position
// and on what sameRefs compares, so a version whose edits leave that
// alone has the one before's.
type refIndex struct {
	to       map[string][]int // id → the elements (indexes into els) whose startBinding, endBinding, containerId, frameId or boundElements names it
	carriers []string         // the elements with stale entries, in array order
	entries  int              // how many stale entries they have
	first    string           // why the first does not hold
}

// references returns the scene's reference index: prior's when the
// scene follows it with edits that leave references alone, else built.
func (s *scene) references() *refIndex {
	if s.refs != nil {
		return s.refs
	}
	if s.follows && s.prior.refs != nil && !slices.ContainsFunc(s.edits, func(e edit) bool { return !sameRefs(e.was, e.is) }) {
		s.refs = s.prior.refs
		return s.refs
	}
	r := &refIndex{to: map[string][]int{}}
	for i, e := range s.els {
		for _, id := range [...]string{e.start, e.end, e.container, e.frame} {
			if id != "" {
				r.to[id] = append(r.to[id], i)
			}
		}
		for _, b := range e.bound {
			r.to[b.id] = append(r.to[b.id], i)
		}
		n := 0
		for k, b := range e.bound {
			if slices.ContainsFunc(e.bound[:k], func(c boundRef) bool { return c.id == b.id }) {
				continue
			}
			why := s.staleEntry(e, b)
			if why == "" {
				continue
			}
			if r.first == "" {
				r.first = why
			}
			n++
		}
		if n > 0 {
			r.entries += n
			r.carriers = append(r.carriers, e.id)
		}
	}
	s.refs = r
	return r
}

// edit is an element's record in the version before and in this one.
type edit struct{ was, is *elData }

// newScene reads the elements for one Run. prev, when not nil, is a
// scene of another version of them (the one a write started from), read
// only: when the elements hold the same ids at the same positions, the
// new scene shares its id index rather than building one.
func newScene(elements []*ojson.Object, o Options, prev *scene) *scene {
	s := &scene{opts: o, tombs: map[string]*el{}}
	bg := o.ViewBackgroundColor
	if bg == "" {
		bg = "#ffffff"
	}
	if c, ok := parseColor(bg); ok {
		s.canvas = c.over(white)
	} else {
		s.canvas = white
	}
	s.block = make([]el, len(elements)) // one allocation for every record
	for pos, obj := range elements {
		if obj != nil {
			parsed(&s.block[pos], pos, obj)
		}
	}
	if s.edits, s.follows = s.editsFrom(prev); s.follows {
		s.byID, s.deleted = prev.byID, prev.deleted
		s.els = make([]*el, len(prev.els))
		for i, p := range prev.els {
			e := &s.block[p.pos]
			e.idx = i
			s.els[i] = e
		}
		for id, t := range prev.tombs {
			s.tombs[id] = &s.block[t.pos]
		}
	} else {
		s.index1()
	}
	s.order()
	for i, e := range s.els {
		if e.typ == "text" && e.container != "" {
			if c, ok := s.byID[e.container]; ok && s.els[c].label < 0 {
				s.els[c].label = i
			}
		}
	}
	s.zLabels()
	s.placeLinearLabels()
	s.scope(o.Scope)
	return s
}

// index1 lists the live elements with an id (the first of each id) and
// indexes them, their ids and the deleted ones.
func (s *scene) index1() {
	s.byID, s.deleted = make(map[string]int, len(s.block)), map[string]bool{}
	s.els = make([]*el, 0, len(s.block))
	for pos := range s.block {
		e := &s.block[pos]
		if e.elData == nil || e.id == "" {
			continue
		}
		id := e.id
		if e.isDeleted {
			if s.tombs[id] == nil {
				s.tombs[id] = e
			}
			if _, live := s.byID[id]; !live {
				s.deleted[id] = true
			}
			continue
		}
		if _, dup := s.byID[id]; dup {
			continue
		}
		delete(s.deleted, id)
		e.idx = len(s.els)
		s.byID[id] = e.idx
		s.els = append(s.els, e)
	}
}

// editsFrom reports whether prev's elements hold the same ids, deleted
// or not, at the same positions as s's (what index1 reads), and lists
// the elements whose record differs.
func (s *scene) editsFrom(prev *scene) ([]edit, bool) {
	if prev == nil || len(prev.block) != len(s.block) {
		return nil, false
	}
	var edits []edit
	for pos := range s.block {
		a, b := prev.block[pos].elData, s.block[pos].elData
		if a == b {
			continue
		}
		if a == nil || b == nil || a.id != b.id || a.isDeleted != b.isDeleted {
			return nil, false
		}
		edits = append(edits, edit{a, b})
	}
	return edits, true
}

// scope limits the findings of the rules run next to those involving
// these ids (nil: all), as Options.Scope does.
func (s *scene) scope(ids map[string]bool) {
	s.opts.Scope, s.near, s.scoped, s.nearby, s.texts = ids, nil, nil, nil, nil
	if ids != nil {
		s.near = s.nearScope()
	}
}

// subjects are the elements passing subject, in array order: every
// element without a scope. A rule that skips the others loops over
// these, so its cost follows the scope.
func (s *scene) subjects() []*el {
	if s.near == nil {
		return s.els
	}
	if s.nearby == nil {
		s.nearby = s.inOrder(func(yield func(int)) {
			for i := range s.near {
				yield(i)
			}
		})
	}
	return s.nearby
}

// scopedEls are the live elements whose id is in scope, in array order:
// every element without a scope.
func (s *scene) scopedEls() []*el {
	if s.opts.Scope == nil {
		return s.els
	}
	if s.scoped == nil {
		s.scoped = s.inOrder(func(yield func(int)) {
			for id := range s.opts.Scope {
				if i, ok := s.byID[id]; ok {
					yield(i)
				}
			}
		})
	}
	return s.scoped
}

// inOrder lists the elements at the indexes each yields (each once), in
// array order, never nil.
func (s *scene) inOrder(each func(yield func(int))) []*el {
	var idx []int
	each(func(i int) { idx = append(idx, i) })
	slices.Sort(idx)
	idx = slices.Compact(idx)
	out := make([]*el, len(idx))
	for k, i := range idx {
		out[k] = s.els[i]
	}
	return out
}

// parsed sets e to the record of o at pos in a new scene: its elData
// is o's derived record when o is frozen (a sealed document's element:
// the same for every lint of every write that shares it), else parsed
// for this scene alone.
func parsed(e *el, pos int, o *ojson.Object) {
	d := ojson.Derived(o, parseEl)
	*e = el{elData: d, pos: pos, label: -1, box: d.stored}
}

// parseEl reads what the rules read of an element.
func parseEl(o *ojson.Object) *elData {
	e := &elData{o: o, opacity: 100}
	var okx, oky bool
	var points any
	// One pass over the members: elements have about thirty, and a
	// lookup per field would hash each name.
	o.Range(func(k string, v any) bool {
		switch k {
		case "id":
			e.id, _ = v.(string)
		case "isDeleted":
			e.isDeleted, _ = v.(bool)
		case "type":
			e.typ, _ = v.(string)
		case "x":
			e.x, okx = ojson.AsFloat(v)
		case "y":
			e.y, oky = ojson.AsFloat(v)
		case "width":
			e.w, _ = ojson.AsFloat(v)
		case "height":
			e.h, _ = ojson.AsFloat(v)
		case "angle":
			e.angle, _ = ojson.AsFloat(v)
		case "index":
			e.index, _ = v.(string)
		case "points":
			points = v
		case "groupIds":
			gs, _ := v.([]any)
			for _, g := range gs {
				if s, ok := g.(string); ok && s != "" {
					e.groups = append(e.groups, s)
				}
			}
		case "frameId":
			e.frame, _ = v.(string)
		case "containerId":
			e.container, _ = v.(string)
		case "startBinding":
			if b, ok := v.(*ojson.Object); ok && b != nil {
				e.start, _ = b.String("elementId")
				e.hasStart = true
			}
		case "endBinding":
			if b, ok := v.(*ojson.Object); ok && b != nil {
				e.end, _ = b.String("elementId")
				e.hasEnd = true
			}
		case "boundElements":
			list, _ := v.([]any)
			for _, x := range list {
				if b, ok := x.(*ojson.Object); ok && b != nil {
					id, _ := b.String("id")
					t, _ := b.String("type")
					if id != "" {
						e.bound = append(e.bound, boundRef{id, t})
					}
				}
			}
		case "boundElementIds": // legacy, converted by restore
			list, _ := v.([]any)
			for _, x := range list {
				if id, ok := x.(string); ok && id != "" {
					e.bound = append(e.bound, boundRef{id, ""})
				}
			}
		case "strokeColor":
			e.stroke, _ = v.(string)
		case "backgroundColor":
			e.bg, _ = v.(string)
		case "fillStyle":
			e.fill, _ = v.(string)
		case "opacity":
			if f, ok := ojson.AsFloat(v); ok && finite(f) {
				e.opacity = math.Max(0, math.Min(100, f))
			}
		case "text":
			e.txt, _ = v.(string)
		case "originalText":
			e.orig, _ = v.(string)
		case "elbowed":
			e.elbowed, _ = v.(bool)
		case "roundness":
			if r, ok := v.(*ojson.Object); ok && r != nil {
				if t, ok := r.Number("type"); ok {
					e.roundness = int(t)
				}
			}
		case "fontSize":
			e.fontSize, e.hasFontSize = ojson.AsFloat(v)
		case "fontFamily":
			e.fontFamily, e.hasFontFamily = ojson.AsFloat(v)
		}
		return true
	})
	e.finite = okx && oky && finite(e.x, e.y, e.w, e.h, e.angle)
	if !e.finite {
		e.angle = 0
	}
	if hasPoints(e.typ) {
		e.pts = pointsOf(points, e.x, e.y)
	}
	switch {
	case !e.finite:
		e.stored = geom.R(math.NaN(), math.NaN(), math.NaN(), math.NaN())
	case e.pts != nil:
		e.stored = geom.BoundsOf(e.pts)
	case hasPoints(e.typ):
		e.stored = geom.R(e.x, e.y, e.x, e.y)
	default:
		c := geom.V(e.x+e.w/2, e.y+e.h/2)
		e.stored = geom.BoundsOf([]geom.Vec{geom.Rotate(geom.V(e.x, e.y), c, e.angle), geom.Rotate(geom.V(e.x+e.w, e.y), c, e.angle),
			geom.Rotate(geom.V(e.x+e.w, e.y+e.h), c, e.angle), geom.Rotate(geom.V(e.x, e.y+e.h), c, e.angle)})
	}
	e.blank = e.typ == "text" && strings.TrimSpace(e.txt) == "" && strings.TrimSpace(e.orig) == ""
	// What whole-scene passes would otherwise work out of every element
	// on every run.
	e.indexOK = findex.Validate(e.index) == nil
	e.zero = e.pts != nil && pointsCoincide(e.pts)
	if c := normColor(e.stroke); c != "" && !isFrame(e.typ) {
		if p, ok := parseColor(c); !ok || p.a != 0 {
			e.strokeKey = c
		}
	}
	return e
}

// pointsOf reads a linear element's points in scene coordinates, nil when
// they are missing or malformed.
func pointsOf(v any, x, y float64) []geom.Vec {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return nil
	}
	out := make([]geom.Vec, 0, len(list))
	for _, item := range list {
		pair, ok := item.([]any)
		if !ok || len(pair) < 2 {
			return nil
		}
		px, okx := ojson.AsFloat(pair[0])
		py, oky := ojson.AsFloat(pair[1])
		if !okx || !oky || !finite(px, py) {
			return nil
		}
		out = append(out, geom.V(x+px, y+py))
	}
	return out
}

// order sets z: by fractional index when every live element has a valid
// one (ties by array position), else by array position. In a scene
// Normalize wrote both orders agree.
func (s *scene) order() {
	sorted := true
	for i, e := range s.els {
		if !e.indexOK {
			for j := range s.els {
				s.els[j].z = float64(j)
			}
			return
		}
		sorted = sorted && (i == 0 || s.els[i-1].index <= e.index)
	}
	if sorted { // as Normalize writes them: the ranks are the positions
		for i, e := range s.els {
			e.z = float64(i)
		}
		return
	}
	idx := make([]int, len(s.els))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(s.els[a].index, s.els[b].index) })
	for rank, i := range idx {
		s.els[i].z = float64(rank)
	}
}

// zLabels puts each bound text just above its container: Excalidraw
// draws a container's text right after the container, wherever the text
// is in the array.
func (s *scene) zLabels() {
	for _, e := range s.els {
		if e.label >= 0 {
			s.els[e.label].z = e.z + 0.5
		}
	}
}

// placeLinearLabels moves the box of each arrow's (or line's) label to
// where the editor draws it, whatever its stored x and y say
// (LinearElementEditor.getBoundTextElementPosition): centred on the
// middle point of an odd number of points, else on the middle of the
// middle segment (of the curve, for a curved one).
func (s *scene) placeLinearLabels() {
	for _, c := range s.els {
		if c.label < 0 || !model.IsLinear(c.typ) || len(c.pts) == 0 || !c.finite {
			continue
		}
		t := s.els[c.label]
		if !t.finite {
			continue
		}
		var mid geom.Vec
		switch n := len(c.pts); {
		case n%2 == 1:
			mid = c.pts[n/2]
		case len(c.path()) > n:
			// The middle of the middle cubic (the editor measures
			// half its length; the two are close).
			mid = c.path()[(n/2-1)*pathSamples+pathSamples/2]
		default:
			mid = c.pts[n/2-1].Lerp(c.pts[n/2], 0.5)
		}
		d := mid.Sub(t.box.Center())
		t.box = geom.R(t.box.MinX+d.X, t.box.MinY+d.Y, t.box.MaxX+d.X, t.box.MaxY+d.Y)
	}
}

// get returns the live element with the id.
func (s *scene) get(id string) (*el, bool) {
	i, ok := s.byID[id]
	if !ok {
		return nil, false
	}
	return s.els[i], true
}

// labelOf returns the bound text of a container, nil if none.
func (s *scene) labelOf(e *el) *el {
	if e.label < 0 {
		return nil
	}
	return s.els[e.label]
}

// containerOf returns the live container of a bound text.
func (s *scene) containerOf(e *el) *el {
	if e.typ != "text" || e.container == "" {
		return nil
	}
	c, _ := s.get(e.container)
	return c
}

// isLabel: a text bound to a live container that has it as its label.
func (s *scene) isLabel(e *el) bool {
	c := s.containerOf(e)
	return c != nil && c.label >= 0 && s.els[c.label] == e
}

// outline is a box shape's outline as Excalidraw draws it (and as the
// builder binds to it), computed once.
func (e *el) outline() []geom.Vec {
	if p := e.poly.Load(); p != nil {
		return *p
	}
	p := geom.Shape{Type: e.typ, X: e.x, Y: e.y, W: e.w, H: e.h, Angle: e.angle, Roundness: e.roundness}.Outline()
	e.poly.Store(&p)
	return p
}

// text is a text element's text, originalText when text is empty.
func (e *el) text() string {
	if e.txt != "" {
		return e.txt
	}
	return e.orig
}

// shownText is the text an element shows: its own (text), or its label's.
func (s *scene) shownText(e *el) string {
	if e.typ == "text" {
		return e.text()
	}
	if l := s.labelOf(e); l != nil {
		return l.text()
	}
	return ""
}

// name names an element in a message: its type and id, with the start of
// its text when it shows any.
func (s *scene) name(e *el) string {
	n := fmt.Sprintf("%s %q", e.typ, e.id)
	if t := strings.Join(strings.Fields(s.shownText(e)), " "); t != "" {
		if r := []rune(t); len(r) > 24 {
			t = string(r[:23]) + "…"
		}
		n += fmt.Sprintf(" (%q)", t)
	}
	return n
}

// sameGroup reports whether two elements share a group.
func sameGroup(a, b *el) bool {
	for _, g := range a.groups {
		if slices.Contains(b.groups, g) {
			return true
		}
	}
	return false
}

// inScope reports whether the id is in the scope (everything is, without
// one).
func (s *scene) inScope(id string) bool {
	return s.opts.Scope == nil || s.opts.Scope[id]
}

// subject reports whether a spatial rule should examine element i: every
// element without a scope, else those near a scoped element.
func (s *scene) subject(i int) bool {
	return s.near == nil || s.near[i]
}

// nearScope is the set of live elements whose box comes within nearMargin
// of a scoped element's box, the scoped ones included.
func (s *scene) nearScope() map[int]bool {
	near := map[int]bool{}
	g := s.spatial()
	for id := range s.opts.Scope {
		i, ok := s.byID[id]
		if !ok {
			continue
		}
		near[i] = true
		if !s.els[i].finite {
			continue
		}
		g.query(s.els[i].box.Expand(nearMargin), func(j int) { near[j] = true })
	}
	return near
}

// spatial returns the spatial index of the live elements, built on
// first use. Rules share it and filter what a query returns.
func (s *scene) spatial() *grid {
	if s.index != nil {
		return s.index
	}
	boxes := make([]geom.Rect, len(s.els))
	items := make([]int, 0, len(s.els))
	for i, e := range s.els {
		boxes[i] = e.box
		if e.finite {
			items = append(items, i)
		}
	}
	s.index = newGrid(boxes, items)
	return s.index
}

// spatialFrom gives s a spatial index derived from prev's (grid.over),
// when prev has one and s is a version of prev with few boxes changed:
// the next write's model then needs no index of its own built. It
// shares prev's index read only, so prev may be used at the same time.
func (s *scene) spatialFrom(prev *scene) {
	if s.index != nil || prev == nil || prev.index == nil {
		return
	}
	boxes := make([]geom.Rect, len(s.els))
	for i, e := range s.els {
		boxes[i] = e.box
	}
	if g, ok := prev.index.over(boxes, func(i int) bool { return s.els[i].finite }); ok {
		s.index = g
	}
}

// query calls fn for each live element passing keep whose box intersects
// r, in array order.
func (s *scene) query(r geom.Rect, keep func(*el) bool, fn func(*el)) {
	s.spatial().query(r, func(j int) {
		s.visits++
		if e := s.els[j]; keep(e) {
			fn(e)
		}
	})
}

// report adds a finding. ids are sorted and deduplicated here.
func (s *scene) report(code string, ids []string, suggestion map[string]any, format string, args ...any) {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	s.out = append(s.out, Finding{Code: code, Severity: ruleByCode[code].Severity, IDs: ids,
		Message: fmt.Sprintf(format, args...), Suggestion: suggestion})
}

// finish filters by scope, sorts and removes duplicate keys.
func (s *scene) finish() []Finding {
	out := s.out[:0]
	for _, f := range s.out {
		if s.opts.Scope != nil && !slices.ContainsFunc(f.IDs, func(id string) bool { return s.opts.Scope[id] }) {
			continue
		}
		out = append(out, f)
	}
	sortFindings(out)
	seen := make(map[string]bool, len(out))
	res := make([]Finding, 0, len(out))
	for _, f := range out {
		k := f.Key()
		if seen[k] {
			continue
		}
		seen[k] = true
		res = append(res, f)
	}
	return res
}
