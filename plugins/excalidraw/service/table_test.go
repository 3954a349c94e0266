package service

import (
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// tableOf reads table id's live cells from doc by row and column, with
// their labels.
func tableOf(t *testing.T, doc *scene.Document, id string) map[[2]int]engine.TablePart {
	t.Helper()
	out := map[[2]int]engine.TablePart{}
	for _, p := range engine.TableParts(doc, id) {
		k := [2]int{p.Tag.Row, p.Tag.Col}
		if _, dup := out[k]; dup {
			t.Fatalf("two cells at %v", k)
		}
		out[k] = p
	}
	return out
}

// TestSetTableTakesTheProfile draws a table on a board whose profile
// sets the type scale, font, spacing and header role: the cells use
// them, and a column of amounts is right-aligned by default.
func TestSetTableTakesTheProfile(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "p")
	prof := profile.Profile{TypeScale: map[string]float64{"body": 14, "heading": 24, "subheading": 18}, FontFamily: 6, Spacing: 32,
		Roles: map[string]profile.Role{"header": {Fill: "#a5d8ff", Stroke: "#1971c2"}}}
	// Planned with the profile given (Edit would read the board's).
	e := SetTable{Header: []string{"Name", "Cost"}, Rows: [][]string{{"Disk", "$12.00"}, {"CPU", "1,200"}, {"Net", ""}}}.WithProfile(prof)
	env, err := s.Write(ctx, WriteRequest{Name: "p"}, e.Plan(""))
	if err != nil {
		t.Fatal(err)
	}
	tid, _ := env.Extra["table"].(string)
	cells := tableOf(t, checkStored(t, dir, "p"), tid)
	if len(cells) != 8 {
		t.Fatalf("%d cells, want 8", len(cells))
	}
	for k, p := range cells {
		wantSize, wantFill, wantInk := 14.0, "transparent", "#1e1e1e"
		if k[0] == 0 {
			wantSize, wantFill, wantInk = 18, "#a5d8ff", "#1971c2"
		}
		if got := str(p.El, "backgroundColor"); got != wantFill {
			t.Errorf("cell %v fill %s, want %s", k, got, wantFill)
		}
		if p.Tag.Pad != 8 {
			t.Errorf("cell %v pad %v, want spacing/4 = 8", k, p.Tag.Pad)
		}
		if k == [2]int{3, 1} {
			if p.Label != nil {
				t.Errorf("the empty cell has a label %q", str(p.Label, "text"))
			}
			continue
		}
		if p.Label == nil {
			t.Fatalf("cell %v has no label", k)
		}
		if scene.NumberOf(p.Label, "fontSize") != wantSize || scene.NumberOf(p.Label, "fontFamily") != 6 || str(p.Label, "strokeColor") != wantInk {
			t.Errorf("cell %v label %v", k, p.Label)
		}
		wantAlign := "left"
		if k[1] == 1 {
			wantAlign = "right"
		}
		if got := str(p.Label, "textAlign"); got != wantAlign {
			t.Errorf("cell %v aligned %s, want %s", k, got, wantAlign)
		}
	}
	// Beside the flow, not on it.
	if box := env.Extra["box"].(map[string]float64); box["x"] < 520 {
		t.Errorf("table box %v overlaps the flow", box)
	}
}

// TestSetTableWraps: a long cell wraps at word boundaries within the
// maximum column width, and a word longer than that widens its column
// rather than break.
func TestSetTableWraps(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "w")
	long := "a description long enough that it has to wrap over several lines of the cell"
	env, err := s.Edit(ctx, WriteRequest{Name: "w"}, SetTable{Rows: [][]string{{long, "Supercalifragilisticexpialidocious"}}, MaxColumnWidth: 160, At: &engine.Point{X: 0, Y: 400}})
	if err != nil {
		t.Fatal(err)
	}
	cells := tableOf(t, checkStored(t, dir, "w"), env.Extra["table"].(string))
	a, b := cells[[2]int{0, 0}], cells[[2]int{0, 1}]
	if w := scene.NumberOf(a.El, "width"); w > 160 {
		t.Errorf("the wrapped column is %v wide, over its maximum 160", w)
	}
	text := str(a.Label, "text")
	if !strings.Contains(text, "\n") {
		t.Errorf("the long cell did not wrap: %q", text)
	}
	for _, line := range strings.Split(text, "\n") {
		for _, w := range strings.Fields(line) {
			if !strings.Contains(long, " "+w+" ") && !strings.HasPrefix(long, w+" ") && !strings.HasSuffix(long, " "+w) {
				t.Errorf("a word was broken: %q in %q", w, text)
			}
		}
	}
	if strings.Contains(str(b.Label, "text"), "\n") || scene.NumberOf(b.El, "width") <= 160 {
		t.Errorf("the long word broke or did not widen its column: %q, %v wide", str(b.Label, "text"), scene.NumberOf(b.El, "width"))
	}
	if scene.NumberOf(a.El, "height") != scene.NumberOf(b.El, "height") || scene.NumberOf(b.El, "x") != scene.NumberOf(a.El, "x")+scene.NumberOf(a.El, "width") {
		t.Error("the two cells do not share their border and height")
	}
	if lbl := a.Label; scene.NumberOf(lbl, "height") > scene.NumberOf(a.El, "height")-10 {
		t.Errorf("the label (%v tall) does not fit its cell (%v)", scene.NumberOf(lbl, "height"), scene.NumberOf(a.El, "height"))
	}
}

