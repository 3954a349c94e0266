package excalidraw_test

import (
	"fmt"
	"math"
	"sort"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sceneBoxes reads a board and returns its live elements by id.
func sceneBoxes(t *testing.T, s *mcp.ClientSession, name string) map[string]map[string]any {
	t.Helper()
	doc := okCall(t, s, "excalidraw_scene_read", `{"name":"`+name+`","include":"full"}`)
	out := map[string]map[string]any{}
	for _, e := range asList(doc["scene"].(map[string]any)["elements"]) {
		el := e.(map[string]any)
		if el["isDeleted"] == true {
			continue
		}
		out[el["id"].(string)] = el
	}
	return out
}

// columnGaps are the gaps between the boxes of ids, sorted by top, and
// their left edges.
func columnGaps(t *testing.T, els map[string]map[string]any, ids ...string) (gaps, lefts []float64) {
	t.Helper()
	type box struct{ x, y, h float64 }
	var bs []box
	for _, id := range ids {
		el := els[id]
		if el == nil {
			t.Fatalf("no element %s", id)
		}
		bs = append(bs, box{el["x"].(float64), el["y"].(float64), el["height"].(float64)})
	}
	sort.Slice(bs, func(i, j int) bool { return bs[i].y < bs[j].y })
	for i, b := range bs {
		lefts = append(lefts, b.x)
		if i > 0 {
			gaps = append(gaps, math.Round(b.y-(bs[i-1].y+bs[i-1].h)))
		}
	}
	return gaps, lefts
}

// noFindings asserts that a write with lint "all" reports no finding,
// new or persisting.
func noFindings(t *testing.T, out map[string]any) {
	t.Helper()
	lint, _ := out["lint"].(map[string]any)
	if lint == nil {
		t.Fatalf("no lint in %v", out)
	}
	if n := asList(lint["new"]); len(n) > 0 || persistingTotal(lint) != 0 {
		t.Errorf("lint: %v", lint)
	}
}

// TestCreateStackOverMCP stacks existing boxes in a column through a
// real MCP client and checks that the stack keeps its gaps as agents
// edit it: an item made taller, an item deleted, an item added; bad
// arguments are refused at their place.
func TestCreateStackOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"board","elements":[
		{"type":"rectangle","id":"a","x":100,"y":100,"width":200,"height":60,"label":{"text":"Collect"}},
		{"type":"rectangle","id":"b","x":400,"y":30,"width":160,"height":80,"label":{"text":"Clean"}},
		{"type":"rectangle","id":"c","x":700,"y":500,"width":240,"height":50,"label":{"text":"Ship"}}]}`)
	out := okCall(t, s, "create_stack", `{"name":"board","ids":["a","b","c"],"gap":30,"options":{"lint":"all"}}`)
	stack, _ := out["stack"].(string)
	if len(stack) < 5 || stack[:4] != "stk_" {
		t.Fatalf("create_stack answered %v", out)
	}
	noFindings(t, out)
	want := func(what string, gaps ...float64) {
		t.Helper()
		els := sceneBoxes(t, s, "board")
		var ids []string
		for id, el := range els {
			if cd, _ := el["customData"].(map[string]any); cd != nil {
				if d, _ := cd["dsh"].(map[string]any); d != nil && d["id"] == stack {
					ids = append(ids, id)
				}
			}
		}
		g, lefts := columnGaps(t, els, ids...)
		if fmt.Sprint(g) != fmt.Sprint(gaps) {
			t.Errorf("%s: gaps %v, want %v", what, g, gaps)
		}
		for _, x := range lefts {
			if x != 100 {
				t.Errorf("%s: left edges %v, want all at 100 (the first item's)", what, lefts)
				break
			}
		}
		if a := els["a"]; a != nil && a["y"] != float64(100) {
			t.Errorf("%s: the first item moved to y=%v", what, a["y"])
		}
	}
	want("created", 30, 30)

	// An agent makes b taller: c moves down, the gaps stay.
	up := okCall(t, s, "update_elements", `{"name":"board","updates":[{"id":"b","patch":{"height":200}}]}`)
	if r := asList(up["relaidOut"]); len(r) == 0 {
		t.Errorf("update_elements relaidOut %v, want c", up["relaidOut"])
	}
	want("b grew", 30, 30)

	// Deleting b closes its gap.
	okCall(t, s, "delete_elements", `{"name":"board","ids":["b"]}`)
	want("b deleted", 30)

	// A new item added to the stack goes to its end.
	out = okCall(t, s, "create_stack", `{"name":"board","stack":"`+stack+`","elements":[{"type":"ellipse","id":"d","width":120,"height":120,"label":{"text":"Done"}}]}`)
	want("d added", 30, 30)
	els := sceneBoxes(t, s, "board")
	if els["d"]["y"].(float64) <= els["c"]["y"].(float64) {
		t.Errorf("d at y=%v is not after c at y=%v", els["d"]["y"], els["c"]["y"])
	}

	// A copy of an item (as a person's duplicate, which copies customData)
	// joins the stack.
	cp := okCall(t, s, "copy_elements", `{"name":"board","ids":["a"],"dx":10,"dy":10}`)
	want("a copied", 30, 30, 30)
	if c, _ := cp["copies"].(map[string]any); c["a"] == nil {
		t.Errorf("copy_elements answered %v", cp)
	}
	renderPNG(t, s, "board", "stack.png")

	failCall(t, s, "create_stack", `{"name":"board"}`, "invalid_operation", "/ids")
	failCall(t, s, "create_stack", `{"name":"board","stack":"stk_nope","ids":["a"]}`, "not_found", "/stack")
	failCall(t, s, "create_stack", `{"name":"board","ids":["zz"]}`, "not_found", "/ids/0")
}

// TestCreateStackOfNewElementsOverMCP makes a centred row of new
// elements in one call, with 0 lint findings, and renders it.
func TestCreateStackOfNewElementsOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"row","elements":[]}`)
	out := okCall(t, s, "create_stack", `{"name":"row","direction":"row","align":"center","at":{"x":0,"y":0},"options":{"lint":"all"},"elements":[
		{"type":"rectangle","width":160,"height":60,"label":{"text":"Plan"}},
		{"type":"rectangle","width":160,"height":120,"label":{"text":"Build and test"}},
		{"type":"ellipse","width":100,"height":100,"label":{"text":"Ship"}}]}`)
	noFindings(t, out)
	items := asList(out["items"])
	if len(items) != 3 {
		t.Fatalf("items %v", out["items"])
	}
	els := sceneBoxes(t, s, "row")
	x := 0.0
	for i, id := range items {
		el := els[id.(string)]
		if el["x"].(float64) != x {
			t.Errorf("item %d at x=%v, want %v", i, el["x"], x)
		}
		if mid := el["y"].(float64) + el["height"].(float64)/2; mid != 60 {
			t.Errorf("item %d's middle at y=%v, want 60 (the tallest item's)", i, mid)
		}
		x += el["width"].(float64) + 20
	}
	renderPNG(t, s, "row", "stack-row.png")
}

