package layout

import (
	"context"
	"errors"
	"math"
	"reflect"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

const eps = 0.01

var directions = []diagram.Direction{diagram.TopToBottom, diagram.LeftToRight, diagram.BottomToTop, diagram.RightToLeft}

func lay(t testing.TB, g *diagram.Graph, o Options) *Result {
	t.Helper()
	return engines[0].lay(t, g, o)
}

// layoutEngine is one way to lay a graph out: dot, the yardstick, and Layered.
type layoutEngine struct {
	name string
	run  func(context.Context, *diagram.Graph, func(diagram.Node) (float64, float64), Options) (*Result, error)
}

var engines = []layoutEngine{{"dot", dotLayout}, {"layered", Layout}}

func (en layoutEngine) lay(t testing.TB, g *diagram.Graph, o Options) *Result {
	t.Helper()
	res, err := en.run(context.Background(), g, size, o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// eachEngine runs f for each engine, as a subtest.
func eachEngine(t *testing.T, f func(t *testing.T, en layoutEngine)) {
	for _, en := range engines {
		t.Run(en.name, func(t *testing.T) { f(t, en) })
	}
}

// check asserts what every layout must be: each node and group placed,
// nodes their asked size and apart, each node inside its groups, groups
// nested in their parents and apart from their siblings and from nodes
// they do not hold, labels inside their groups and clear of what the
// group holds, routes from From to To, all within the drawing.
func check(t *testing.T, g *diagram.Graph, o Options, res *Result) {
	t.Helper()
	all := Box{0, 0, res.Width, res.Height}
	if len(res.Nodes) != len(g.Nodes) || len(res.Groups) != len(g.Groups) || len(res.Edges) != len(g.Edges) {
		t.Fatalf("placed %d/%d nodes, %d/%d groups, %d/%d edges", len(res.Nodes), len(g.Nodes), len(res.Groups), len(g.Groups), len(res.Edges), len(g.Edges))
	}
	// holds[group] is every node id and group id at any depth inside it.
	parent := map[string]string{}
	for _, gr := range g.Groups {
		parent[gr.ID] = gr.Parent
	}
	ancestors := func(start string) []string {
		var out []string
		for p := start; p != ""; p = parent[p] {
			out = append(out, p)
		}
		return out
	}
	holds := map[string]map[string]bool{}
	for _, gr := range g.Groups {
		holds[gr.ID] = map[string]bool{}
	}
	for _, n := range g.Nodes {
		for _, a := range ancestors(n.Group) {
			holds[a][n.ID] = true
		}
	}
	for _, gr := range g.Groups {
		for _, a := range ancestors(gr.Parent) {
			holds[a][gr.ID] = true
		}
	}

	for i, n := range g.Nodes {
		b := res.Nodes[n.ID]
		w, h := size(n)
		if math.Abs(b.W-w) > eps || math.Abs(b.H-h) > eps {
			t.Errorf("node %s is %gx%g, asked %gx%g", n.ID, b.W, b.H, w, h)
		}
		if !all.Contains(b, eps) {
			t.Errorf("node %s %+v is outside the drawing %+v", n.ID, b, all)
		}
		for _, m := range g.Nodes[i+1:] {
			if b.Overlaps(res.Nodes[m.ID], eps) {
				t.Errorf("nodes %s %+v and %s %+v overlap", n.ID, b, m.ID, res.Nodes[m.ID])
			}
		}
		for _, a := range ancestors(n.Group) {
			if gb := res.Groups[a]; !gb.Contains(b, eps) {
				t.Errorf("node %s %+v is outside its group %s %+v", n.ID, b, a, gb)
			}
		}
		for _, gr := range g.Groups {
			if !holds[gr.ID][n.ID] && res.Groups[gr.ID].Overlaps(b, eps) {
				t.Errorf("node %s %+v overlaps group %s %+v, which does not hold it", n.ID, b, gr.ID, res.Groups[gr.ID])
			}
		}
	}
	for i, gr := range g.Groups {
		b := res.Groups[gr.ID]
		if !all.Contains(b, eps) {
			t.Errorf("group %s %+v is outside the drawing %+v", gr.ID, b, all)
		}
		if gr.Parent != "" && !res.Groups[gr.Parent].Contains(b, eps) {
			t.Errorf("group %s %+v is outside its parent %s %+v", gr.ID, b, gr.Parent, res.Groups[gr.Parent])
		}
		for _, other := range g.Groups[i+1:] {
			nested := holds[gr.ID][other.ID] || holds[other.ID][gr.ID]
			if !nested && b.Overlaps(res.Groups[other.ID], eps) {
				t.Errorf("groups %s %+v and %s %+v overlap and neither holds the other", gr.ID, b, other.ID, res.Groups[other.ID])
			}
		}
		if o.GroupLabel != nil {
			w, h := o.GroupLabel(gr)
			l, ok := res.GroupLabels[gr.ID]
			if (w > 0 || h > 0) != ok {
				t.Errorf("group %s: label size %gx%g, label box %v", gr.ID, w, h, ok)
				continue
			}
			if !ok {
				continue
			}
			if !b.Contains(l, eps) {
				t.Errorf("group %s's label %+v is outside its box %+v", gr.ID, l, b)
			}
			if l.X-b.X > 12 || l.Y-b.Y > 12 {
				t.Errorf("group %s's label %+v is not at its box's top left %+v", gr.ID, l, b)
			}
			for id := range holds[gr.ID] {
				in, isNode := res.Nodes[id]
				if !isNode {
					in = res.Groups[id]
				}
				if l.Overlaps(in, eps) {
					t.Errorf("group %s's label %+v covers %s %+v", gr.ID, l, id, in)
				}
			}
		}
	}
	for i, r := range res.Edges {
		e := g.Edges[i]
		if r.Edge != i {
			t.Errorf("route %d is for edge %d", i, r.Edge)
		}
		if len(r.Points) < 2 || len(r.Spline) < 4 {
			t.Errorf("edge %d %s->%s has no route: %v", i, e.From, e.To, r.Spline)
			continue
		}
		endBox := func(id string) Box {
			if b, ok := res.Nodes[id]; ok {
				return b
			}
			return res.Groups[id]
		}
		// dot ends a route on the box's border, give or take its rounding.
		const slack = 3
		if d := distToBox(r.Points[0], endBox(e.From)); d > slack {
			t.Errorf("edge %d %s->%s starts %g away from %s", i, e.From, e.To, d, e.From)
		}
		if d := distToBox(r.Points[len(r.Points)-1], endBox(e.To)); d > slack {
			t.Errorf("edge %d %s->%s ends %g away from %s", i, e.From, e.To, d, e.To)
		}
		for _, p := range r.Points {
			if !all.Contains(Box{p.X, p.Y, 0, 0}, 1) {
				t.Errorf("edge %d's route leaves the drawing at %+v", i, p)
				break
			}
		}
		if o.EdgeLabel != nil {
			if w, h := o.EdgeLabel(e); (w > 0 || h > 0) && (r.Label.W != w || r.Label.H != h) {
				t.Errorf("edge %d's label is %+v, asked %gx%g", i, r.Label, w, h)
			}
		}
	}
}

// along is a point's position along the flow: larger is later.
func along(d diagram.Direction, p Point) float64 {
	switch d {
	case diagram.LeftToRight:
		return p.X
	case diagram.RightToLeft:
		return -p.X
	case diagram.BottomToTop:
		return -p.Y
	}
	return p.Y
}

// checkFlow asserts that every edge of an acyclic graph points the flow's
// way: its target's centre lies after its source's.
func checkFlow(t *testing.T, g *diagram.Graph, res *Result) {
	t.Helper()
	for i, e := range g.Edges {
		a, b := along(g.Flow(), res.Nodes[e.From].Center()), along(g.Flow(), res.Nodes[e.To].Center())
		if b <= a {
			t.Errorf("%s: edge %d %s->%s points against the flow (%g -> %g)", g.Flow(), i, e.From, e.To, a, b)
		}
	}
}

func TestGoalDiagrams(t *testing.T) {
	eachEngine(t, func(t *testing.T, en layoutEngine) {
		for _, tc := range []struct {
			name    string
			g       *diagram.Graph
			acyclic bool
		}{
			{"architecture", architecture(), true},
			{"system", system(), true},
			{"cicd", cicd(), false},
		} {
			for _, d := range directions {
				t.Run(tc.name+"/"+string(d), func(t *testing.T) {
					g := *tc.g
					g.Direction = d
					for _, o := range []Options{{}, labelled()} {
						res := en.lay(t, &g, o)
						check(t, &g, o, res)
						if tc.acyclic {
							checkFlow(t, &g, res)
						}
					}
				})
			}
		}
	})
}

// A random acyclic graph with nested groups, in every direction.
func TestRandomGraphs(t *testing.T) {
	eachEngine(t, func(t *testing.T, en layoutEngine) {
		for seed := int64(1); seed <= 3; seed++ {
			g := random(60, 90, seed, true)
			for _, d := range directions {
				g.Direction = d
				res := en.lay(t, g, labelled())
				check(t, g, labelled(), res)
				checkFlow(t, g, res)
			}
		}
	})
}

// The CI/CD chain: its back edges go back and its skip edges forward, and
// each edge label gets its own room, covering no node.
func TestCICD(t *testing.T) {
	eachEngine(t, func(t *testing.T, en layoutEngine) {
		g := cicd()
		res := en.lay(t, g, labelled())
		back := 0
		for i, e := range g.Edges {
			a, b := res.Nodes[e.From].Center().X, res.Nodes[e.To].Center().X
			if b < a {
				back++
			}
			if l := res.Edges[i].Label; l.W > 0 {
				for id, nb := range res.Nodes {
					if l.Overlaps(nb, eps) {
						t.Errorf("edge %d's label %+v covers node %s %+v", i, l, id, nb)
					}
				}
				for j, r := range res.Edges {
					if j != i && r.Label.W > 0 && l.Overlaps(r.Label, eps) {
						t.Errorf("edge %d's label %+v covers edge %d's %+v", i, l, j, r.Label)
					}
				}
			}
		}
		// retry, redeploy, rollback, rejected
		if back != 4 {
			t.Errorf("%d edges point back, want 4", back)
		}
	})
}

// Same input, same output: twice in a row, and again after other layouts.
func TestDeterministic(t *testing.T) {
	eachEngine(t, func(t *testing.T, en layoutEngine) {
		for _, g := range []*diagram.Graph{architecture(), system(), cicd()} {
			first := en.lay(t, g, labelled())
			again := en.lay(t, g, labelled())
			en.lay(t, random(40, 60, 9, true), Options{})
			third := en.lay(t, g, labelled())
			if !reflect.DeepEqual(first, again) || !reflect.DeepEqual(first, third) {
				t.Errorf("two layouts of one graph differ")
			}
		}
	})
}

// Spacing options move things apart as asked.
func TestSpacing(t *testing.T) {
	eachEngine(t, func(t *testing.T, en layoutEngine) {
		g := &diagram.Graph{Nodes: []diagram.Node{{ID: "a"}, {ID: "b"}, {ID: "c"}}, Edges: []diagram.Edge{{From: "a", To: "b"}, {From: "a", To: "c"}}}
		res := en.lay(t, g, Options{NodeGap: 100, RankGap: 150})
		a, b, c := res.Nodes["a"], res.Nodes["b"], res.Nodes["c"]
		if gap := b.Y - a.Bottom(); math.Abs(gap-150) > 1 {
			t.Errorf("rank gap %g, want 150", gap)
		}
		left, right := b, c
		if c.X < b.X {
			left, right = c, b
		}
		if gap := right.X - left.Right(); gap < 100-1 {
			t.Errorf("node gap %g, want at least 100", gap)
		}

		gg := &diagram.Graph{Groups: []diagram.Group{{ID: "g"}}, Nodes: []diagram.Node{{ID: "a", Group: "g"}}}
		res = en.lay(t, gg, Options{GroupPadding: 30})
		n, gr := res.Nodes["a"], res.Groups["g"]
		for _, gap := range []float64{n.X - gr.X, gr.Right() - n.Right(), n.Y - gr.Y, gr.Bottom() - n.Bottom()} {
			if math.Abs(gap-30) > 1 {
				t.Errorf("group padding %g, want 30 (node %+v, group %+v)", gap, n, gr)
			}
		}
	})
}

// Groups that hold nothing, or only groups, still get boxes; an edge to
// a group (when the model allows one) ends at the group's border.
func TestGroupsOddCases(t *testing.T) {
	eachEngine(t, func(t *testing.T, en layoutEngine) {
		g := &diagram.Graph{
			Groups: []diagram.Group{{ID: "empty", Label: "Nothing yet"}, {ID: "outer", Label: "Outer"}, {ID: "inner", Parent: "outer", Label: "Inner"},
				{ID: "wide", Label: "A label far wider than the one small node that this group holds"}},
			Nodes: []diagram.Node{{ID: "a"}, {ID: "b", Group: "inner"}, {ID: "c"}, {ID: "d", Group: "wide"}},
			Edges: []diagram.Edge{{From: "a", To: "b"}, {From: "b", To: "c"}, {From: "a", To: "a"}, {From: "c", To: "d"}},
		}
		for _, d := range directions {
			g.Direction = d
			res := en.lay(t, g, labelled())
			check(t, g, labelled(), res)
			if e := res.Groups["empty"]; e.W < 2*DefaultGroupPadding || e.H < 2*DefaultGroupPadding {
				t.Errorf("empty group's box %+v", e)
			}
		}
		g.Direction = ""

		g.Edges = append(g.Edges, diagram.Edge{From: "a", To: "outer"}, diagram.Edge{From: "outer", To: "c"})
		if err := g.Check(); err != nil {
			t.Fatal(err)
		}
		res := en.lay(t, g, labelled())
		check(t, g, labelled(), res)
		outer := res.Groups["outer"]
		for _, r := range res.Edges[4:] {
			end := r.Points[len(r.Points)-1]
			if r.Edge == 5 {
				end = r.Points[0]
			}
			if d := distToBox(end, outer); d > 3 || outer.Contains(Box{end.X, end.Y, 0, 0}, -3) {
				t.Errorf("edge %d ends at %+v, not on group outer's border %+v", r.Edge, end, outer)
			}
		}
	})
}

func TestBadInput(t *testing.T) {
	eachEngine(t, func(t *testing.T, en layoutEngine) {
		g := &diagram.Graph{Nodes: []diagram.Node{{ID: "a"}}, Edges: []diagram.Edge{{From: "a", To: "zz"}}}
		var p diagram.Problem
		if _, err := en.run(context.Background(), g, size, Options{}); !errors.As(err, &p) || p.Pointer != "/edges/0/to" {
			t.Errorf("error %v, want the model's problem at /edges/0/to", err)
		}
		if _, err := en.run(context.Background(), &diagram.Graph{}, nil, Options{}); err == nil {
			t.Error("no sizes: no error")
		}
		res, err := en.run(context.Background(), &diagram.Graph{}, size, Options{})
		if err != nil || len(res.Nodes) != 0 || res.Width != 0 {
			t.Errorf("empty graph: %+v, %v", res, err)
		}
		// Odd sizes are taken as from 1 to 65535; ids are never DOT.
		odd := func(n diagram.Node) (float64, float64) { return math.NaN(), math.Inf(1) }
		const id = `a "quoted" id; -> {}`
		res, err = en.run(context.Background(), &diagram.Graph{Nodes: []diagram.Node{{ID: id}}, Edges: []diagram.Edge{{From: id, To: id}}}, odd, Options{})
		if err != nil || res.Nodes[id].W != 1 || res.Nodes[id].H != maxSize {
			t.Errorf("odd sizes: %+v, %v", res, err)
		}
	})
}

// A dot call waiting for its turn gives up when its context ends; one
// that ended before starting does not start.
func TestContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := dotLayout(ctx, architecture(), size, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	engine.turn <- struct{}{} // someone else's turn
	ctx, cancel = context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := dotLayout(ctx, architecture(), size, Options{})
		done <- err
	}()
	cancel()
	err := <-done
	<-engine.turn
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled while waiting: %v", err)
	}
}

// dot calls from many goroutines take turns and each gets its own answer.
func TestConcurrent(t *testing.T) {
	graphs := []*diagram.Graph{architecture(), system(), cicd(), random(30, 45, 4, true)}
	want := make([]*Result, len(graphs))
	for i, g := range graphs {
		want[i] = lay(t, g, labelled())
	}
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for k := 0; k < 3; k++ {
				i := (w + k) % len(graphs)
				res, err := dotLayout(context.Background(), graphs[i], size, labelled())
				if err != nil {
					t.Error(err)
					return
				}
				if !reflect.DeepEqual(res, want[i]) {
					t.Errorf("graph %d laid out differently under load", i)
				}
			}
		}(w)
	}
	wg.Wait()
}

