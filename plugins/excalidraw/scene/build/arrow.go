package build

import (
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// newBindable are the new element types an arrow may bind to.
var newBindable = map[string]bool{"rectangle": true, "ellipse": true, "diamond": true, "text": true, "image": true}

// resolveTargets checks every arrow's startElementId/endElementId against
// the new and existing elements.
func (b *builder) resolveTargets() error {
	for _, m := range b.made {
		if m.Type != "arrow" {
			continue
		}
		var err error
		if m.StartElementID != nil {
			if m.start, err = b.resolveTarget(m.index, "/startElementId", *m.StartElementID); err != nil {
				return err
			}
		}
		if m.EndElementID != nil {
			if m.end, err = b.resolveTarget(m.index, "/endElementId", *m.EndElementID); err != nil {
				return err
			}
		}
	}
	return nil
}

// resolveTarget checks that id names an element an arrow can bind to.
func (b *builder) resolveTarget(index int, pointer, id string) (string, error) {
	if n, ok := b.byID[id]; ok {
		if !newBindable[n.Type] {
			return "", inputError(sceneerr.InvalidReference, index, pointer,
				"element %q (element %d of this call) is a %s; arrows bind to rectangles, ellipses, diamonds, text and images", id, n.index, n.Type)
		}
		return id, nil
	}
	el, ok := b.sc.live(id)
	if !ok {
		return "", inputError(sceneerr.InvalidReference, index, pointer, "no element with id %q in the scene or this call", id)
	}
	t, _ := el.String("type")
	if !bindableTypes[t] {
		return "", inputError(sceneerr.InvalidReference, index, pointer, "element %q is a %s, which arrows cannot bind to", id, t)
	}
	if container, ok := el.String("containerId"); ok && t == "text" {
		return "", inputError(sceneerr.InvalidReference, index, pointer,
			"element %q is the label of %q; bind to %q instead", id, container, container)
	}
	return id, nil
}

// target returns the bind target for a resolved id. A new element is
// used as built; an existing one is copied into Updated (version bumped,
// as any edit does) the first time an arrow binds to it.
func (b *builder) target(id string) *bindTarget {
	if t, ok := b.targets[id]; ok {
		return t
	}
	var el *ojson.Object
	if n, ok := b.byID[id]; ok {
		el = n.el
	} else {
		el = b.touch(b.sc.byID.Get(id))
	}
	s, sw := shapeOf(el)
	t := newBindTarget(id, s, sw, el)
	b.targets[id] = t
	return t
}

// touch copies an existing element into Updated as an edit would leave
// it: version + 1, a new versionNonce and updated time.
func (b *builder) touch(orig *ojson.Object) *ojson.Object {
	el := orig.Clone()
	v, _ := el.Number("version")
	el.Set("version", int64(v)+1)
	el.Set("versionNonce", b.rnd.integer())
	el.Set("updated", b.now)
	b.updated = append(b.updated, el)
	return el
}

// buildArrow routes an arrow, binds its ends on both sides and lays out
// its label.
func (b *builder) buildArrow(m *made) error {
	m.style = resolveStyle(m.input, m.link)
	var ts, te *bindTarget
	if m.start != "" {
		ts = b.target(m.start)
	}
	if m.end != "" {
		te = b.target(m.end)
	}
	elbowed := orBool(m.Elbowed, false)
	var (
		p            path
		startB, endB any
	)
	if elbowed {
		in := inputPath(m.input)
		if m.route != nil {
			in = path{origin: m.route[0], rel: make([]geom.Vec, len(m.route))}
			for i, q := range m.route {
				in.rel[i] = q.Sub(m.route[0])
			}
		}
		var at, msg string
		if p, at, msg = elbowPath(in, ts, te); msg != "" {
			return badInput(m.index, at, "%s", msg)
		}
		if ts != nil {
			startB = ts.elbowBinding(p.global(0))
		}
		if te != nil {
			endB = te.elbowBinding(p.global(len(p.rel) - 1))
		}
		if m.Roundness == nil {
			m.style.roundness = 0
		}
	} else {
		var err error
		if p, startB, endB, err = routeArrow(m.input, ts, te); err != nil {
			return badInput(m.index, "/endElementId", "%v", err)
		}
	}
	m.el = baseElement(m.id, "arrow", p.box(), m.style, b.stamp())
	linearFields(m.el, p, startB, endB, arrowhead(m.StartArrowhead, nil), arrowhead(m.EndArrowhead, "arrow"), false)
	if elbowed {
		elbowFields(m.el, p)
	}
	if ts != nil {
		addBound(ts.el, "arrow", m.id)
	}
	if te != nil && te != ts {
		addBound(te.el, "arrow", m.id)
	}
	if m.Label != nil {
		lts := labelStyle(m.Label, m.labelFamily)
		original := textmetrics.NormalizeText(m.Label.Text)
		text, tb := arrowLabel(p.globals(), p.box().W, original, lts, true)
		m.label = labelElement(m.labelID, m.id, text, original, tb, lts, labelElementStyle(m.style, m.Label), b.stamp())
		addBound(m.el, "text", m.labelID)
	}
	return nil
}

// routeArrow computes an arrow's path and bindings: a straight route
// between two outlines when both ends bind and the input gave no path,
// otherwise the input's path with each bound end snapped onto its
// target's outline.
func routeArrow(in *input, ts, te *bindTarget) (path, any, any, error) {
	if ts != nil && te != nil && in.Points == nil && in.Width == nil && in.Height == nil {
		s, e, err := routeBetween(ts, te)
		if err != nil {
			return path{}, nil, nil, err
		}
		p := path{origin: s, rel: []geom.Vec{{}, e.Sub(s)}}
		return p, ts.bindingValue(s, e, true), te.bindingValue(e, s, true), nil
	}
	p := inputPath(in)
	n := len(p.rel)
	if ts != nil {
		p.setGlobal(0, snapEnd(ts, p.global(0), p.global(1)))
	}
	if te != nil {
		p.setGlobal(n-1, snapEnd(te, p.global(n-1), p.global(n-2)))
	}
	var startB, endB any
	if ts != nil {
		startB = ts.bindingValue(p.global(0), p.global(1), false)
	}
	if te != nil {
		endB = te.bindingValue(p.global(n-1), p.global(n-2), false)
	}
	return p.normalized(), startB, endB, nil
}
