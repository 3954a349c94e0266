package service

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram/draw"
	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// benchGraph is n nodes and 3n/2 edges, each from a lower index to one
// up to twelve on (so many edges span several layers), a fifth of them
// labelled, grouped in tens or not at all.
func benchGraph(n int, grouped bool) *diagram.Graph {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	g := &diagram.Graph{Direction: diagram.LeftToRight}
	for i := 0; grouped && i < n/10; i++ {
		g.Groups = append(g.Groups, diagram.Group{ID: fmt.Sprintf("g%d", i), Label: fmt.Sprintf("Group %d", i)})
	}
	for i := range n {
		node := diagram.Node{ID: fmt.Sprintf("n%d", i), Label: fmt.Sprintf("Service %d", i)}
		if len(g.Groups) > 0 {
			node.Group = g.Groups[i/10%len(g.Groups)].ID
		}
		g.Nodes = append(g.Nodes, node)
	}
	for len(g.Edges) < n*3/2 {
		a := r.IntN(n - 1)
		b := a + 1 + r.IntN(min(12, n-1-a))
		e := diagram.Edge{From: fmt.Sprintf("n%d", a), To: fmt.Sprintf("n%d", b)}
		if len(g.Edges)%5 == 0 {
			e.Label = "calls"
		}
		g.Edges = append(g.Edges, e)
	}
	return g
}

// BenchmarkDiagram is create_diagram of an n-node, 3n/2-edge diagram
// (layout, routing, labels and the durable write), plain and grouped,
// against batch_create of the very elements it draws, at their places
// (the write alone), in the same run: create_diagram/…/100 ÷
// batch_create/…/100 is what planning costs over writing, and
// create_diagram/…/1000 ÷ create_diagram/…/100 how it grows.
func BenchmarkDiagram(b *testing.B) {
	for _, kind := range []string{"plain", "grouped"} {
		for _, n := range benchSizes {
			g := benchGraph(n, kind == "grouped")
			p, err := draw.Lay(ctx, g, draw.Options{})
			if err != nil {
				b.Fatal(err)
			}
			d := p.Inputs(geom.V(0, 0), func(part draw.Part) string { return elementID("dgbench", part) })
			edits := map[string]func() Edit{
				"create_diagram": func() Edit {
					return CreateDiagram{Direction: g.Direction, Nodes: g.Nodes, Edges: g.Edges, Groups: g.Groups, At: &engine.Point{}}
				},
				"batch_create": func() Edit { return CreateElements{Elements: d.Inputs} },
			}
			for _, tool := range []string{"create_diagram", "batch_create"} {
				if tool == "batch_create" && n > 100 {
					continue
				}
				b.Run(fmt.Sprintf("%s/%s/%d", tool, kind, n), func(b *testing.B) {
					s, _ := newTestService(b, scene.Limits{})
					i := 0
					for b.Loop() {
						b.StopTimer()
						name := fmt.Sprintf("d%d", i)
						if _, err := s.Create(ctx, CreateRequest{Name: name, Elements: []json.RawMessage{}}); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
						if _, err := s.Edit(ctx, WriteRequest{Name: name}, edits[tool]()); err != nil {
							b.Fatal(err)
						}
						i++
					}
				})
			}
		}
	}
}

// benchSizes are BenchmarkDiagram's node counts.
var benchSizes = []int{100, 1000}