// A group in its own direction, linked to the rest only as a whole, is
// laid out in its direction; one linked from inside is not (Mermaid's
// rule), and dot alone would lay out neither.
func TestGroupDirection(t *testing.T) {
	eachEngine(t, func(t *testing.T, en layoutEngine) {
		g := &diagram.Graph{
			Direction: diagram.TopToBottom,
			Groups: []diagram.Group{
				{ID: "row", Label: "Row", Direction: diagram.LeftToRight},
				{ID: "col", Label: "Column", Parent: "row", Direction: diagram.TopToBottom},
				{ID: "linked", Label: "Linked", Direction: diagram.LeftToRight},
			},
			Nodes: []diagram.Node{
				{ID: "start"},
				{ID: "a", Group: "row"}, {ID: "b", Group: "row"}, {ID: "c", Group: "row"},
				{ID: "c1", Group: "col"}, {ID: "c2", Group: "col"},
				{ID: "x", Group: "linked"}, {ID: "y", Group: "linked"},
				{ID: "end"},
			},
			Edges: []diagram.Edge{
				{From: "a", To: "b", Label: "ab"}, {From: "b", To: "c"}, {From: "c1", To: "c2"},
				{From: "x", To: "y"}, {From: "start", To: "x"}, {From: "y", To: "end"},
			},
		}
		if err := g.Check(); err != nil {
			t.Fatal(err)
		}
		withGroupEdges := false
		edgesToGroups := append(append([]diagram.Edge(nil), g.Edges...), diagram.Edge{From: "start", To: "row"}, diagram.Edge{From: "row", To: "end"})
		if (&diagram.Graph{Direction: g.Direction, Groups: g.Groups, Nodes: g.Nodes, Edges: edgesToGroups}).Check() == nil {
			g.Edges, withGroupEdges = edgesToGroups, true
		}
		for _, o := range []Options{{}, labelled()} {
			res := en.lay(t, g, o)
			check(t, g, o, res)
			n := res.Nodes
			// row flows left to right: a, b, c side by side.
			if !(n["a"].Right() < n["b"].X && n["b"].Right() < n["c"].X) || n["a"].Y != n["b"].Y || n["b"].Y != n["c"].Y {
				t.Errorf("row is not left to right: a %+v b %+v c %+v", n["a"], n["b"], n["c"])
			}
			// col, inside row, flows top to bottom again.
			if !(n["c1"].Bottom() < n["c2"].Y) {
				t.Errorf("col is not top to bottom: c1 %+v c2 %+v", n["c1"], n["c2"])
			}
			// linked has an edge from outside to x: its direction is not used.
			if !(n["x"].Bottom() < n["y"].Y) {
				t.Errorf("linked group took its own direction: x %+v y %+v", n["x"], n["y"])
			}
			if withGroupEdges {
				row := res.Groups["row"]
				if !(n["start"].Bottom() < row.Y && row.Bottom() < n["end"].Y) {
					t.Errorf("row is not between start %+v and end %+v: %+v", n["start"], n["end"], row)
				}
			}
		}
	})
}
