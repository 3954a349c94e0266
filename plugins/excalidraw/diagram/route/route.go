// Package route draws the edges of a diagram whose boxes are already
// placed as orthogonal routes that go around the boxes, leave and enter
// them perpendicular to a side, spread their ends along the sides and keep
// apart from each other.
//
// It works as libavoid and yFiles do for orthogonal routing. The boxes,
// grown by the clearance, are obstacles; lines through their grown edges
// and through the ports (the middle of each side, and a point facing the
// other end where two boxes face each other across a gap) make an
// orthogonal visibility graph, and each edge is a cheapest path through it
// by A*, where a path costs its length, a penalty per bend, a penalty per
// route already drawn that it crosses (or meets, at a vertex, coming across
// it), a penalty for a side the edge would rather not use and one for a
// side already holding all the ends it has room for. Edges are routed
// shortest first; then each that crosses others is routed once more with
// all the rest in place, and keeps the new route if it crosses fewer.
//
// Then a nudging pass, one axis at a time, moves each segment within the
// free channel it lies in so that segments on one line are spaced apart,
// in an order that follows where their routes come from and go to (so a
// bundle parts without crossing itself where it can), and a segment alone
// between two boxes runs down the middle of the gap. A segment that ends
// on a box moves along its side, which is how the ends on a side spread
// and keep the order of where their routes go. The positions come from a
// separation-constraint solver (VPSC's satisfy step) with the channels as
// bounds; where a channel is too narrow for Options.Spacing, the gaps
// along it shrink until it fits.
//
// A search that takes more than a budget of states (penalties the
// distance does not foresee make it look far) gives up the regions, then
// the crossings, and takes the shortest way with fewest bends, so one
// edge's time stays bounded in a crowded drawing.
//
// Everything is deterministic: the same input gives the same routes. Time
// grows a little faster than the number of edges for a diagram laid out in
// layers (about 15 ms for 100 boxes and 150 edges, 130 ms for 1,000 and
// 1,500 on one core), mostly in the search; long edges across a crowded
// plane cost more, as the search looks further for a way with fewer
// crossings.
package route

