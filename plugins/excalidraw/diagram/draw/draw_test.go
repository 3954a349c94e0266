package draw

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
	"github.com/dshgo/dsh/plugins/excalidraw/lint"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// partID names elements by their part, as a caller might.
func partID(p Part) string {
	id := p.Kind[:1] + "-" + sanitize(p.Key)
	if p.Piece != "" {
		id += "-" + p.Piece
	}
	return id
}

// drawn lays g out, writes its inputs at origin and builds them with the
// real builder over existing.
func drawn(t testing.TB, g *diagram.Graph, origin geom.Vec, existing ...*ojson.Object) (*Plan, *Drawing, []*ojson.Object) {
	t.Helper()
	p, err := Lay(context.Background(), g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := p.Inputs(origin, partID)
	res, err := build.Build(d.Inputs, build.Context{Existing: existing, Rand: rand.New(rand.NewPCG(1, 2)), Now: func() time.Time { return time.UnixMilli(1e12) }})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return p, d, res.Elements
}

// readingFindings are every lint finding but crossings, which a drawing
// keeps few rather than none (see the goal figures).
func readingFindings(els []*ojson.Object) []lint.Finding {
	var out []lint.Finding
	for _, f := range lint.Run(els, lint.Options{}) {
		if f.Code != lint.CodeArrowCrossing {
			out = append(out, f)
		}
	}
	return out
}

func architecture() *diagram.Graph {
	return &diagram.Graph{Direction: diagram.LeftToRight,
		Groups: []diagram.Group{{ID: "edge", Label: "Edge"}, {ID: "core", Label: "Core services"}, {ID: "data", Label: "Data"}},
		Nodes: []diagram.Node{
			{ID: "user", Label: "User", Role: "user", Shape: diagram.Circle},
			{ID: "cdn", Label: "CDN", Group: "edge"},
			{ID: "lb", Label: "Load balancer", Group: "edge"},
			{ID: "api", Label: "API gateway", Group: "core", Role: "primary"},
			{ID: "auth", Label: "Auth service", Group: "core"},
			{ID: "orders", Label: "Orders service", Group: "core"},
			{ID: "billing", Label: "Billing service", Group: "core"},
			{ID: "search", Label: "Search service", Group: "core"},
			{ID: "queue", Label: "Event queue", Role: "queue", Shape: diagram.Rounded},
			{ID: "worker", Label: "Worker"},
			{ID: "pg", Label: "PostgreSQL", Group: "data", Role: "database", Shape: diagram.Cylinder},
			{ID: "redis", Label: "Redis cache", Group: "data", Role: "database", Shape: diagram.Cylinder},
			{ID: "es", Label: "Elasticsearch", Group: "data", Role: "database", Shape: diagram.Cylinder},
			{ID: "s3", Label: "Object storage", Group: "data", Role: "storage"},
			{ID: "pay", Label: "Payment provider", Role: "external"},
		},
		Edges: []diagram.Edge{
			{From: "user", To: "cdn", Label: "HTTPS"}, {From: "cdn", To: "lb"}, {From: "lb", To: "api"},
			{From: "api", To: "auth", Label: "verify"}, {From: "api", To: "orders"}, {From: "api", To: "search"},
			{From: "orders", To: "billing"}, {From: "orders", To: "pg"}, {From: "orders", To: "queue", Label: "events", Line: diagram.Dashed},
			{From: "queue", To: "worker"}, {From: "worker", To: "s3"}, {From: "billing", To: "pay", Label: "charge"},
			{From: "auth", To: "redis"}, {From: "search", To: "es"}, {From: "worker", To: "es", Label: "index"},
		}}
}

func TestDrawArchitecture(t *testing.T) {
	g := architecture()
	p, d, els := drawn(t, g, geom.V(100, 50))
	if len(p.Paths()) != len(g.Edges) {
		t.Fatalf("%d paths", len(p.Paths()))
	}
	arrows := 0
	for _, el := range els {
		if typ, _ := el.String("type"); typ == "arrow" {
			arrows++
			if e, _ := el.Bool("elbowed"); !e {
				t.Error("an arrow is not elbowed")
			}
			for _, k := range []string{"startBinding", "endBinding"} {
				if _, ok := el.Object(k); !ok {
					id, _ := el.String("id")
					t.Errorf("arrow %s has no %s", id, k)
				}
			}
		}
	}
	if arrows != len(g.Edges) {
		t.Errorf("%d arrows for %d edges", arrows, len(g.Edges))
	}
	for _, f := range readingFindings(els) {
		t.Errorf("lint: %s %v %s", f.Code, f.IDs, f.Message)
	}
	// Placed at the origin.
	minX, minY := 1e9, 1e9
	for _, raw := range d.Inputs {
		el, _ := ojson.Decode(raw, ojson.Limits{})
		o := el.(*ojson.Object)
		x, _ := o.Number("x")
		y, _ := o.Number("y")
		minX, minY = min(minX, x), min(minY, y)
	}
	if minX < 100-1e-9 || minY < 50-1e-9 {
		t.Errorf("drawing reaches %v,%v, left of or above its origin 100,50", minX, minY)
	}
	t.Logf("%d elements, %d reading findings", len(els), len(readingFindings(els)))
	_ = fmt.Sprint
}

// TestSizesFollowOptions: the room kept for each text is measured at the
// size it is drawn at: a node's box is build.LabelBox's for FontSize,
// an edge label's room grows with SmallSize, a group label's with
// GroupSize.
func TestSizesFollowOptions(t *testing.T) {
	g := &diagram.Graph{Direction: diagram.LeftToRight,
		Nodes:  []diagram.Node{{ID: "a", Label: "Authentication service", Group: "g"}, {ID: "b", Label: "B"}},
		Edges:  []diagram.Edge{{From: "a", To: "b", Label: "token refresh"}},
		Groups: []diagram.Group{{ID: "g", Label: "Identity"}}}
	small := Options{FontSize: 18, SmallSize: 10, GroupSize: 18}
	big := Options{FontSize: 18, SmallSize: 16, GroupSize: 30}
	nodeSmall, loSmall := Sizes(g, small)
	nodeBig, loBig := Sizes(g, big)
	w, h := build.LabelBox("rectangle", "Authentication service", 5, 18, maxLabelWidth, minNodeWidth, minNodeHeight)
	if gw, gh := nodeSmall(g.Nodes[0]); gw != grid(w) || gh != grid(h) {
		t.Errorf("node box %v×%v, want LabelBox's %v×%v on the grid", gw, gh, grid(w), grid(h))
	}
	if bw, bh := nodeBig(g.Nodes[0]); bw != grid(w) || bh != grid(h) {
		t.Errorf("the node's box changed with the other sizes: %v×%v", bw, bh)
	}
	sw, sh := loSmall.EdgeLabel(g.Edges[0])
	bw, bh := loBig.EdgeLabel(g.Edges[0])
	if bw <= sw || bh <= sh {
		t.Errorf("edge label room %v×%v at 16 px, %v×%v at 10 px", bw, bh, sw, sh)
	}
	sw, sh = loSmall.GroupLabel(g.Groups[0])
	bw, bh = loBig.GroupLabel(g.Groups[0])
	if bw <= sw || bh <= sh {
		t.Errorf("group label room %v×%v at 30 px, %v×%v at 18 px", bw, bh, sw, sh)
	}
}
