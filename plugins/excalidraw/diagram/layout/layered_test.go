package layout

import (
	"context"
	"fmt"
	"math/rand"
	"reflect"
	"sync"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// messy is a graph with everything the model allows: cycles, self-loops,
// edges both ways, nested and empty groups, edges to groups, invisible
// edges, labels.
func messy(seed int64) *diagram.Graph {
	r := rand.New(rand.NewSource(seed))
	g := &diagram.Graph{}
	ng := 2 + r.Intn(6)
	for i := 0; i < ng; i++ {
		gr := diagram.Group{ID: fmt.Sprintf("g%d", i), Label: fmt.Sprintf("Group %d", i)}
		if i > 0 && r.Intn(3) == 0 {
			gr.Parent = fmt.Sprintf("g%d", r.Intn(i))
		}
		if r.Intn(5) == 0 {
			gr.Label = ""
		}
		g.Groups = append(g.Groups, gr)
	}
	n := 5 + r.Intn(30)
	for i := 0; i < n; i++ {
		nd := diagram.Node{ID: fmt.Sprintf("n%d", i), Label: fmt.Sprintf("node %d%s", i, "xxxxxxxxxxxxxxxxxxxxxxxx"[:r.Intn(24)])}
		if r.Intn(3) > 0 {
			nd.Group = g.Groups[r.Intn(ng)].ID
		}
		g.Nodes = append(g.Nodes, nd)
	}
	m := r.Intn(2 * n)
	for len(g.Edges) < m {
		e := diagram.Edge{From: g.Nodes[r.Intn(n)].ID, To: g.Nodes[r.Intn(n)].ID}
		switch r.Intn(12) {
		case 0:
			e.To = g.Groups[r.Intn(ng)].ID
		case 1:
			e.From = g.Groups[r.Intn(ng)].ID
		case 2:
			e.Line = diagram.Invisible
		}
		if r.Intn(3) == 0 {
			e.Label = "label"
		}
		g.Edges = append(g.Edges, e)
	}
	return g
}

// Layered keeps every property on graphs of every kind, in every
// direction, and is deterministic on them.
func TestLayeredMessy(t *testing.T) {
	for seed := int64(1); seed <= 60; seed++ {
		g := messy(seed)
		if err := g.Check(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, d := range directions {
			g.Direction = d
			for _, o := range []Options{{}, labelled()} {
				res, err := Layered(context.Background(), g, size, o)
				if err != nil {
					t.Fatalf("seed %d %s: %v", seed, d, err)
				}
				check(t, g, o, res)
				for i, r := range res.Edges {
					if r.Label.W == 0 {
						continue
					}
					for id, b := range res.Nodes {
						if r.Label.Overlaps(b, eps) {
							t.Errorf("edge %d's label %+v covers node %s %+v", i, r.Label, id, b)
						}
					}
					for j, q := range res.Edges[i+1:] {
						if q.Label.W > 0 && r.Label.Overlaps(q.Label, eps) {
							t.Errorf("edge %d's label %+v covers edge %d's %+v", i, r.Label, i+1+j, q.Label)
						}
					}
				}
				again, _ := Layered(context.Background(), g, size, o)
				if !reflect.DeepEqual(res, again) {
					t.Errorf("seed %d %s: two layouts differ", seed, d)
				}
				if t.Failed() {
					t.Fatalf("seed %d %s %+v", seed, d, o)
				}
			}
		}
	}
}

// Layered keeps nothing between calls: many at once each get their own
// answer.
func TestLayeredConcurrent(t *testing.T) {
	graphs := []*diagram.Graph{architecture(), system(), cicd(), random(30, 45, 4, true)}
	want := make([]*Result, len(graphs))
	for i, g := range graphs {
		want[i], _ = Layered(context.Background(), g, size, labelled())
	}
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for k := 0; k < 3; k++ {
				i := (w + k) % len(graphs)
				res, err := Layered(context.Background(), graphs[i], size, labelled())
				if err != nil || !reflect.DeepEqual(res, want[i]) {
					t.Errorf("graph %d laid out differently at once: %v", i, err)
				}
			}
		}(w)
	}
	wg.Wait()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Layered(ctx, architecture(), size, Options{}); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}