import (
	"fmt"
	"math"
	"sort"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// Side is a side of a box.
type Side uint8

// The sides. Auto, as an Edge's preference, leaves the choice to the
// router; a Path's sides are never Auto.
const (
	Auto Side = iota
	Top
	Right
	Bottom
	Left
)

var sideNames = [...]string{"auto", "top", "right", "bottom", "left"}

func (s Side) String() string {
	if int(s) < len(sideNames) {
		return sideNames[s]
	}
	return fmt.Sprintf("Side(%d)", s)
}

// normal is the side's outward unit direction.
func (s Side) normal() (dx, dy float64) {
	switch s {
	case Top:
		return 0, -1
	case Right:
		return 1, 0
	case Bottom:
		return 0, 1
	case Left:
		return -1, 0
	}
	return 0, 0
}

// horizontal reports whether the side lies along x (top and bottom), so
// that a route leaves it vertically.
func (s Side) horizontal() bool { return s == Top || s == Bottom }

// FixedPoint is the point at fraction at along side s as Excalidraw's
// fixedPoint binding gives it: fractions of the box's width and height
// from its top-left corner.
func (s Side) FixedPoint(at float64) [2]float64 {
	switch s {
	case Top:
		return [2]float64{at, 0}
	case Bottom:
		return [2]float64{at, 1}
	case Left:
		return [2]float64{0, at}
	case Right:
		return [2]float64{1, at}
	}
	return [2]float64{0.5, 0.5}
}

// Along is the point at fraction at along side s of box b: from the left
// end of a top or bottom side, from the top end of a left or right side.
func Along(b geom.Rect, s Side, at float64) geom.Vec {
	switch s {
	case Top:
		return geom.V(b.MinX+at*b.W(), b.MinY)
	case Bottom:
		return geom.V(b.MinX+at*b.W(), b.MaxY)
	case Left:
		return geom.V(b.MinX, b.MinY+at*b.H())
	case Right:
		return geom.V(b.MaxX, b.MinY+at*b.H())
	}
	return b.Center()
}

// Edge is an edge to route from box From to box To (ids of boxes; the
// same id twice is a loop).
type Edge struct {
	ID       string
	From, To string
	// FromSide and ToSide are the sides the route would rather leave From
	// and enter To by (a diagram flowing top to bottom suggests Bottom and
	// Top); another side costs Options.SidePenalty. Auto has no preference.
	// A loop that asks for one side at both ends gets the next side
	// clockwise for its end.
	FromSide, ToSide Side
	// Within are the Options.Regions the route may enter freely (those
	// holding its ends).
	Within []string
}

// Options tune the router, in scene units; zero takes the default.
type Options struct {
	// Clearance is the room a route keeps around every box but at its own
	// ends (default 16). Where boxes stand closer than twice it, routes
	// between them keep half, a quarter, or at least 1.
	Clearance float64
	// Spacing is the distance between parallel segments of different
	// routes, and between the ends on one side (default 12); narrower
	// channels space them closer.
	Spacing float64
	// BendPenalty is what a bend costs, as route length (default 40).
	BendPenalty float64
	// CrossingPenalty is what crossing a route already drawn costs
	// (default 200).
	CrossingPenalty float64
	// SidePenalty is what leaving or entering a box by another side than
	// the edge's preferred one costs (default 100).
	SidePenalty float64
	// Regions are areas routes keep out of unless their edge is Within
	// them (a diagram's groups: an edge between two nodes outside a group
	// goes round it): entering one costs RegionPenalty. A region is no
	// obstacle, and may hold boxes.
	Regions map[string]geom.Rect
	// RegionPenalty is what entering a region costs (default 4000: a
	// long way round rather than through a group).
	RegionPenalty float64
	// Tips are boxes whose routes end only at the middle of a side (the
	// tips of a diamond, the ends of an ellipse's axes), by box id: where
	// such an outline meets its box, so an end there faces straight out.
	Tips map[string]bool
	// Once skips routing again the edges that cross others (faster,
	// more crossings).
	Once bool
	// Corners are the radii of boxes' rounded corners, by box id: ends on
	// such a box stay on the straight part of its sides (up to a quarter
	// of a side from each end), where the outline is the box's own.
	Corners map[string]float64
}

// The defaults.
const (
	DefaultClearance       = 16
	DefaultSpacing         = 12
	DefaultBendPenalty     = 40
	DefaultCrossingPenalty = 200
	DefaultSidePenalty     = 100
	DefaultRegionPenalty   = 4000
)

func (o Options) resolve() (Options, error) {
	for _, f := range []struct {
		name string
		v    *float64
		def  float64
	}{
		{"Clearance", &o.Clearance, DefaultClearance},
		{"Spacing", &o.Spacing, DefaultSpacing},
		{"BendPenalty", &o.BendPenalty, DefaultBendPenalty},
		{"CrossingPenalty", &o.CrossingPenalty, DefaultCrossingPenalty},
		{"SidePenalty", &o.SidePenalty, DefaultSidePenalty},
		{"RegionPenalty", &o.RegionPenalty, DefaultRegionPenalty},
	} {
		if math.IsNaN(*f.v) || math.IsInf(*f.v, 0) || *f.v < 0 {
			return o, fmt.Errorf("route: Options.%s is %v, want a finite number ≥ 0", f.name, *f.v)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	return o, nil
}

// Path is an edge's route.
type Path struct {
	// ID is the edge's ID.
	ID string
	// Points is the route from the From box to the To box: an orthogonal
	// polyline, no two points equal and no three in a line. The first
	// point lies on From's border, on FromSide, and the route leaves it
	// perpendicular to that side; the last lies on To's border, on ToSide,
	// and the route enters perpendicular.
	Points []geom.Vec
	// FromSide and ToSide are the sides the route ends on.
	FromSide, ToSide Side
	// FromAt and ToAt are where along those sides, as a fraction from the
	// left end of a top or bottom side and from the top end of a left or
	// right side (see Along and Side.FixedPoint).
	FromAt, ToAt float64
	// Clearance is the room the route keeps from other boxes:
	// Options.Clearance unless the boxes stood too close for it.
	Clearance float64
	// Blocked is set when no route around the boxes was found (a box
	// overlaps an end, say): the route is then drawn straight through, as
	// a plain orthogonal connector, and keeps no clearance.
	Blocked bool
}

// Route routes edges between boxes: boxes are every obstacle by id (the
// nodes, and any label boxes to keep clear of), and each edge's ends name
// two of them. Paths come back in the order of edges.
//
// Boxes should not overlap: a box that holds others (a group's frame) is
// no obstacle and should be left out, and an edge with a box over one of
// its ends may come back Blocked.
func Route(boxes map[string]geom.Rect, edges []Edge, o Options) ([]Path, error) {
	o, err := o.resolve()
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(boxes))
	for id, b := range boxes {
		for _, v := range []float64{b.MinX, b.MinY, b.MaxX, b.MaxY} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("route: box %q is not finite", id)
			}
		}
		if b.MinX > b.MaxX || b.MinY > b.MaxY {
			return nil, fmt.Errorf("route: box %q has its min beyond its max", id)
		}
		ids = append(ids, id)
	}
	sort.Strings(ids)
	index := make(map[string]int, len(ids))
	r := &router{o: o, rects: make([]geom.Rect, len(ids)), corners: make([]float64, len(ids)), sideUse: map[sideKey]int{}}
	for i, id := range ids {
		index[id] = i
		r.rects[i] = boxes[id]
		if c := o.Corners[id]; c > 0 && !math.IsInf(c, 0) {
			r.corners[i] = c
		}
		if o.Tips[id] {
			r.corners[i] = math.Inf(1)
		}
	}
	r.edges = make([]edgeEnds, len(edges))
	regionIDs := make([]string, 0, len(o.Regions))
	for id, g := range o.Regions {
		if math.IsNaN(g.MinX+g.MinY+g.MaxX+g.MaxY) || math.IsInf(g.MinX+g.MinY+g.MaxX+g.MaxY, 0) {
			return nil, fmt.Errorf("route: region %q is not finite", id)
		}
		regionIDs = append(regionIDs, id)
	}
	sort.Strings(regionIDs)
	for _, id := range regionIDs {
		r.regions = append(r.regions, o.Regions[id])
	}
	for i, e := range edges {
		from, ok := index[e.From]
		if !ok {
			return nil, fmt.Errorf("route: edge %d (%q) is from %q, which is not a box", i, e.ID, e.From)
		}
		to, ok := index[e.To]
		if !ok {
			return nil, fmt.Errorf("route: edge %d (%q) is to %q, which is not a box", i, e.ID, e.To)
		}
		if e.FromSide > Left || e.ToSide > Left {
			return nil, fmt.Errorf("route: edge %d (%q) has an unknown side", i, e.ID)
		}
		fs, ts := e.FromSide, e.ToSide
		if from == to && fs != Auto && fs == ts {
			ts = fs%4 + 1
		}
		r.edges[i] = edgeEnds{from: from, to: to, fromSide: fs, toSide: ts}
		if len(o.Regions) > 0 {
			within := map[string]bool{}
			for _, id := range e.Within {
				within[id] = true
			}
			for _, id := range regionIDs {
				if !within[id] {
					r.edges[i].foreign = append(r.edges[i].foreign, o.Regions[id])
				}
			}
		}
	}
	r.run()
	out := make([]Path, len(edges))
	for i, e := range edges {
		rt := r.routes[i]
		p := Path{ID: e.ID, Points: rt.pts, FromSide: rt.from, ToSide: rt.to, Clearance: rt.cl, Blocked: rt.blocked}
		p.FromAt = sideFraction(r.rects[r.edges[i].from], rt.from, rt.pts[0])
		p.ToAt = sideFraction(r.rects[r.edges[i].to], rt.to, rt.pts[len(rt.pts)-1])
		out[i] = p
	}
	return out, nil
}