// TestStackOfTableOverMCP: a table is one item of a stack (it is a
// group); a longer cell makes the table keeper grow it, and the stack
// keeper, which runs after, moves the item below down.
func TestStackOfTableOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"t","elements":[]}`)
	tb := okCall(t, s, "set_table", `{"name":"t","at":{"x":0,"y":0},"header":["Name","Note"],"rows":[["a","short"]]}`)
	table := tb["table"].(string)
	okCall(t, s, "batch_create", `{"name":"t","elements":[{"type":"rectangle","id":"below","x":500,"y":500,"width":100,"height":40}]}`)
	okCall(t, s, "create_stack", `{"name":"t","ids":["`+table+`-1-1","below"],"gap":30}`)
	bottom := func() float64 {
		maxY := 0.0
		for _, el := range sceneBoxes(t, s, "t") {
			if d, _ := el["customData"].(map[string]any); d != nil {
				if dsh, _ := d["dsh"].(map[string]any); dsh != nil && dsh["kind"] == "table" {
					maxY = math.Max(maxY, el["y"].(float64)+el["height"].(float64))
				}
			}
		}
		return maxY
	}
	// The cells keep their table's tag; the stack's is beside it.
	if b := bottom(); b == 0 {
		t.Fatal("no element is tagged as the table's any more")
	}
	if y := sceneBoxes(t, s, "t")["below"]["y"].(float64); y != bottom()+30 {
		t.Fatalf("below at y=%v, the table ends at %v", y, bottom())
	}
	okCall(t, s, "update_elements", `{"name":"t","updates":[{"id":"`+table+`-1-1","patch":{"text":"a much longer note that has to wrap over several lines in its cell, since the column has a maximum width"}}]}`)
	if y, b := sceneBoxes(t, s, "t")["below"]["y"].(float64), bottom(); y != b+30 {
		t.Errorf("after the cell grew: below at y=%v, the table ends at %v", y, b)
	}
}
