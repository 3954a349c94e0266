package engine

import (
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/internal/jsonpointer"
	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// CreateResult is what Create made: the new elements' ids in input order
// (labels excluded), and the id each ref was given.
type CreateResult struct {
	IDs  []string          `json:"ids"`
	Refs map[string]string `json:"refs"`
}

// DefaultPlaceGap is the distance Create leaves between an element placed
// relative to another and that other, when the placement gives none.
const DefaultPlaceGap = 40

// refPattern is what a ref must match: the shape of an agent-chosen id.
var refPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// placeDirections are the sides an element can be placed on.
var placeDirections = []string{"rightOf", "leftOf", "below", "above"}

// Create builds element inputs as Add does (build.InputSchema), with two
// members more, which it strips before the builder sees the input:
//
//   - "ref": a short alias (^[A-Za-z0-9_-]{1,64}$, unique in the call)
//     that other inputs of the call may name wherever they name an
//     element: an arrow's startElementId/endElementId and a placement.
//     A ref is not an id: the element gets its input's id, or a
//     generated one, and Refs says which. A ref may not be the id of
//     another element of the scene or of the call.
//   - "place": {"rightOf"|"leftOf"|"below"|"above": ref or id, "gap":
//     number (default 40), "align": "start"|"center"|"end" (default
//     center)} instead of x/y: the element's box is put on that side of
//     the named element's box, gap away, aligned on the other axis
//     (start: top or left edges flush, end: bottom or right). The named
//     element is one of the scene or one given earlier in the call; the
//     boxes are the elements as built (a labelled box grown to fit its
//     label) and as drawn (rotation, points). Arrows are not placed.
//
// The inputs other than arrows are built first, together, and placed in
// input order; the arrows are built after them, together, so that they
// bind to the placed elements by id and to each other as in Add. Arrows
// therefore sit above the call's other elements. Errors are located under
// pointer/<i> like Add's: a bad ref or place is invalid_operation, a
// placement naming no element, a later one or an arrow is
// invalid_reference (at pointer/<i>/place/<side>).
func (tx *Txn) Create(inputs []json.RawMessage, pointer string) (CreateResult, error) {
	var res CreateResult
	err := tx.do(func() (err error) {
		res, err = tx.create(inputs, func(i int) string { return pointer + "/" + strconv.Itoa(i) })
		return err
	})
	return res, err
}

// createItem is one input of a Create call.
type createItem struct {
	obj *ojson.Object // nil when the input is no JSON object: the builder says why
	raw json.RawMessage
	// edited: obj is no longer what raw says (a ref or place taken out,
	// an end bound to a ref's id), so the builder gets obj encoded anew.
	edited bool
	typ    string
	ref    string
	id     string // given or built
	place  *placement
}

// placement is a checked "place".
type placement struct {
	side, of, align string
	gap             float64
}

// creation carries one Create call's state.
type creation struct {
	tx    *Txn
	at    func(int) string
	items []*createItem
	refs  map[string]int // ref → input
	given map[string]int // explicit id → input
}

func (tx *Txn) create(inputs []json.RawMessage, at func(int) string) (CreateResult, error) {
	tx.index()
	c := &creation{tx: tx, at: at, refs: map[string]int{}, given: map[string]int{}}
	if err := c.read(inputs); err != nil {
		return CreateResult{}, err
	}
	if err := c.checkNames(); err != nil {
		return CreateResult{}, err
	}
	if err := c.build(func(it *createItem) bool { return it.typ != "arrow" }); err != nil {
		return CreateResult{}, err
	}
	tx.index()
	for i, it := range c.items {
		if it.place != nil {
			if err := c.placeItem(i, it); err != nil {
				return CreateResult{}, err
			}
		}
	}
	for i, it := range c.items {
		if it.typ == "arrow" {
			if err := c.bindRefs(i, it); err != nil {
				return CreateResult{}, err
			}
		}
	}
	if err := c.build(func(it *createItem) bool { return it.typ == "arrow" }); err != nil {
		return CreateResult{}, err
	}
	tx.index()
	res := CreateResult{IDs: make([]string, len(c.items)), Refs: map[string]string{}}
	for i, it := range c.items {
		res.IDs[i] = it.id
		if it.ref != "" {
			res.Refs[it.ref] = it.id
		}
		tx.note(it.id)
	}
	tx.result.Added += len(c.items)
	return res, nil
}

// read decodes the inputs and takes their ref and place out.
func (c *creation) read(inputs []json.RawMessage) error {
	for i, raw := range inputs {
		it := &createItem{raw: raw}
		c.items = append(c.items, it)
		v, err := ojson.Decode(raw, ojson.Limits{})
		obj, _ := v.(*ojson.Object)
		if err != nil || obj == nil {
			continue
		}
		it.obj, it.typ = obj, scene.StringOf(obj, "type")
		if id, ok := obj.String("id"); ok {
			if j, dup := c.given[id]; dup {
				return sceneerr.New(sceneerr.DuplicateID, "id %q is already used by element %d of this call", id, j).
					With("pointer", c.at(i)+"/id")
			}
			c.given[id] = i
			it.id = id
		}
		if v, ok := obj.Get("ref"); ok {
			ref, _ := v.(string)
			if !refPattern.MatchString(ref) {
				return opError(c.at(i)+"/ref", "ref must be a string matching %s", refPattern)
			}
			if j, dup := c.refs[ref]; dup {
				return opError(c.at(i)+"/ref", "ref %q is already given to element %d of this call", ref, j)
			}
			c.refs[ref] = i
			it.ref = ref
			obj.Delete("ref")
			it.edited = true
		}
		if v, ok := obj.Get("place"); ok {
			if it.place, err = c.readPlace(i, it, v); err != nil {
				return err
			}
			obj.Delete("place")
			obj.Set("x", 0).Set("y", 0) // placed once built (placeItem)
			it.edited = true
		}
	}
	return nil
}

// readPlace checks a "place" member.
func (c *creation) readPlace(i int, it *createItem, v any) (*placement, error) {
	ptr := c.at(i) + "/place"
	o, ok := v.(*ojson.Object)
	if !ok {
		return nil, opError(ptr, "place must be an object such as {\"rightOf\": \"ref\", \"gap\": 40}")
	}
	if it.typ == "arrow" {
		return nil, opError(ptr, "arrows are not placed: bind their ends (startElementId, endElementId) or give x/y")
	}
	if it.obj.Has("x") || it.obj.Has("y") {
		return nil, opError(ptr, "give place or x/y, not both")
	}
	p := &placement{gap: DefaultPlaceGap, align: "center"}
	for _, k := range o.Keys() {
		val, _ := o.Get(k)
		kp := ptr + "/" + jsonpointer.Escape(k)
		switch k {
		case "rightOf", "leftOf", "below", "above":
			s, ok := val.(string)
			if !ok || s == "" || len(s) > maxRefLength {
				return nil, opError(kp, "%s must name an element: a ref or an id", k)
			}
			if p.side != "" {
				return nil, opError(kp, "place takes one of %s, not both %s and %s", listOf(placeDirections), p.side, k)
			}
			p.side, p.of = k, s
		case "gap":
			f, ok := ojson.AsFloat(val)
			if !ok || math.IsNaN(f) || f < 0 || f > maxCoord {
				return nil, opError(kp, "gap must be a number from 0 to 1e6")
			}
			p.gap = f
		case "align":
			s, _ := val.(string)
			if s != "start" && s != "center" && s != "end" {
				return nil, opError(kp, `align must be "start", "center" or "end"`)
			}
			p.align = s
		default:
			return nil, opError(kp, "unknown member %q of place; allowed: %s, gap, align", k, listOf(placeDirections))
		}
	}
	if p.side == "" {
		return nil, opError(ptr, "place needs one of %s", listOf(placeDirections))
	}
	return p, nil
}

// checkNames refuses a ref that is also another element's id, which would
// make a name mean two elements.
func (c *creation) checkNames() error {
	for i, it := range c.items {
		ref := it.ref
		if ref == "" {
			continue
		}
		if j, ok := c.given[ref]; ok && j != i {
			return opError(c.at(i)+"/ref", "ref %q is the id of element %d of this call; choose another ref", ref, j)
		}
		if el := c.tx.byID.Get(ref); el != nil && !scene.IsDeleted(el) && it.id != ref {
			return opError(c.at(i)+"/ref", "ref %q is the id of element %q of the scene; choose another ref", ref, ref)
		}
	}
	return nil
}

// build builds the items which picks, together (Txn.add), and records
// their ids.
func (c *creation) build(picks func(*createItem) bool) error {
	var raws []json.RawMessage
	var which []int
	for i, it := range c.items {
		if !picks(it) {
			continue
		}
		raw := it.raw
		if it.obj != nil && it.edited {
			b, err := ojson.Marshal(it.obj)
			if err != nil {
				return opError(c.at(i), "input does not encode: %v", err)
			}
			raw = b
		}
		raws = append(raws, raw)
		which = append(which, i)
	}
	if len(raws) == 0 {
		return nil
	}
	ids, err := c.tx.add(raws, func(k int) string { return c.at(which[k]) })
	if err != nil {
		return renumber(err, which)
	}
	for k, id := range ids {
		c.items[which[k]].id = id
	}
	return nil
}

// renumber makes a builder error about input k of a batch speak of the
// call's input which[k], in its message ("element k ...") and details.
func renumber(err error, which []int) error {
	var se *sceneerr.Error
	if !errors.As(err, &se) {
		return err
	}
	k, ok := se.Details["index"].(int)
	if !ok || k < 0 || k >= len(which) {
		return err
	}
	prefix := "element " + strconv.Itoa(k)
	if rest, found := strings.CutPrefix(se.Message, prefix); found {
		se.Message = "element " + strconv.Itoa(which[k]) + rest
	}
	se.Details["index"] = which[k]
	return se
}

// resolve finds the element a name (a ref or an id) of input i's field
// at ptr means: an input of the call (its index, -1 otherwise) or an
// element of the scene.
func (c *creation) resolve(name, ptr string) (int, *ojson.Object, error) {
	j, ok := c.refs[name]
	if !ok {
		j, ok = c.given[name]
	}
	if ok {
		return j, c.tx.byID.Get(c.items[j].id), nil
	}
	el := c.tx.byID.Get(name)
	if el == nil || scene.IsDeleted(el) {
		return -1, nil, sceneerr.New(sceneerr.InvalidReference, "no element %q in the scene and no ref %q in this call", name, name).
			With("pointer", ptr)
	}
	return -1, el, nil
}

// placeItem moves built input i (made at 0, 0) to its place.
func (c *creation) placeItem(i int, it *createItem) error {
	p := it.place
	ptr := c.at(i) + "/place/" + p.side
	j, ref, err := c.resolve(p.of, ptr)
	if err != nil {
		return err
	}
	switch {
	case j == i:
		return sceneerr.New(sceneerr.InvalidReference, "an element cannot be placed relative to itself").With("pointer", ptr)
	case j >= 0 && c.items[j].typ == "arrow":
		return sceneerr.New(sceneerr.InvalidReference,
			"%q is an arrow of this call, made after the other elements; place relative to a shape", p.of).With("pointer", ptr)
	case j > i:
		return sceneerr.New(sceneerr.InvalidReference,
			"%q is element %d of this call, which comes later; list it before element %d", p.of, j, i).With("pointer", ptr)
	}
	el := c.tx.byID.Get(it.id)
	to, ok := query.ElementBounds(ref)
	if !ok {
		return sceneerr.New(sceneerr.InvalidReference, "%q has no position to place by", p.of).With("pointer", ptr)
	}
	own, _ := query.ElementBounds(el) // built: finite
	x, y := placeBox(p, to, own.Width, own.Height)
	dx, dy := x-own.X, y-own.Y
	nx, ny := scene.NumberOf(el, "x")+dx, scene.NumberOf(el, "y")+dy
	if math.Abs(nx) > maxCoord || math.Abs(ny) > maxCoord {
		return opError(c.at(i)+"/place", "the placement puts the element at (%s, %s), beyond ±1e6", fmtNum(nx), fmtNum(ny))
	}
	for _, o := range []*ojson.Object{el, c.tx.labelOf(el)} {
		if o != nil {
			o.Set("x", scene.NumberOf(o, "x")+dx)
			o.Set("y", scene.NumberOf(o, "y")+dy)
		}
	}
	return nil
}

// placeBox is the top-left corner of a w×h box placed by p next to box to.
func placeBox(p *placement, to query.Box, w, h float64) (x, y float64) {
	along := func(lo, size, own float64) float64 {
		switch p.align {
		case "start":
			return lo
		case "end":
			return lo + size - own
		}
		return lo + size/2 - own/2
	}
	switch p.side {
	case "rightOf":
		return to.X + to.Width + p.gap, along(to.Y, to.Height, h)
	case "leftOf":
		return to.X - p.gap - w, along(to.Y, to.Height, h)
	case "below":
		return along(to.X, to.Width, w), to.Y + to.Height + p.gap
	}
	return along(to.X, to.Width, w), to.Y - p.gap - h
}

// bindRefs rewrites an arrow's ends that name a ref to that element's id,
// and refuses an end that names an arrow of the call (by ref or id).
func (c *creation) bindRefs(i int, it *createItem) error {
	if it.obj == nil {
		return nil
	}
	for _, k := range []string{"startElementId", "endElementId"} {
		name, ok := it.obj.String(k)
		if !ok {
			continue
		}
		j, isRef := c.refs[name]
		if !isRef {
			if j, ok = c.given[name]; !ok {
				continue
			}
		}
		if c.items[j].typ == "arrow" {
			return sceneerr.New(sceneerr.InvalidReference,
				"%q names an arrow of this call; arrows bind to rectangles, ellipses, diamonds, text and images", name).
				With("pointer", c.at(i)+"/"+k)
		}
		if id := c.items[j].id; id != name {
			it.obj.Set(k, id)
			it.edited = true
		}
	}
	return nil
}