// sideFraction is where p lies along side s of b, 0..1.
func sideFraction(b geom.Rect, s Side, p geom.Vec) float64 {
	var t float64
	if s.horizontal() {
		if b.W() == 0 {
			return 0.5
		}
		t = (p.X - b.MinX) / b.W()
	} else {
		if b.H() == 0 {
			return 0.5
		}
		t = (p.Y - b.MinY) / b.H()
	}
	return math.Max(0, math.Min(1, t))
}

type edgeEnds struct {
	from, to         int
	fromSide, toSide Side
	foreign          []geom.Rect // regions it pays to enter
}

// route is an edge's route as the router works on it.
type route struct {
	pts      []geom.Vec
	box      geom.Rect // of pts
	from, to Side
	cl       float64
	blocked  bool
}

type router struct {
	o       Options
	rects   []geom.Rect
	corners []float64   // by box, Options.Corners
	regions []geom.Rect // Options.Regions
	edges   []edgeEnds
	routes  []*route
	sideUse map[sideKey]int // routes ending on each side of each box
	ix      *index          // of rects
}

// run routes every edge, then nudges the routes apart.
func (r *router) run() {
	r.routes = make([]*route, len(r.edges))
	order := make([]int, len(r.edges))
	for i := range order {
		order[i] = i
	}
	dist := func(i int) float64 {
		a, b := r.rects[r.edges[i].from].Center(), r.rects[r.edges[i].to].Center()
		return math.Abs(a.X-b.X) + math.Abs(a.Y-b.Y)
	}
	sort.SliceStable(order, func(a, b int) bool { return dist(order[a]) < dist(order[b]) })

	c := r.o.Clearance
	levels := []float64{c, c / 2, c / 4, math.Min(1, c/8)}
	pending := order
	for li, cl := range levels {
		if len(pending) == 0 {
			break
		}
		if li > 0 && cl >= levels[li-1] {
			continue
		}
		pending = r.routeLevel(pending, cl, li == 0 && !r.o.Once)
	}
	for _, i := range pending {
		r.routes[i] = r.direct(i)
	}
	r.nudge()
}

