package layout

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

func pl(xy ...float64) []Point {
	var p []Point
	for i := 0; i+1 < len(xy); i += 2 {
		p = append(p, Point{xy[i], xy[i+1]})
	}
	return p
}

func TestCrossings(t *testing.T) {
	for _, tc := range []struct {
		name  string
		paths [][]Point
		near  float64
		want  int
	}{
		{"an X", [][]Point{pl(0, 0, 10, 10), pl(0, 10, 10, 0)}, 0, 1},
		{"parallel", [][]Point{pl(0, 0, 10, 0), pl(0, 5, 10, 5)}, 0, 0},
		{"apart", [][]Point{pl(0, 0, 10, 10), pl(20, 0, 30, 10)}, 0, 0},
		{"along each other", [][]Point{pl(0, 0, 10, 0), pl(5, 0, 15, 0)}, 0, 0},
		{"an end on the other's middle", [][]Point{pl(0, 0, 10, 0), pl(5, 0, 5, 10)}, 0, 0},
		{"ends meeting", [][]Point{pl(0, 0, 10, 0), pl(10, 0, 10, 10)}, 0, 0},
		{"through a joint", [][]Point{pl(0, 0, 5, 5, 10, 0), pl(5, 0, 5, 10)}, 0, 1},
		{"both at joints", [][]Point{pl(0, 0, 5, 5, 10, 10), pl(0, 10, 5, 5, 10, 0)}, 0, 1},
		{"touching at a joint", [][]Point{pl(0, 0, 5, 5, 10, 0), pl(0, 5, 10, 5)}, 0, 0},
		{"twice", [][]Point{pl(0, 0, 30, 0), pl(5, -5, 10, 5, 15, 5, 20, -5)}, 0, 2},
		{"near a shared box", [][]Point{pl(0, 0, 10, 10, 20, 20), pl(1, 0, 0, 2, 0, 20)}, 3, 0},
		{"near, but not near enough", [][]Point{pl(0, 0, 10, 10, 20, 20), pl(6, 0, 0, 12, 0, 20)}, 3, 1},
		{"one route", [][]Point{pl(0, 0, 10, 10, 0, 10, 10, 0)}, 0, 0},
		{"degenerate", [][]Point{pl(5, 5), nil, pl(0, 0, 10, 10)}, 0, 0},
		{"three", [][]Point{pl(0, 0, 10, 10), pl(0, 10, 10, 0), pl(5, -1, 5, 11)}, 0, 3},
	} {
		if got := Crossings(tc.paths, tc.near); got != tc.want {
			t.Errorf("%s: %d crossings, want %d", tc.name, got, tc.want)
		}
	}
}

// The sweep finds what comparing every pair finds.
func TestCrossingsSweep(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for round := 0; round < 20; round++ {
		var paths [][]Point
		for i := 0; i < 25; i++ {
			var p []Point
			x, y := r.Float64()*500, r.Float64()*500
			for k := 0; k < 2+r.Intn(6); k++ {
				p = append(p, Point{x, y})
				x, y = x+r.Float64()*80-40, y+r.Float64()*80-40
			}
			paths = append(paths, p)
		}
		want := 0
		for i := range paths {
			for j := i + 1; j < len(paths); j++ {
				want += pathCrossings(paths[i], paths[j], 2)
			}
		}
		if got := Crossings(paths, 2); got != want {
			t.Fatalf("round %d: sweep %d, every pair %d", round, got, want)
		}
	}
}

// dot's own routes on the goal diagrams, counted (invisible edges left
// out): the figure a router is held to.
func TestDotCrossings(t *testing.T) {
	for name, g := range map[string]*diagram.Graph{"architecture": architecture(), "system": system(), "cicd": cicd()} {
		res := lay(t, g, labelled())
		var paths [][]Point
		for i, r := range res.Edges {
			if g.Edges[i].Line != diagram.Invisible {
				paths = append(paths, r.Points)
			}
		}
		through, overLabels := 0, 0
		for i, r := range res.Edges {
			e := g.Edges[i]
			if e.Line == diagram.Invisible {
				continue
			}
			for id, b := range res.Nodes {
				if id != e.From && id != e.To && crosses(r.Points, b) {
					through++
				}
			}
			for _, b := range res.GroupLabels {
				if crosses(r.Points, b) {
					overLabels++
				}
			}
		}
		t.Logf("%s: dot's routes cross %d times, pass through %d boxes, over %d group labels", name, Crossings(paths, 2), through, overLabels)
	}
}

// crosses reports whether a polyline has a point inside b, more than a
// unit in (the flattened spline's points are a few units apart).
func crosses(p []Point, b Box) bool {
	in := Box{b.X + 1, b.Y + 1, b.W - 2, b.H - 2}
	for _, q := range p {
		if in.Contains(Box{q.X, q.Y, 0, 0}, 0) {
			return true
		}
	}
	return false
}

// Layered against dot on the goal diagrams and the random grouped graphs:
// the crossings of each engine's routes (invisible edges left out), and
// the routes through boxes, logged side by side. The goal is no more
// crossings than dot's.
func TestCompareCrossings(t *testing.T) {
	type graph struct {
		name string
		g    *diagram.Graph
	}
	graphs := []graph{{"architecture", architecture()}, {"system", system()}, {"cicd", cicd()}}
	for seed := int64(1); seed <= 3; seed++ {
		graphs = append(graphs, graph{fmt.Sprintf("random-60-90-grouped-%d", seed), random(60, 90, seed, true)})
	}
	total := map[string]int{}
	for _, gr := range graphs {
		line := gr.name + ":"
		for _, en := range engines {
			res := en.lay(t, gr.g, labelled())
			c, through := routeFaults(gr.g, res)
			total[en.name] += c
			line += fmt.Sprintf(" %s %d crossings, %d through boxes;", en.name, c, through)
		}
		t.Log(line)
	}
	t.Logf("total: dot %d, layered %d", total["dot"], total["layered"])
}

// routeFaults counts the crossings of the visible routes and the routes
// through a box other than their ends'.
func routeFaults(g *diagram.Graph, res *Result) (crossings, through int) {
	var paths [][]Point
	for i, r := range res.Edges {
		e := g.Edges[i]
		if e.Line == diagram.Invisible {
			continue
		}
		paths = append(paths, r.Points)
		for id, b := range res.Nodes {
			if id != e.From && id != e.To && segmentsCross(r.Points, b) {
				through++
			}
		}
	}
	return Crossings(paths, 2), through
}

// segmentsCross reports whether a polyline passes through b's inside
// (more than a unit in), by its segments, not only its points.
func segmentsCross(p []Point, b Box) bool {
	in := Box{b.X + 1, b.Y + 1, b.W - 2, b.H - 2}
	for k := 0; k+1 < len(p); k++ {
		if t0, t1, ok := clipSeg(p[k], p[k+1], in); ok && t1-t0 > 1e-9 {
			return true
		}
	}
	return false
}
