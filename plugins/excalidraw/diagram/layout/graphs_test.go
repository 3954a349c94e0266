package layout

import (
	"fmt"
	"math/rand"

	"github.com/dshgo/dsh/plugins/excalidraw/diagram"
)

// size is a stand-in for the caller's text metrics: 8 units a character
// plus padding, at least 80 wide; two-line labels are taller.
func size(n diagram.Node) (w, h float64) {
	w = 8*float64(len(n.Text())) + 32
	if w < 80 {
		w = 80
	}
	h = 44
	if len(n.Text()) > 18 {
		h = 64
	}
	return w, h
}

func groupLabel(g diagram.Group) (w, h float64) {
	if g.Label == "" {
		return 0, 0
	}
	return 8*float64(len(g.Label)) + 8, 24
}

func edgeLabel(e diagram.Edge) (w, h float64) {
	if e.Label == "" {
		return 0, 0
	}
	return 7*float64(len(e.Label)) + 8, 20
}

func labelled() Options { return Options{GroupLabel: groupLabel, EdgeLabel: edgeLabel} }

// architecture is a 15-node web system in four groups, one nested.
func architecture() *diagram.Graph {
	return &diagram.Graph{
		Direction: diagram.TopToBottom,
		Groups: []diagram.Group{
			{ID: "edge", Label: "Edge"},
			{ID: "app", Label: "Application tier"},
			{ID: "workers", Label: "Workers", Parent: "app"},
			{ID: "data", Label: "Data"},
		},
		Nodes: []diagram.Node{
			{ID: "user", Label: "User"},
			{ID: "cdn", Label: "CDN", Group: "edge"},
			{ID: "lb", Label: "Load balancer", Group: "edge"},
			{ID: "web", Label: "Web frontend", Group: "app"},
			{ID: "api", Label: "API gateway", Group: "app"},
			{ID: "auth", Label: "Auth service", Group: "app"},
			{ID: "orders", Label: "Orders service", Group: "app"},
			{ID: "queue", Label: "Job queue", Group: "app"},
			{ID: "mail", Label: "Mailer", Group: "workers"},
			{ID: "thumbs", Label: "Thumbnailer", Group: "workers"},
			{ID: "pg", Label: "PostgreSQL", Shape: diagram.Cylinder, Group: "data"},
			{ID: "redis", Label: "Redis cache", Group: "data"},
			{ID: "s3", Label: "Object storage", Group: "data"},
			{ID: "smtp", Label: "SMTP relay"},
			{ID: "metrics", Label: "Metrics and traces (OpenTelemetry)"},
		},
		Edges: []diagram.Edge{
			{From: "user", To: "cdn", Label: "HTTPS"},
			{From: "cdn", To: "lb"},
			{From: "lb", To: "web"},
			{From: "lb", To: "api"},
			{From: "web", To: "api", Label: "REST"},
			{From: "api", To: "auth"},
			{From: "api", To: "orders"},
			{From: "orders", To: "queue", Label: "enqueue"},
			{From: "queue", To: "mail"},
			{From: "queue", To: "thumbs"},
			{From: "auth", To: "redis"},
			{From: "orders", To: "pg"},
			{From: "thumbs", To: "s3"},
			{From: "mail", To: "smtp"},
			{From: "api", To: "metrics", Line: diagram.Dashed},
			{From: "orders", To: "metrics", Line: diagram.Dashed},
		},
	}
}

