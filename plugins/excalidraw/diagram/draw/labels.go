package draw

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// labelStep is how far apart the places tried for an edge label are
// along its route.
const labelStep = 8

// labelMargin is the room kept around an edge label.
const labelMargin = 4

// placeLabels finds each edge label a place on its own route where it
// covers nothing: no node, no group's label, no other route and no label
// placed before it. The places tried run along every segment long enough
// for the label; the route's middle wins when it is free, else the free
// place nearest it, and where no place is free the one covering least.
// Excalidraw draws an arrow's label on the arrow's middle point (of an
// odd number of points), so labelled routes get that place as their
// middle point (withMiddle).
func (p *Plan) placeLabels() {
	p.labels = make([]geom.Rect, len(p.Graph.Edges))
	p.labelCrowded = make([]bool, len(p.Graph.Edges))
	var placed []geom.Rect
	// Labels put in their room go first: the others keep clear of them.
	for i, c := range p.forced {
		mid := build.ArrowLabelBox(p.paths[i].Points, p.Graph.Edges[i].Label, p.o.FontFamily, p.o.SmallSize)
		w, h := mid.W(), mid.H()
		p.labels[i] = geom.R(c.X-w/2, c.Y-h/2, c.X+w/2, c.Y+h/2)
		placed = append(placed, p.labels[i].Expand(labelMargin))
	}
	var nodes []geom.Rect
	for _, b := range p.nodes {
		nodes = append(nodes, rectOf(b))
	}
	for _, b := range p.groupLabels {
		nodes = append(nodes, rectOf(b))
	}
	// Each route's box, to pass over the routes far from a place quickly.
	boxes := make([]geom.Rect, len(p.paths))
	for j, q := range p.paths {
		if q != nil {
			boxes[j] = geom.BoundsOf(q.Points).Expand(1)
		}
	}
	for i, e := range p.Graph.Edges {
		path := p.paths[i]
		if path == nil || e.Label == "" {
			continue
		}
		if _, done := p.forced[i]; done {
			continue
		}
		mid := build.ArrowLabelBox(path.Points, e.Label, p.o.FontFamily, p.o.SmallSize)
		w, h := mid.W(), mid.H()
		best, bestCost := mid, math.Inf(1)
		for _, c := range p.labelPlaces(path.Points, mid.Center(), w, h) {
			cost := 0.0
			r := c.box.Expand(labelMargin)
			for _, n := range nodes {
				if r.Overlaps(n) {
					cost += 100
				}
			}
			for _, l := range placed {
				if r.Overlaps(l) {
					cost += 100
				}
			}
			for j, q := range p.paths {
				if j != i && q != nil && boxes[j].Overlaps(r) && crosses(q.Points, r) {
					cost += 100
				}
			}
			cost += c.dist / 1000 // nearest the middle among equals
			if cost < bestCost {
				best, bestCost = c.box, cost
			}
		}
		p.labels[i] = best
		p.labelCrowded[i] = bestCost >= 100
		placed = append(placed, best.Expand(labelMargin))
	}
}

type labelPlace struct {
	box  geom.Rect
	dist float64 // from the route's middle
}

// labelPlaces are the boxes w×h centred on pts' segments, every
// labelStep along each segment the label fits in lengthwise, and the
// middle box itself.
func (p *Plan) labelPlaces(pts []geom.Vec, mid geom.Vec, w, h float64) []labelPlace {
	out := []labelPlace{{box: geom.R(mid.X-w/2, mid.Y-h/2, mid.X+w/2, mid.Y+h/2)}}
	for k := 1; k < len(pts); k++ {
		a, b := pts[k-1], pts[k]
		along := math.Abs(b.X-a.X) + math.Abs(b.Y-a.Y)
		extent := w
		if a.X == b.X {
			extent = h
		}
		// Keep the label off the ends (arrowheads, boxes) by its extent.
		free := along - extent - 2*labelStep
		if free < 0 {
			continue
		}
		d := b.Sub(a).Unit()
		for t := extent/2 + labelStep; t <= along-extent/2-labelStep+1e-9; t += labelStep {
			c := a.Add(d.Scale(t))
			out = append(out, labelPlace{box: geom.R(c.X-w/2, c.Y-h/2, c.X+w/2, c.Y+h/2), dist: c.Dist(mid)})
		}
	}
	return out
}

// crosses reports whether a polyline passes through r's inside.
func crosses(pts []geom.Vec, r geom.Rect) bool {
	for k := 1; k < len(pts); k++ {
		a, b := pts[k-1], pts[k]
		if min(a.X, b.X) < r.MaxX && max(a.X, b.X) > r.MinX && min(a.Y, b.Y) < r.MaxY && max(a.Y, b.Y) > r.MinY {
			return true
		}
	}
	return false
}

