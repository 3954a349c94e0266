package excalidraw_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// tableCells reads the live cells of table id from the board: each
// rectangle tagged as the table's cell by its row and column.
func tableCells(t *testing.T, s *mcp.ClientSession, id string) map[[2]int]map[string]any {
	t.Helper()
	doc := okCall(t, s, "excalidraw_scene_read", `{"name":"board","include":"full"}`)
	out := map[[2]int]map[string]any{}
	for _, e := range asList(doc["scene"].(map[string]any)["elements"]) {
		el := e.(map[string]any)
		cd, _ := el["customData"].(map[string]any)
		tag, _ := cd["dsh"].(map[string]any)
		if tag == nil || tag["id"] != id || el["isDeleted"] == true {
			continue
		}
		k := [2]int{int(tag["row"].(float64)), int(tag["col"].(float64))}
		if out[k] != nil {
			t.Errorf("two cells at %v", k)
		}
		out[k] = el
	}
	return out
}

// checkGrid fails unless the cells are a rows × cols grid sharing
// borders exactly: every cell of a row has the row's top and height,
// every cell of a column the column's left and width, and each starts
// where the one before it ends. It returns the widths and heights.
func checkGrid(t *testing.T, cells map[[2]int]map[string]any, rows, cols int) (widths, heights []float64) {
	t.Helper()
	if len(cells) != rows*cols {
		t.Fatalf("%d cells, want %d × %d", len(cells), rows, cols)
	}
	num := func(el map[string]any, k string) float64 { return el[k].(float64) }
	x0, y0 := num(cells[[2]int{0, 0}], "x"), num(cells[[2]int{0, 0}], "y")
	widths, heights = make([]float64, cols), make([]float64, rows)
	for c := range cols {
		widths[c] = num(cells[[2]int{0, c}], "width")
	}
	for r := range rows {
		heights[r] = num(cells[[2]int{r, 0}], "height")
	}
	y := y0
	for r := range rows {
		x := x0
		for c := range cols {
			el := cells[[2]int{r, c}]
			if el == nil {
				t.Fatalf("no cell at %d,%d", r, c)
			}
			got := [4]float64{num(el, "x"), num(el, "y"), num(el, "width"), num(el, "height")}
			want := [4]float64{x, y, widths[c], heights[r]}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 0.01 {
					t.Errorf("cell %d,%d is at %v, want %v", r, c, got, want)
					break
				}
			}
			x += widths[c]
		}
		y += heights[r]
	}
	return widths, heights
}

