package route

import (
	"fmt"
	"math"
	"sort"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

const tol = 1e-6

// seg2 is a segment of a path as the checks see it.
type seg2 struct {
	path, k int
	a, b    geom.Vec
}

func (s seg2) vertical() bool { return s.a.X == s.b.X }

func (s seg2) bounds() geom.Rect { return geom.BoundsOf([]geom.Vec{s.a, s.b}) }

func segmentsOf(paths []Path) []seg2 {
	var out []seg2
	for pi, p := range paths {
		for k := 0; k+1 < len(p.Points); k++ {
			out = append(out, seg2{pi, k, p.Points[k], p.Points[k+1]})
		}
	}
	return out
}

// check returns every way paths break the router's promises for boxes
// and edges: orthogonal, ends on the right sides and perpendicular, clear
// of other boxes by each path's clearance, no two ends on one point, no
// two paths collinear and overlapping.
func check(boxes map[string]geom.Rect, edges []Edge, paths []Path) []string {
	var probs []string
	bad := func(f string, args ...any) { probs = append(probs, fmt.Sprintf(f, args...)) }
	if len(paths) != len(edges) {
		bad("%d paths for %d edges", len(paths), len(edges))
		return probs
	}
	type end struct {
		p    geom.Vec
		path int
	}
	ends := map[string][]end{}
	for pi, p := range paths {
		e := edges[pi]
		if p.ID != e.ID {
			bad("path %d has id %q, want %q", pi, p.ID, e.ID)
		}
		pts := p.Points
		if len(pts) < 2 {
			bad("path %s has %d points", e.ID, len(pts))
			continue
		}
		for k := 0; k+1 < len(pts); k++ {
			a, b := pts[k], pts[k+1]
			if a.Equal(b) {
				bad("path %s: points %d and %d are equal", e.ID, k, k+1)
			} else if a.X != b.X && a.Y != b.Y {
				bad("path %s: segment %d %v→%v is not orthogonal", e.ID, k, a, b)
			}
		}
		from, to := boxes[e.From], boxes[e.To]
		checkEnd := func(b geom.Rect, s Side, at float64, p, next geom.Vec, what string) {
			if s < Top || s > Left {
				bad("path %s: %s side is %v", e.ID, what, s)
				return
			}
			on := false
			switch s {
			case Top:
				on = math.Abs(p.Y-b.MinY) < tol && p.X >= b.MinX-tol && p.X <= b.MaxX+tol
			case Bottom:
				on = math.Abs(p.Y-b.MaxY) < tol && p.X >= b.MinX-tol && p.X <= b.MaxX+tol
			case Left:
				on = math.Abs(p.X-b.MinX) < tol && p.Y >= b.MinY-tol && p.Y <= b.MaxY+tol
			case Right:
				on = math.Abs(p.X-b.MaxX) < tol && p.Y >= b.MinY-tol && p.Y <= b.MaxY+tol
			}
			if !on {
				bad("path %s: %s point %v is not on the %v side of %v", e.ID, what, p, s, b)
			}
			if q := Along(b, s, at); q.Dist(p) > 1e-6*math.Max(1, b.Diagonal()) {
				bad("path %s: %s at %v is %v, not the point %v", e.ID, what, at, q, p)
			}
			nx, ny := s.normal()
			d := next.Sub(p).Unit() // from the box outward, either end
			if math.Abs(d.X-nx) > tol || math.Abs(d.Y-ny) > tol {
				bad("path %s: %s segment is not perpendicular out of the %v side", e.ID, what, s)
			}
		}
		n := len(pts)
		checkEnd(from, p.FromSide, p.FromAt, pts[0], pts[1], "first")
		checkEnd(to, p.ToSide, p.ToAt, pts[n-1], pts[n-2], "last")
		ends[e.From] = append(ends[e.From], end{pts[0], pi})
		ends[e.To] = append(ends[e.To], end{pts[n-1], pi})

		if p.Blocked {
			continue
		}
		// Clearance.
		for k := 0; k+1 < n; k++ {
			sb := geom.BoundsOf([]geom.Vec{pts[k], pts[k+1]})
			for id, b := range boxes {
				own := id == e.From || id == e.To
				endSeg := (k == 0 && id == e.From) || (k == n-2 && id == e.To)
				if endSeg {
					// It may only touch its box where it ends.
					in := b.Intersection(sb)
					if in.W() > tol || in.H() > tol {
						bad("path %s: segment %d enters its own box %s", e.ID, k, id)
					}
					continue
				}
				_ = own
				if g := sb.Gap(b); g < p.Clearance-tol {
					bad("path %s: segment %d is %.2f from box %s (clearance %v)", e.ID, k, g, id, p.Clearance)
				}
			}
		}
	}
	// One end per point.
	ids := make([]string, 0, len(ends))
	for id := range ends {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		es := ends[id]
		for i := range es {
			for j := i + 1; j < len(es); j++ {
				if es[i].p.Dist(es[j].p) < 0.5 {
					bad("box %s: paths %s and %s end at one point %v", id, edges[es[i].path].ID, edges[es[j].path].ID, es[i].p)
				}
			}
		}
	}
	// Collinear overlaps, among the segments on each line.
	type line struct {
		vert bool
		c    float64
	}
	lines := map[line][]seg2{}
	for _, sg := range segmentsOf(paths) {
		if paths[sg.path].Blocked {
			continue
		}
		c := sg.a.Y
		if sg.vertical() {
			c = sg.a.X
		}
		// Round to the tolerance so near-equal lines meet.
		k := line{sg.vertical(), math.Round(c / tol)}
		lines[k] = append(lines[k], sg)
	}
	keys := make([]line, 0, len(lines))
	for k := range lines {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].vert != keys[j].vert {
			return keys[i].vert
		}
		return keys[i].c < keys[j].c
	})
	for _, k := range keys {
		segs := lines[k]
		for i := range segs {
			for j := i + 1; j < len(segs); j++ {
				a, b := segs[i], segs[j]
				if a.path == b.path {
					continue
				}
				ra, rb := a.bounds(), b.bounds()
				ov := math.Min(ra.MaxX, rb.MaxX) - math.Max(ra.MinX, rb.MinX)
				if a.vertical() {
					ov = math.Min(ra.MaxY, rb.MaxY) - math.Max(ra.MinY, rb.MinY)
				}
				if ov > tol {
					bad("paths %s and %s overlap on a line: segments %d %v→%v and %d %v→%v", paths[a.path].ID, paths[b.path].ID, a.k, a.a, a.b, b.k, b.a, b.b)
				}
			}
		}
	}
	return probs
}