// system is a 30-node, 40-edge system in tiers (clients, ingress, core
// with billing nested in it, async workers, storage), acyclic: edges go
// mostly to the next tier, some skip one; a few are invisible.
func system() *diagram.Graph {
	g := &diagram.Graph{Direction: diagram.LeftToRight}
	g.Groups = []diagram.Group{
		{ID: "ingress", Label: "Ingress"},
		{ID: "core", Label: "Core services"},
		{ID: "billing", Label: "Billing", Parent: "core"},
		{ID: "async", Label: "Async"},
		{ID: "storage", Label: "Storage"},
	}
	tiers := []struct {
		group string
		n     int
	}{{"", 3}, {"ingress", 4}, {"core", 6}, {"billing", 4}, {"async", 6}, {"storage", 5}, {"", 2}}
	var tier [][]int
	for t, tr := range tiers {
		var ids []int
		for k := 0; k < tr.n; k++ {
			i := len(g.Nodes)
			g.Nodes = append(g.Nodes, diagram.Node{ID: fmt.Sprintf("s%02d", i), Label: fmt.Sprintf("Service %d.%d", t, k), Group: tr.group})
			ids = append(ids, i)
		}
		tier = append(tier, ids)
	}
	r := rand.New(rand.NewSource(30))
	seen := map[[2]int]bool{}
	for len(g.Edges) < 40 {
		t := r.Intn(len(tier) - 1)
		to := t + 1
		if r.Intn(4) == 0 && t+2 < len(tier) {
			to = t + 2
		}
		a, b := tier[t][r.Intn(len(tier[t]))], tier[to][r.Intn(len(tier[to]))]
		if seen[[2]int{a, b}] {
			continue
		}
		seen[[2]int{a, b}] = true
		e := diagram.Edge{From: g.Nodes[a].ID, To: g.Nodes[b].ID}
		if len(g.Edges)%13 == 12 {
			e.Line = diagram.Invisible
		}
		if len(g.Edges)%5 == 0 {
			e.Label = "calls"
		}
		g.Edges = append(g.Edges, e)
	}
	return g
}

// cicd is a pipeline: a chain of stages with edges that skip stages and
// edges back (retries, rollback), so it has cycles.
func cicd() *diagram.Graph {
	stages := []string{"commit", "lint", "build", "unit", "integration", "package", "staging", "e2e", "approve", "production", "monitor"}
	g := &diagram.Graph{Direction: diagram.LeftToRight,
		Groups: []diagram.Group{{ID: "ci", Label: "CI"}, {ID: "cd", Label: "CD"}}}
	for i, s := range stages {
		grp := "ci"
		if i >= 5 {
			grp = "cd"
		}
		g.Nodes = append(g.Nodes, diagram.Node{ID: s, Label: s, Group: grp})
		if i > 0 {
			g.Edges = append(g.Edges, diagram.Edge{From: stages[i-1], To: s})
		}
	}
	g.Edges = append(g.Edges,
		diagram.Edge{From: "commit", To: "build", Label: "docs only: skip lint"},
		diagram.Edge{From: "build", To: "package", Label: "hotfix: skip tests"},
		diagram.Edge{From: "staging", To: "production", Label: "auto-approve"},
		diagram.Edge{From: "unit", To: "build", Label: "retry"},
		diagram.Edge{From: "e2e", To: "staging", Label: "redeploy"},
		diagram.Edge{From: "monitor", To: "staging", Label: "rollback"},
		diagram.Edge{From: "approve", To: "commit", Label: "rejected", Line: diagram.Dashed},
	)
	return g
}

// random is n nodes and m edges, each from a lower index to a higher one
// (so acyclic), the nodes in groups of ten when grouped (every fourth
// group nested in the one before).
func random(n, m int, seed int64, grouped bool) *diagram.Graph {
	r := rand.New(rand.NewSource(seed))
	g := &diagram.Graph{}
	if grouped {
		for i := 0; i < n/10; i++ {
			gr := diagram.Group{ID: fmt.Sprintf("g%d", i), Label: fmt.Sprintf("Group %d", i)}
			if i%4 == 3 {
				gr.Parent = fmt.Sprintf("g%d", i-1)
			}
			g.Groups = append(g.Groups, gr)
		}
	}
	for i := 0; i < n; i++ {
		nd := diagram.Node{ID: fmt.Sprintf("n%d", i), Label: fmt.Sprintf("node %d%s", i, "xxxxxxxxxx"[:r.Intn(10)])}
		if grouped && i/10 < len(g.Groups) {
			nd.Group = g.Groups[i/10].ID
		}
		g.Nodes = append(g.Nodes, nd)
	}
	for len(g.Edges) < m {
		a, b := r.Intn(n), r.Intn(n)
		if a == b {
			continue
		}
		if a > b {
			a, b = b, a
		}
		// Mostly near neighbours, as real diagrams are.
		if b-a > 20 && r.Intn(4) != 0 {
			continue
		}
		g.Edges = append(g.Edges, diagram.Edge{From: g.Nodes[a].ID, To: g.Nodes[b].ID})
	}
	return g
}