// TestSetTableOverMCP draws a 6×4 table through a real MCP client with no
// lint finding (all rules, and validate_scene), re-plans it with a longer
// cell and a new row (the grid kept, unchanged cells keeping their ids),
// lets the keeper lay it out again after update_elements lengthens one
// cell's text, and refuses bad tables at their place without writing.
func TestSetTableOverMCP(t *testing.T) {
	s, closeMCP := elementHost(t)
	defer closeMCP()
	okCall(t, s, "excalidraw_scene_create", `{"name":"board","elements":[{"type":"rectangle","x":0,"y":0,"width":100,"height":60}]}`)

	out, size := rawCall(t, s, "set_table", `{"name":"board","options":{"lint":"all"},"header":["Service","Owner","Latency (ms)","Status"],
		"rows":[["API gateway","Platform","12","healthy"],["Orders","Commerce","48","degraded"],["Payments","Fintech","230","healthy"],
		        ["Search","Discovery","95","healthy"],["Notifications","Growth","7"]]}`)
	if out["ok"] != true {
		t.Fatalf("set_table: %v", out)
	}
	tid, _ := out["table"].(string)
	if tid == "" || fmt.Sprint(out["size"]) != "[6 4]" || out["cellIds"] != nil {
		t.Fatalf("set_table answered %v", out)
	}
	t.Logf("answer: %d bytes", size)
	lint, _ := out["lint"].(map[string]any)
	persisting := lint["persisting"] // a count, or {findings, total}
	if p, ok := persisting.(map[string]any); ok {
		persisting = p["total"]
	}
	if len(asList(lint["new"])) != 0 || persisting != float64(0) {
		t.Errorf("a fresh table has lint findings: %v", lint)
	}
	if box := out["box"].(map[string]any); box["x"].(float64) < 100 {
		t.Errorf("the table is not beside the content: %v", box)
	}
	if v := okCall(t, s, "validate_scene", `{"name":"board"}`); v["valid"] != true || v["lintCount"] != float64(0) || len(asList(v["diagnostics"])) != 0 {
		t.Errorf("validate_scene on a fresh table: %v", v)
	}
	cells := tableCells(t, s, tid)
	widths, heights := checkGrid(t, cells, 6, 4)
	group := ""
	for k, el := range cells {
		if id := fmt.Sprintf("%s-%d-%d", tid, k[0], k[1]); el["id"] != id {
			t.Errorf("cell %v has id %v, want %s", k, el["id"], id)
		}
		g := asList(el["groupIds"])
		if len(g) != 1 || (group != "" && g[0] != group) {
			t.Errorf("cell %v groups %v: the table is not one group", k, g)
		}
		group = fmt.Sprint(g[0])
		if slot := el["customData"].(map[string]any)["dsh"].(map[string]any)["slot"]; (k[0] == 0) != (slot == "header") {
			t.Errorf("cell %v has slot %v", k, slot)
		}
	}
	// The ragged last row is padded with an empty cell.
	if cells[[2]int{5, 3}] == nil {
		t.Error("the short row was not padded")
	}

	// Re-planned: a longer cell widens its column, a new row comes below,
	// the rest keep their elements.
	out = okCall(t, s, "set_table", `{"name":"board","table":"`+tid+`","header":["Service","Owner","Latency (ms)","Status"],
		"rows":[["API gateway","Platform","12","healthy"],["Orders","Commerce and checkout","48","degraded"],["Payments","Fintech","230","healthy"],
		        ["Search","Discovery","95","healthy"],["Notifications","Growth","7"],["Billing","Fintech","31","healthy"]]}`)
	if fmt.Sprint(out["size"]) != "[7 4]" {
		t.Fatalf("re-plan answered %v", out)
	}
	cells2 := tableCells(t, s, tid)
	w2, h2 := checkGrid(t, cells2, 7, 4)
	if w2[1] <= widths[1] || w2[0] != widths[0] || h2[2] != heights[2] {
		t.Errorf("widths %v → %v, heights %v → %v: want column 1 wider, the rest as they were", widths, w2, heights, h2)
	}
	for k, el := range cells {
		if cells2[k]["id"] != el["id"] {
			t.Errorf("cell %v changed id: %v → %v", k, el["id"], cells2[k]["id"])
		}
	}
	ch := out["changed"].(map[string]any)
	if len(asList(ch["deleted"])) != 0 || len(asList(ch["created"])) != 8 {
		t.Errorf("re-plan changed %v, want the new row's 4 cells and labels created, nothing deleted", ch)
	}

	// Another write lengthens a cell: the keeper widens its column and
	// moves the cells after it, and says so.
	long := fmt.Sprintf("%s-%d-%d", tid, 3, 0)
	up := okCall(t, s, "update_elements", `{"name":"board","updates":[{"id":"`+long+`","patch":{"text":"Payments and refunds (card, SEPA, wire)"}}]}`)
	if len(asList(up["relaidOut"])) == 0 {
		t.Errorf("update_elements reported no relaidOut: %v", up)
	}
	cells3 := tableCells(t, s, tid)
	w3, h3 := checkGrid(t, cells3, 7, 4)
	if w3[0] <= w2[0] {
		t.Errorf("widths %v → %v: column 0 did not widen", w2, w3)
	}
	if h3[3] < h2[3] {
		t.Errorf("row 3 shrank: %v → %v", h2, h3)
	}
	if lint := okCall(t, s, "validate_scene", `{"name":"board"}`); lint["lintCount"] != float64(0) {
		t.Errorf("after the re-lay: %v", lint["lint"])
	}
	// A write that leaves the table in line changes nothing of it.
	again := okCall(t, s, "update_elements", `{"name":"board","updates":[{"id":"`+long+`","patch":{"text":"Payments and refunds (card, SEPA, wire)"}}]}`)
	if len(asList(again["relaidOut"])) != 0 {
		t.Errorf("a second identical update re-laid %v", again["relaidOut"])
	}

	// replace_text too: every "Fintech" grows, and column 1 with them.
	okCall(t, s, "replace_text", `{"name":"board","find":"Fintech","replace":"Financial technology and payments"}`)
	w4, _ := checkGrid(t, tableCells(t, s, tid), 7, 4)
	if w4[1] <= w3[1] {
		t.Errorf("widths %v → %v: replace_text did not widen column 1", w3, w4)
	}

	// Bad tables: refused at their place, nothing written.
	rev := okCall(t, s, "excalidraw_scene_read", `{"name":"board"}`)["revision"]
	failCall(t, s, "set_table", `{"name":"board","rows":[["a","b"],[]]}`, "invalid_operation", "/rows/1")
	failCall(t, s, "set_table", `{"name":"board","rows":[["a",1]]}`, "invalid_operation", "/rows/0/1")
	failCall(t, s, "set_table", `{"name":"board","rows":[["a","b"]],"align":["left","middle"]}`, "invalid_operation", "/align/1")
	failCall(t, s, "set_table", `{"name":"board","rows":[["a","b"]],"align":["left","left","left"]}`, "invalid_operation", "/align/2")
	wide := make([]string, 51)
	for i := range wide {
		wide[i] = "x"
	}
	rw, _ := json.Marshal(wide)
	failCall(t, s, "set_table", `{"name":"board","rows":[`+string(rw)+`]}`, "invalid_operation", "/rows/0")
	many := make([][]string, 501)
	for i := range many {
		many[i] = []string{"a", "b", "c", "d"}
	}
	rm, _ := json.Marshal(many)
	failCall(t, s, "set_table", `{"name":"board","rows":`+string(rm)+`}`, "invalid_operation", "/rows")
	failCall(t, s, "set_table", `{"name":"board","rows":[]}`, "invalid_operation", "/rows")
	failCall(t, s, "set_table", `{"name":"board","table":"tbl_nope","rows":[["a"]]}`, "not_found", "/table")
	if r := okCall(t, s, "excalidraw_scene_read", `{"name":"board"}`); r["revision"] != rev {
		t.Errorf("a refused set_table wrote: revision %v → %v", rev, r["revision"])
	}

	if dir := os.Getenv("DSH_TABLE_PNG"); dir != "" {
		okCall(t, s, "set_table", `{"name":"board","at":{"x":0,"y":600},"header":["Item","Description","Qty","Price"],
			"rows":[["Widget","A small widget used for fastening the main assembly to the base plate in humid conditions","3","$12.50"],
			        ["Gadget","Short","120","$1,200.00"],["Thingamajig","Another fairly long description that should wrap across lines at word boundaries","7","$3.99"]]}`)
		res, err := s.CallTool(context.Background(), &mcp.CallToolParams{Name: "render", Arguments: map[string]any{"name": "board"}})
		decodeToolResult(t, "render", res, err)
		if err := os.WriteFile(dir+"/table.png", res.Content[1].(*mcp.ImageContent).Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