// stats are figures to compare routings by.
type stats struct {
	bends, crossings int
	jogs             int // inner segments shorter than 12
	length           float64
	minGap           float64 // nearest two parallel segments of different paths that face each other
}

func (s stats) String() string {
	return fmt.Sprintf("%d bends, %d crossings, %d jogs, length %.0f, closest parallels %.1f", s.bends, s.crossings, s.jogs, s.length, s.minGap)
}

func measure(paths []Path) stats {
	st := stats{minGap: math.Inf(1)}
	for _, p := range paths {
		st.bends += len(p.Points) - 2
		for k := 0; k+1 < len(p.Points); k++ {
			l := p.Points[k].Dist(p.Points[k+1])
			st.length += l
			if k > 0 && k+2 < len(p.Points) && l < 12 {
				st.jogs++
			}
		}
	}
	segs := segmentsOf(paths)
	for i := range segs {
		for j := i + 1; j < len(segs); j++ {
			a, b := segs[i], segs[j]
			if a.path == b.path {
				continue
			}
			ra, rb := a.bounds(), b.bounds()
			if a.vertical() != b.vertical() {
				if ra.Intersects(rb) {
					st.crossings++
				}
				continue
			}
			var ov, d float64
			if a.vertical() {
				ov = math.Min(ra.MaxY, rb.MaxY) - math.Max(ra.MinY, rb.MinY)
				d = math.Abs(a.a.X - b.a.X)
			} else {
				ov = math.Min(ra.MaxX, rb.MaxX) - math.Max(ra.MinX, rb.MinX)
				d = math.Abs(a.a.Y - b.a.Y)
			}
			if ov > tol && d < st.minGap {
				st.minGap = d
			}
		}
	}
	return st
}