// TestSetTableReplans re-plans a table in place: a cell emptied loses its
// label, an empty cell given text gains one on the same element, a
// column and a row left out go, and cells that did not change are not
// written.
func TestSetTableReplans(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "r")
	env, err := s.Edit(ctx, WriteRequest{Name: "r"}, SetTable{Header: []string{"A", "B", "C"}, Rows: [][]string{{"1", "", "x"}, {"2", "two", "y"}, {"3", "three", "z"}}})
	if err != nil {
		t.Fatal(err)
	}
	tid := env.Extra["table"].(string)
	before := tableOf(t, checkStored(t, dir, "r"), tid)
	env, err = s.Edit(ctx, WriteRequest{Name: "r"}, SetTable{Table: tid, Header: []string{"A", "B"}, Rows: [][]string{{"1", "one"}, {"2", ""}}})
	if err != nil {
		t.Fatal(err)
	}
	after := tableOf(t, checkStored(t, dir, "r"), tid)
	if len(after) != 6 {
		t.Fatalf("%d cells after, want 3 × 2", len(after))
	}
	for k, p := range after {
		if str(p.El, "id") != str(before[k].El, "id") {
			t.Errorf("cell %v changed id", k)
		}
	}
	if l := after[[2]int{1, 1}].Label; l == nil || str(l, "text") != "one" || str(l, "containerId") != str(after[[2]int{1, 1}].El, "id") {
		t.Errorf("the filled cell's label: %v", l)
	}
	if after[[2]int{2, 1}].Label != nil {
		t.Error("the emptied cell keeps a label")
	}
	if env.Extra["cellIds"] != nil {
		t.Errorf("cellIds %v: every id is <table>-<row>-<col>", env.Extra["cellIds"])
	}
	for _, k := range [][2]int{{0, 0}, {1, 0}} {
		if id := str(after[k].El, "id"); slices.Contains(env.Changed.Updated, id) {
			t.Errorf("unchanged cell %v was written", k)
		}
	}
	gone := 0
	for _, id := range env.Changed.Deleted {
		if strings.HasPrefix(id, tid+"-") {
			gone++
		}
	}
	if gone != 6 { // column C (4 cells) and row 3 (2 cells left)
		t.Errorf("deleted %v, want 6 cells", env.Changed.Deleted)
	}
	// Grown again, and moved: a cell whose id a deleted one holds gets
	// another, answered in cellIds.
	env, err = s.Edit(ctx, WriteRequest{Name: "r"}, SetTable{Table: tid, Header: []string{"A", "B"}, Rows: [][]string{{"1", "one"}, {"2", ""}, {"3", "three"}}, At: &engine.Point{X: -500, Y: 300}})
	if err != nil {
		t.Fatal(err)
	}
	if c := tableOf(t, checkStored(t, dir, "r"), tid)[[2]int{0, 0}].El; scene.NumberOf(c, "x") != -500 || scene.NumberOf(c, "y") != 300 {
		t.Errorf("the table re-planned at (-500, 300) is at %v, %v", scene.NumberOf(c, "x"), scene.NumberOf(c, "y"))
	}
	odd, _ := env.Extra["cellIds"].(map[string]string)
	if len(odd) != 2 || !strings.HasPrefix(odd["3-0"], tid+"-3-0-") {
		t.Errorf("cellIds %v", env.Extra["cellIds"])
	}
}

