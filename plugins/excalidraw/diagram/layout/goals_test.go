package layout_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram/draw"
	"github.com/dshgo/dsh/plugins/excalidraw/diagram/layout"
	"github.com/dshgo/dsh/plugins/excalidraw/lint"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// TestGoalFigures draws the three goal diagrams as create_diagram
// does (draw.Lay, the builder, lint) and holds each to its goals: every
// edge an elbow arrow bound at both ends, no arrow through a box, no
// overlap, no arrow over text or label over label, no word broken, and no
// more arrow–arrow crossings than Graphviz dot's layout of the same graph
// with the same sizes, measured here, in the same test.
func TestGoalFigures(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *diagram.Graph
	}{
		{"architecture-15", layout.Architecture()},
		{"system-30x40", layout.System()},
		{"cicd", layout.CICD()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := draw.Lay(context.Background(), tc.g, draw.Options{})
			if err != nil {
				t.Fatal(err)
			}
			d := p.Inputs(geom.V(0, 0), func(pt draw.Part) string { return idOf(pt) })
			res, err := build.Build(d.Inputs, build.Context{Rand: rand.New(rand.NewPCG(1, 2)), Now: func() time.Time { return time.UnixMilli(1e12) }})
			if err != nil {
				t.Fatal(err)
			}
			els := res.Elements
			counts := map[string]int{}
			for _, f := range lint.Run(els, lint.Options{}) {
				counts[f.Code]++
				if f.Code != lint.CodeArrowCrossing {
					t.Errorf("lint: %s %s", f.Code, f.Message)
				}
			}
			arrows := 0
			for _, el := range els {
				if t2, _ := el.String("type"); t2 == "arrow" {
					arrows++
					e, _ := el.Bool("elbowed")
					_, sb := el.Object("startBinding")
					_, eb := el.Object("endBinding")
					if !e || !sb || !eb {
						t.Errorf("arrow %s: elbowed %v, bound %v %v", idOfEl(el), e, sb, eb)
					}
				}
			}
			visible := 0
			for _, e := range tc.g.Edges {
				if e.Line != diagram.Invisible {
					visible++
				}
			}
			if arrows != visible {
				t.Errorf("%d arrows for %d edges", arrows, visible)
			}

			ours := routedCrossings(p)
			size, lo := draw.Sizes(tc.g, draw.Options{})
			dres, err := layout.DotLayout(context.Background(), tc.g, size, lo)
			if err != nil {
				t.Fatal(err)
			}
			var dpaths [][]layout.Point
			for _, r := range dres.Edges {
				dpaths = append(dpaths, r.Points)
			}
			dot := layout.Crossings(dpaths, 0)
			t.Logf("%s: %d nodes, %d edges, %d elements; crossings: dsh %d, dot %d; lint: %v",
				tc.name, len(tc.g.Nodes), len(tc.g.Edges), len(els), ours, dot, counts)
			if ours > dot {
				t.Errorf("dsh's arrows cross %d times, dot's %d", ours, dot)
			}
		})
	}
}

// routedCrossings counts the crossings between the plan's routes as
// layout.Crossings counts dot's.
func routedCrossings(p *draw.Plan) int {
	var paths [][]layout.Point
	for _, r := range p.Paths() {
		if r == nil {
			continue
		}
		pts := make([]layout.Point, len(r.Points))
		for i, q := range r.Points {
			pts[i] = layout.Point{X: q.X, Y: q.Y}
		}
		paths = append(paths, pts)
	}
	return layout.Crossings(paths, 0)
}

func idOf(p draw.Part) string {
	id := p.Kind[:1] + "-" + strings.NewReplacer(" ", "_", "/", "_").Replace(p.Key)
	if p.Piece != "" {
		id += "-" + p.Piece
	}
	return id
}

func idOfEl(el *ojson.Object) string {
	s, _ := el.String("id")
	return s
}

var _ = fmt.Sprint

// TestDrawnGraphs draws random graphs (half of them grouped) and the goal
// graphs in every direction and holds them to the same goals but
// crossings, which only the goal figures compare, and one allowance: a
// route may cross a group it does not belong to where going round costs
// more than RegionPenalty (a random graph's groups can wall a way in),
// at most once per hundred edges over all the drawings.
func TestDrawnGraphs(t *testing.T) {
	edges, throughGroups := 0, 0
	graphs := map[string]*diagram.Graph{"architecture": layout.Architecture(), "system": layout.System(), "cicd": layout.CICD()}
	for seed := int64(1); seed <= 4; seed++ {
		graphs[fmt.Sprintf("random-%d", seed)] = layout.Random(30, 45, seed, seed%2 == 0)
	}
	for name, g := range graphs {
		for _, d := range []diagram.Direction{diagram.TopToBottom, diagram.LeftToRight, diagram.BottomToTop, diagram.RightToLeft} {
			t.Run(name+"/"+string(d), func(t *testing.T) {
				g := *g
				g.Direction = d
				p, err := draw.Lay(context.Background(), &g, draw.Options{})
				if err != nil {
					t.Fatal(err)
				}
				res, err := build.Build(p.Inputs(geom.V(0, 0), idOf).Inputs, build.Context{Rand: rand.New(rand.NewPCG(1, 2)), Now: func() time.Time { return time.UnixMilli(1e12) }})
				if err != nil {
					t.Fatal(err)
				}
				edges += len(g.Edges)
				for _, f := range lint.Run(res.Elements, lint.Options{}) {
					switch {
					case f.Code == lint.CodeArrowCrossing:
					case f.Code == lint.CodeArrowThroughShape && strings.HasPrefix(f.IDs[1], "g-"):
						throughGroups++
						t.Logf("lint: %s %s", f.Code, f.Message)
					default:
						t.Errorf("lint: %s %s", f.Code, f.Message)
					}
				}
			})
		}
	}
	t.Logf("%d edges drawn, %d routes through a group", edges, throughGroups)
	if throughGroups*100 > edges {
		t.Errorf("%d routes of %d cross a group", throughGroups, edges)
	}
}