// withMiddle is pts with c, a point on one of its segments, made the
// middle point: c is inserted, and points in a line with their
// neighbours are added on the side of c with fewer points (each halving
// the longest segment there) until both sides have as many. The path
// drawn is the same.
func withMiddle(pts []geom.Vec, c geom.Vec) []geom.Vec {
	at := -1
	for k := 1; k < len(pts); k++ {
		a, b := pts[k-1], pts[k]
		if onSegment(a, b, c) {
			at = k
			break
		}
	}
	if at < 0 {
		return pts
	}
	before := append([]geom.Vec{}, pts[:at]...)
	after := append([]geom.Vec{}, pts[at:]...)
	if before[len(before)-1].Equal(c) {
		before = before[:len(before)-1]
	}
	if after[0].Equal(c) {
		after = after[1:]
	}
	for len(before) < len(after) {
		before = splitLongest(append(before, c))
		before = before[:len(before)-1]
	}
	for len(after) < len(before) {
		after = splitLongest(append([]geom.Vec{c}, after...))[1:]
	}
	out := append(before, c)
	return append(out, after...)
}

// splitLongest halves pts' longest segment.
func splitLongest(pts []geom.Vec) []geom.Vec {
	best, bestLen := 1, -1.0
	for k := 1; k < len(pts); k++ {
		if l := pts[k].Dist(pts[k-1]); l > bestLen {
			best, bestLen = k, l
		}
	}
	mid := pts[best-1].Lerp(pts[best], 0.5)
	out := append([]geom.Vec{}, pts[:best]...)
	out = append(out, mid)
	return append(out, pts[best:]...)
}

// onSegment reports whether c lies on the axis-aligned segment a–b.
func onSegment(a, b, c geom.Vec) bool {
	const eps = 1e-6
	return c.X >= min(a.X, b.X)-eps && c.X <= max(a.X, b.X)+eps &&
		c.Y >= min(a.Y, b.Y)-eps && c.Y <= max(a.Y, b.Y)+eps &&
		(math.Abs(a.X-b.X) < eps && math.Abs(c.X-a.X) < eps || math.Abs(a.Y-b.Y) < eps && math.Abs(c.Y-a.Y) < eps)
}

// endLabelAt is where a w×h label goes by the end at of edge i's route,
// whose segment runs on to next: beside the segment, on whichever side
// covers nothing (no node, route, edge label or end label placed before
// it), else the side covering least.
func (p *Plan) endLabelAt(i int, at, next geom.Vec, w, h float64) geom.Vec {
	const off = 6
	d := next.Sub(at).Unit()
	base := at.Add(d.Scale(off + 4))
	var tries []geom.Vec
	if d.X == 0 { // a vertical segment: right or left of it
		y := base.Y
		if d.Y < 0 {
			y -= h
		}
		tries = []geom.Vec{geom.V(base.X+off, y), geom.V(base.X-off-w, y)}
	} else { // horizontal: above or below it
		x := base.X
		if d.X < 0 {
			x -= w
		}
		tries = []geom.Vec{geom.V(x, base.Y-h-off), geom.V(x, base.Y+off)}
	}
	best, bestCost := tries[0], math.Inf(1)
	for _, q := range tries {
		r := geom.R(q.X, q.Y, q.X+w, q.Y+h).Expand(2)
		cost := 0.0
		for _, b := range p.nodes {
			if r.Overlaps(rectOf(b)) {
				cost++
			}
		}
		for j, q := range p.paths {
			if q != nil && crosses(q.Points, r) && j != i {
				cost++
			}
		}
		for _, l := range p.placedEnds {
			if r.Overlaps(l) {
				cost++
			}
		}
		for _, l := range p.labels {
			if l.W() > 0 && r.Overlaps(l) {
				cost++
			}
		}
		if cost < bestCost {
			best, bestCost = q, cost
		}
	}
	p.placedEnds = append(p.placedEnds, geom.R(best.X, best.Y, best.X+w, best.Y+h))
	return best
}

// routeMiddle is where Excalidraw centres an arrow's label on points: the
// middle point of an odd number, else the middle of the middle segment.
func routeMiddle(pts []geom.Vec) geom.Vec {
	n := len(pts)
	if n%2 == 1 {
		return pts[n/2]
	}
	return pts[n/2-1].Lerp(pts[n/2], 0.5)
}