// TestSetTableRefusesBadTables: bad tables are invalid_operation at
// their place before any work, and write nothing.
func TestSetTableRefusesBadTables(t *testing.T) {
	s, _ := newTestService(t, scene.Limits{})
	first := createFlow(t, s, "b")
	wide := make([]string, 51)
	many := make([][]string, 401)
	for i := range many {
		many[i] = []string{"a", "b", "c", "d", "e"}
	}
	for _, c := range []struct {
		e       SetTable
		pointer string
	}{
		{SetTable{}, "/rows"},
		{SetTable{Header: []string{}, Rows: [][]string{{"a"}}}, "/header"},
		{SetTable{Rows: [][]string{{"a"}, {}}}, "/rows/1"},
		{SetTable{Rows: [][]string{{"a"}, wide}}, "/rows/1"},
		{SetTable{Header: wide, Rows: [][]string{{"a"}}}, "/header"},
		{SetTable{Rows: many}, "/rows"},
		{SetTable{Rows: [][]string{{"a", "b"}}, Align: []string{"left", "justify"}}, "/align/1"},
		{SetTable{Rows: [][]string{{"a", "b"}}, Align: []string{"left", "left", "left"}}, "/align/2"},
	} {
		_, err := s.Edit(ctx, WriteRequest{Name: "b"}, c.e)
		if se := wantCode(t, err, sceneerr.InvalidOperation); se.Details["pointer"] != c.pointer {
			t.Errorf("%+v: pointer %v, want %s", c.e, se.Details["pointer"], c.pointer)
		}
	}
	_, err := s.Edit(ctx, WriteRequest{Name: "b"}, SetTable{Table: "tbl_none", Rows: [][]string{{"a"}}})
	wantCode(t, err, sceneerr.NotFound)
	head, err := s.Read(ctx, ReadRequest{Name: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if head.Revision != first.Revision {
		t.Errorf("a refused table wrote: revision %d → %d", first.Revision, head.Revision)
	}
}

// TestSetTableReplansMoreThanACallHolds: a re-plan of a table of more
// cells than one update call holds (engine.MaxOperations) goes through,
// and so does the keeper's re-lay of it.
func TestSetTableReplansMoreThanACallHolds(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "m")
	rows := make([][]string, 130)
	for i := range rows {
		rows[i] = []string{"row", "cell", "1", "x"}
	}
	env, err := s.Edit(ctx, WriteRequest{Name: "m"}, SetTable{Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	tid := env.Extra["table"].(string)
	rows[0][0] = "the first row's first cell, longer now"
	if _, err := s.Edit(ctx, WriteRequest{Name: "m"}, SetTable{Table: tid, Rows: rows}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Edit(ctx, WriteRequest{Name: "m"}, UpdateElements{Updates: []engine.Update{{ID: tid + "-0-1", Patch: []byte(`{"text":"a cell that grew"}`)}}}); err != nil {
		t.Fatal(err)
	}
	cells := tableOf(t, checkStored(t, dir, "m"), tid)
	last, first := cells[[2]int{129, 3}].El, cells[[2]int{0, 0}].El
	if w := scene.NumberOf(first, "width") + scene.NumberOf(cells[[2]int{0, 1}].El, "width") + scene.NumberOf(cells[[2]int{0, 2}].El, "width"); scene.NumberOf(last, "x") != scene.NumberOf(first, "x")+w {
		t.Errorf("the last cell is not on the grid: x %v", scene.NumberOf(last, "x"))
	}
}

// TestSaveKeepsTable: a person who types a longer text into a cell in the
// editor (their save changes the label, not the grid) gets the table
// laid out again: the cell's column widens for every row, and the result
// says what moved. The keeper sees the person's edit (Txn.MarkEdited
// from the stored scene's versions), which its own bumps would not show.
func TestSaveKeepsTable(t *testing.T) {
	s, dir := newTestService(t, scene.Limits{})
	createFlow(t, s, "p")
	env, err := s.Edit(ctx, WriteRequest{Name: "p"}, SetTable{Header: []string{"Name", "Cost"}, Rows: [][]string{{"Disk", "12"}, {"CPU", "7"}}})
	if err != nil {
		t.Fatal(err)
	}
	tid := env.Extra["table"].(string)
	doc := checkStored(t, dir, "p")
	cell := element(t, doc, tid+"-1-0")
	width := scene.NumberOf(cell, "width")
	var label *ojson.Object
	for _, el := range doc.Elements() {
		if scene.StringOf(el, "containerId") == tid+"-1-0" {
			label = el
		}
	}
	if label == nil {
		t.Fatal("the cell has no label")
	}
	const long = "Disk and backup storage"
	label.Set("text", long)
	label.Set("originalText", long)
	label.Set("version", scene.NumberOf(label, "version")+1)
	data, err := doc.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Save(ctx, SaveRequest{Name: "p", Scene: data, ExpectedRevision: env.Revision})
	if err != nil {
		t.Fatal(err)
	}
	stored := checkStored(t, dir, "p")
	w1, w0, w2 := scene.NumberOf(element(t, stored, tid+"-1-0"), "width"), scene.NumberOf(element(t, stored, tid+"-0-0"), "width"), scene.NumberOf(element(t, stored, tid+"-2-0"), "width")
	if w1 <= width || w0 != w1 || w2 != w1 {
		t.Errorf("after a longer cell text: column widths %v %v %v (was %v); want one wider width", w0, w1, w2, width)
	}
	if x0, x1 := scene.NumberOf(element(t, stored, tid+"-1-1"), "x"), scene.NumberOf(element(t, stored, tid+"-1-0"), "x")+w1; x0 != x1 {
		t.Errorf("the next column starts at %v, want %v", x0, x1)
	}
	if len(res.RelaidOut) == 0 {
		t.Errorf("save result %+v: relaidOut should name the moved cells", res)
	}
}
