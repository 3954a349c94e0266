package build

import (
	"encoding/json"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Build validates inputs (each one element input as described by
// InputSchema) and builds their elements for a scene described by ctx.
// It is all or nothing: on error nothing is returned and nothing in ctx
// is modified. Errors are *sceneerr.Error: invalid_operation for bad
// input (details: "index" of the input and "pointer", a JSON pointer
// into it), unsupported_element for a type that cannot be created,
// duplicate_id for an id already taken, invalid_reference for a missing
// or unbindable arrow target, a missing file or frame, and too_large for
// text over ctx.MaxTextLength.
func Build(inputs []json.RawMessage, ctx Context) (*Result, error) {
	sc := sceneOf(ctx)
	items := make([]*checked, len(inputs))
	decoded, errs := decodeInputs(inputs)
	for i := range inputs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		var err error
		if items[i], err = checkInput(i, decoded[i], ctx, sc); err != nil {
			return nil, err
		}
	}
	b := newBuilder(ctx, sc)
	if err := b.assignIDs(items); err != nil {
		return nil, err
	}
	if err := b.resolveTargets(); err != nil {
		return nil, err
	}
	for _, m := range b.made {
		if m.Type != "arrow" {
			b.buildStatic(m)
		}
	}
	if err := b.routeElbows(); err != nil {
		return nil, err
	}
	for _, m := range b.made {
		if m.Type == "arrow" {
			if err := b.buildArrow(m); err != nil {
				return nil, err
			}
		}
	}
	return b.result()
}

// builder carries one Build call's state.
type builder struct {
	ctx     Context
	sc      scene
	rnd     randomSource
	now     int64
	taken   takenIDs // every id in the scene or handed out
	made    []*made
	byID    map[string]*made
	targets map[string]*bindTarget
	updated []*ojson.Object
}

// made is one input and what was built for it.
type made struct {
	*checked
	id, labelID string
	style       style
	el, label   *ojson.Object
	start, end  string     // resolved arrow targets
	route       []geom.Vec // an elbow arrow's route, when the builder routed it
}

func newBuilder(ctx Context, sc scene) *builder {
	return &builder{
		ctx:     ctx,
		sc:      sc,
		rnd:     randomSource{ctx.random()},
		now:     ctx.nowMillis(),
		taken:   takenIDs{sc: sc, own: idsOf{}},
		byID:    map[string]*made{},
		targets: map[string]*bindTarget{},
	}
}

// assignIDs reserves the agents' ids, refusing collisions, then draws the
// missing ones (and the labels') in input order.
func (b *builder) assignIDs(items []*checked) error {
	for _, c := range items {
		m := &made{checked: c}
		b.made = append(b.made, m)
		if c.ID == nil {
			continue
		}
		id := *c.ID
		if b.taken.has(id) {
			return inputError(sceneerr.DuplicateID, c.index, "/id", "an element with id %q already exists in the scene", id)
		}
		if prev, dup := b.byID[id]; dup {
			return inputError(sceneerr.DuplicateID, c.index, "/id", "id %q is already used by element %d of this call", id, prev.index)
		}
		m.id = id
		b.byID[id] = m
	}
	for _, m := range b.made {
		if m.id != "" {
			b.taken.add(m.id)
		}
	}
	for _, m := range b.made {
		if m.id == "" {
			m.id = b.rnd.id(b.taken)
			b.byID[m.id] = m
		}
		if m.Label != nil {
			m.labelID = b.rnd.id(b.taken)
		}
	}
	return nil
}

// stamp draws a new element's seed and nonce.
func (b *builder) stamp() stamp {
	return stamp{seed: b.rnd.integer(), nonce: b.rnd.integer(), updated: b.now}
}

// buildStatic builds an element that does not depend on others: a shape
// (with its label), text, line, freedraw or image.
func (b *builder) buildStatic(m *made) {
	m.style = resolveStyle(m.input, m.link)
	switch {
	case isShape(m.Type):
		b.buildShape(m)
	case m.Type == "text":
		m.el = buildText(m.id, m.input, freeTextStyle(m.input, m.fontFamily), m.style, b.stamp())
	case m.Type == "line":
		m.el = buildLine(m.id, m.input, m.style, b.stamp())
	case m.Type == "freedraw":
		m.el = buildFreedraw(m.id, m.input, m.style, b.stamp())
	case m.Type == "image":
		m.el = buildImage(m.id, m.input, m.style, b.stamp())
	}
}

// buildShape builds a rectangle, ellipse or diamond and its label.
func (b *builder) buildShape(m *made) {
	bx := shapeBox(m.input)
	if m.Label == nil {
		m.el = baseElement(m.id, m.Type, bx, m.style, b.stamp())
		return
	}
	ts := labelStyle(m.Label, m.labelFamily)
	original := textmetrics.NormalizeText(m.Label.Text)
	lay := layoutShapeLabel(m.Type, fitLabel(m.input, bx, original, ts), original, ts)
	m.el = baseElement(m.id, m.Type, lay.container, m.style, b.stamp())
	m.label = labelElement(m.labelID, m.id, lay.text, original, lay.box, ts, labelElementStyle(m.style, m.Label), b.stamp())
	addBound(m.el, "text", m.labelID)
}

// result assigns fractional indices in output order and collects the
// output.
func (b *builder) result() (*Result, error) {
	res := &Result{Updated: b.updated, IDs: make([]string, 0, len(b.made))}
	for _, m := range b.made {
		res.IDs = append(res.IDs, m.id)
		res.Elements = append(res.Elements, m.el)
		if m.label != nil {
			res.Elements = append(res.Elements, m.label)
		}
	}
	keys, err := findex.N(b.sc.lastIndex, "", len(res.Elements))
	if err != nil {
		return nil, sceneerr.New(sceneerr.InvalidOperation, "no room for %d more elements after index %q: %v",
			len(res.Elements), b.sc.lastIndex, err)
	}
	for i, el := range res.Elements {
		el.Set("index", keys[i])
	}
	if res.Updated == nil {
		res.Updated = []*ojson.Object{}
	}
	return res, nil
}