// direct is the fallback for an edge with no clear route: an orthogonal
// connector between the sides that face each other, through whatever is
// in the way.
func (r *router) direct(i int) *route {
	e := r.edges[i]
	a, b := r.rects[e.from], r.rects[e.to]
	fs, ts := e.fromSide, e.toSide
	ac, bc := a.Center(), b.Center()
	dx, dy := bc.X-ac.X, bc.Y-ac.Y
	if fs == Auto {
		switch {
		case e.from == e.to:
			fs = Right
		case math.Abs(dx) >= math.Abs(dy) && dx >= 0:
			fs = Right
		case math.Abs(dx) >= math.Abs(dy):
			fs = Left
		case dy >= 0:
			fs = Bottom
		default:
			fs = Top
		}
	}
	if ts == Auto {
		if e.from == e.to {
			ts = fs%4 + 1
		} else {
			ts = (fs+1)%4 + 1 // the opposite side
		}
	}
	p := Along(a, fs, 0.5)
	q := Along(b, ts, 0.5)
	const stub = 8
	nx, ny := fs.normal()
	p1 := geom.V(p.X+nx*stub, p.Y+ny*stub)
	mx, my := ts.normal()
	q1 := geom.V(q.X+mx*stub, q.Y+my*stub)
	pts := []geom.Vec{p, p1}
	if fs.horizontal() {
		pts = append(pts, geom.V(q1.X, p1.Y))
	} else {
		pts = append(pts, geom.V(p1.X, q1.Y))
	}
	pts = append(pts, q1, q)
	// Make the corner between p1 and q1 orthogonal whatever the sides.
	var fixed []geom.Vec
	for k, pt := range pts {
		if k > 0 {
			prev := fixed[len(fixed)-1]
			if prev.X != pt.X && prev.Y != pt.Y {
				fixed = append(fixed, geom.V(pt.X, prev.Y))
			}
		}
		fixed = append(fixed, pt)
	}
	pts = Simplify(fixed)
	return &route{pts: pts, box: geom.BoundsOf(pts), from: fs, to: ts, blocked: true}
}

// Simplify drops repeated points and the middle one of three in a line:
// an orthogonal route's points as Path gives them.
func Simplify(ps []geom.Vec) []geom.Vec {
	out := make([]geom.Vec, 0, len(ps))
	for _, p := range ps {
		if n := len(out); n > 0 && out[n-1].Equal(p) {
			continue
		}
		if n := len(out); n >= 2 {
			a, b := out[n-2], out[n-1]
			if (a.X == b.X && b.X == p.X) || (a.Y == b.Y && b.Y == p.Y) {
				out[n-1] = p
				continue
			}
		}
		out = append(out, p)
	}
	return out
}
