package query

import (
	"encoding/json"
	"testing"
)

func TestGraphFixture(t *testing.T) {
	all := fixture(t)
	els, _ := Select(all, Target{IncludeDeleted: true})
	b, err := json.Marshal(Graph(els, all))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"nodes":{"cols":["id","type","label","x","y"],"rows":[` +
		`["a","rectangle","Client",0,0],["b","rectangle","Server",300,0],["c","ellipse","",0,200],` +
		`["t","text","Notes about the system",500,0],["f","frame","Backend",280,-20]]},` +
		`"edges":{"cols":["id","from","to","label"],"rows":[["e1",0,1,"calls"]]},` +
		`"unbound":{"cols":["id","label","from","to"],"rows":[["e2","",1,[500,200]],["e3","",[0,400],[100,400]]]},` +
		`"isolated":[2,3,4]}`
	if string(b) != want {
		t.Fatalf("got\n%s\nwant\n%s", b, want)
	}
}

// The nodes an arrow reaches are in the graph even when not selected,
// in scene order; a rotated loose arrow's free end is where it is drawn.
func TestGraphPartial(t *testing.T) {
	all := fixture(t)
	els, _ := Select(all, Target{IDs: []string{"e1", "c"}})
	g := Graph(els, all)
	if len(g.Nodes) != 3 || g.Nodes[0].ID != "a" || g.Nodes[1].ID != "b" || g.Nodes[2].ID != "c" {
		t.Fatalf("%+v", g.Nodes)
	}
	if len(g.Edges) != 1 || g.Edges[0] != (Edge{ID: "e1", From: 0, To: 1, Label: "calls"}) || len(g.Isolated) != 1 || g.Isolated[0] != 2 {
		t.Fatalf("%+v", g)
	}
	// Elements not in all still get a node of their own.
	stray := elements(t, `[{"id":"s","type":"rectangle","x":0,"y":0,"width":10,"height":10}]`)
	g = Graph(append(stray, all[5]), all) // s, then e1 (a → b)
	if len(g.Nodes) != 3 || g.Nodes[2].ID != "s" || g.Edges[0].From != 0 || g.Edges[0].To != 1 {
		t.Fatalf("%+v", g)
	}
	turned := elements(t, `[{"id":"r","type":"arrow","x":0,"y":0,"width":100,"height":0,"angle":3.141592653589793,"points":[[0,0],[100,0]]}]`)
	g = Graph(turned, turned)
	if u := g.Unbound[0]; u.From != (End{Node: -1, X: 100, Y: 0}) || u.To != (End{Node: -1, X: 0, Y: 0}) {
		t.Fatalf("%+v", u)
	}
	if b, _ := json.Marshal(Graph(nil, all)); string(b) != `{"nodes":{"cols":["id","type","label","x","y"],"rows":[]},"edges":{"cols":["id","from","to","label"],"rows":[]},"unbound":{"cols":["id","label","from","to"],"rows":[]},"isolated":[]}` {
		t.Fatal(string(b))
	}
}
