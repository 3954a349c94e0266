package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
)

// TestLayTable: columns fit their widest text up to the maximum, where
// text wraps at word boundaries (a longer word widens the column); rows
// are as tall as their tallest cell; a cell of the grid's size holds its
// label without growing.
func TestLayTable(t *testing.T) {
	cells := []TableCell{
		{Row: 0, Col: 0, Text: "Name", Size: 16, Family: 5},
		{Row: 0, Col: 1, Text: "Notes", Size: 16, Family: 5},
		{Row: 1, Col: 0, Text: "Gateway", Size: 16, Family: 5},
		{Row: 1, Col: 1, Text: "routes every request to the service that owns it and keeps the sessions", Size: 16, Family: 5},
		{Row: 2, Col: 0, Text: "Pneumonoultramicroscopicsilicovolcanoconiosis", Size: 16, Family: 5},
		{Row: 2, Col: 1, Text: "", Size: 16, Family: 5},
	}
	g := LayTable(cells, 3, 2, 5, 200)
	long, _ := build.LabelBox("rectangle", cells[4].Text, 5, 16, 1000, 0, 0)
	if g.Widths[1] > 200 || g.Widths[1] < 150 {
		t.Errorf("the wrapped column is %v wide, want up to its maximum 200", g.Widths[1])
	}
	if g.Widths[0] < long+10 || long+10 < 200 {
		t.Errorf("column 0 is %v wide; its unbreakable word needs %v", g.Widths[0], long+10)
	}
	if !(g.Heights[1] > g.Heights[0] && g.Heights[2] == g.Heights[0]) {
		t.Errorf("heights %v: want the wrapped row taller, the one-line rows alike", g.Heights)
	}
	for _, c := range cells {
		if c.Text == "" {
			continue
		}
		x, y, w, h := g.Cell(0, 0, c.Row, c.Col)
		lay := layCell(t, x, y, w, h, c)
		if lay.ContainerWidth != w || lay.ContainerHeight != h {
			t.Errorf("cell %d,%d: a %v × %v box grows to %v × %v for its label", c.Row, c.Col, w, h, lay.ContainerWidth, lay.ContainerHeight)
		}
		for _, line := range strings.Split(lay.Text, "\n") {
			for _, word := range strings.Fields(line) {
				if !slices.Contains(strings.Fields(c.Text), word) {
					t.Errorf("cell %d,%d: %q broken mid-word (%q)", c.Row, c.Col, word, lay.Text)
				}
			}
		}
	}
	if w, h := g.Size(); w != g.Widths[0]+g.Widths[1] || h != g.Heights[0]+g.Heights[1]+g.Heights[2] {
		t.Errorf("size %v × %v", w, h)
	}
}

// layCell lays out a label of cell c in a box as the editor would.
func layCell(t *testing.T, x, y, w, h float64, c TableCell) build.TextLayout {
	t.Helper()
	doc := scene.NewDocument()
	in := fmt.Sprintf(`{"type":"rectangle","id":"c","x":%v,"y":%v,"width":%v,"height":%v,"label":{"text":%q,"fontSize":%v,"fontFamily":%d}}`, x, y, w, h, c.Text, c.Size, c.Family)
	s := newStored(t)
	if _, err := s.begin(doc).Add(raws(in), "/"); err != nil {
		t.Fatal(err)
	}
	cont := element(t, doc, "c")
	return build.LayoutLabel(cont, element(t, doc, labelID(t, doc, "c")))
}

// storedTable stores a 3 × 2 table drawn as set_table draws it (cells
// tagged, on their grid) and returns the store.
func storedTable(t *testing.T) *stored {
	t.Helper()
	texts := [][]string{{"Key", "Value"}, {"a", "1"}, {"b", ""}}
	var cells []TableCell
	for r, row := range texts {
		for c, x := range row {
			cells = append(cells, TableCell{Row: r, Col: c, Text: x, Size: 16, Family: 5})
		}
	}
	g := LayTable(cells, 3, 2, 5, 200)
	var inputs []string
	for _, c := range cells {
		x, y, w, h := g.Cell(100, 50, c.Row, c.Col)
		in := fmt.Sprintf(`{"type":"rectangle","id":"t-%d-%d","x":%v,"y":%v,"width":%v,"height":%v,"groupIds":["t"]`, c.Row, c.Col, x, y, w, h)
		if c.Text != "" {
			in += fmt.Sprintf(`,"label":{"text":%q,"fontSize":16,"fontFamily":5}`, c.Text)
		}
		inputs = append(inputs, in+"}")
	}
	s := newStored(t)
	doc := s.create(inputs...)
	tx := s.begin(doc)
	tx.index() // SetCustom finds what Add indexed; this Txn added nothing
	for _, c := range cells {
		tag := TableTag{Table: "t", Slot: "cell", Row: c.Row, Col: c.Col, Pad: 5, Max: 200, Size: 16, Font: 5}
		if err := tx.SetCustom(fmt.Sprintf("t-%d-%d", c.Row, c.Col), TagKey, tag.Object(), "/"); err != nil {
			t.Fatal(err)
		}
	}
	if ids, err := tx.Keep(); err != nil || len(ids) != 0 {
		t.Fatalf("the keeper changed a table in line: %v %v", ids, err)
	}
	if err := s.commit(doc); err != nil {
		t.Fatal(err)
	}
	return s
}

// inGrid fails unless table t's cells of doc are on the grid their texts
// make, from (100, 50).
func inGrid(t *testing.T, doc *scene.Document) TableGrid {
	t.Helper()
	parts := TableParts(doc, "t")
	cells, rows, cols := TableCells(parts)
	g := LayTable(cells, rows, cols, 5, 200)
	for _, p := range parts {
		x, y, w, h := g.Cell(100, 50, p.Tag.Row, p.Tag.Col)
		got := [4]float64{scene.NumberOf(p.El, "x"), scene.NumberOf(p.El, "y"), scene.NumberOf(p.El, "width"), scene.NumberOf(p.El, "height")}
		if got != [4]float64{x, y, w, h} {
			t.Errorf("cell %d,%d at %v, want %v", p.Tag.Row, p.Tag.Col, got, [4]float64{x, y, w, h})
		}
	}
	return g
}

// TestKeepTables: an update that lengthens a cell's text leaves the grid
// out of line; the keeper widens the column, heightens the row when the
// text wraps, moves the cells after them, and a second run changes
// nothing. A shorter text gives the room back; a moved table stays
// where it was moved.
func TestKeepTables(t *testing.T) {
	s := storedTable(t)
	was := inGrid(t, s.doc())

	doc := s.doc()
	tx := s.begin(doc)
	long := "a much longer value that has to wrap inside its column"
	if err := tx.Update([]Update{{ID: "t-1-1", Patch: json.RawMessage(`{"text":"` + long + `"}`)}}, "/u"); err != nil {
		t.Fatal(err)
	}
	ids, err := tx.Keep()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(ids, "t-1-1") || !slices.Contains(ids, "t-2-1") || slices.Contains(ids, "t-0-0") {
		t.Errorf("keeper changed %v: want the grown cell and those it moved or sized", ids)
	}
	if again, _ := tx.Keep(); len(again) != 0 {
		t.Errorf("a second keep changed %v", again)
	}
	if err := s.commit(doc); err != nil {
		t.Fatal(err)
	}
	grown := inGrid(t, s.doc())
	if grown.Widths[1] <= was.Widths[1] || grown.Widths[1] > 200 || grown.Heights[1] <= was.Heights[1] || grown.Widths[0] != was.Widths[0] {
		t.Errorf("grid %v → %v", was, grown)
	}

	// Shorter again: the room comes back.
	doc = s.doc()
	tx = s.begin(doc)
	if err := tx.Update([]Update{{ID: "t-1-1", Patch: json.RawMessage(`{"text":"1"}`)}}, "/u"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Keep(); err != nil {
		t.Fatal(err)
	}
	if err := s.commit(doc); err != nil {
		t.Fatal(err)
	}
	if back := inGrid(t, s.doc()); fmt.Sprint(back) != fmt.Sprint(was) {
		t.Errorf("grid %v after the text came back, want %v", back, was)
	}

	// Moved whole: in line where it is, nothing to do.
	doc = s.doc()
	tx = s.begin(doc)
	var all []string
	for _, p := range TableParts(doc, "t") {
		all = append(all, scene.StringOf(p.El, "id"))
	}
	if _, err := tx.Move(all, 40, 30, "/m"); err != nil {
		t.Fatal(err)
	}
	if ids, _ := tx.Keep(); len(ids) != 0 {
		t.Errorf("the keeper changed a moved table: %v", ids)
	}
}

// TestLabelCell: an empty cell given text gets a label on the same
// element, bound both ways, in the cell's group, drawn just above it and
// laid out in it.
func TestLabelCell(t *testing.T) {
	s := storedTable(t)
	doc := s.doc()
	tx := s.begin(doc)
	if err := tx.LabelCell("t-2-1", json.RawMessage(`{"text":"filled","fontSize":16,"fontFamily":5,"textAlign":"right"}`), "/l"); err != nil {
		t.Fatal(err)
	}
	if err := tx.LabelCell("t-2-1", json.RawMessage(`{"text":"again"}`), "/l"); err == nil {
		t.Error("a second label was accepted")
	}
	if err := s.commit(doc); err != nil {
		t.Fatal(err)
	}
	doc = s.doc()
	c := element(t, doc, "t-2-1")
	lid := labelID(t, doc, "t-2-1")
	l := element(t, doc, lid)
	if scene.StringOf(l, "containerId") != "t-2-1" || scene.StringOf(l, "text") != "filled" || scene.StringOf(l, "textAlign") != "right" {
		t.Errorf("label %v", l)
	}
	if g, _ := l.Array("groupIds"); len(g) != 1 || g[0] != "t" {
		t.Errorf("label groups %v", g)
	}
	ci, _ := doc.Find("t-2-1")
	li, _ := doc.Find(lid)
	if li != ci+1 {
		t.Errorf("label at %d, its cell at %d", li, ci)
	}
	if n := len(doc.Elements()); n != 6+6 {
		t.Errorf("%d elements, want 6 cells and 6 labels (the stand-in gone)", n)
	}
	lay := build.LayoutLabel(c, l)
	if lay.X != scene.NumberOf(l, "x") || lay.Y != scene.NumberOf(l, "y") {
		t.Errorf("label not laid out in its cell: %+v", lay)
	}
}

// TestTablePartsLeaveCopiesOut: a copy of a table's cells (same tags, a
// group of their own) is not the table's, and the keeper does not pull
// it onto the table's grid.
func TestTablePartsLeaveCopiesOut(t *testing.T) {
	s := storedTable(t)
	doc := s.doc()
	tx := s.begin(doc)
	var ids []string
	for _, p := range TableParts(doc, "t") {
		ids = append(ids, scene.StringOf(p.El, "id"))
	}
	copies, err := tx.Copy(ids, 0, 400, "/c")
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Update([]Update{{ID: "t-1-0", Patch: json.RawMessage(`{"text":"a longer key than before"}`)}}, "/u"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Keep(); err != nil {
		t.Fatal(err)
	}
	parts := TableParts(doc, "t")
	if len(parts) != 6 {
		t.Fatalf("%d parts, want the 6 original cells", len(parts))
	}
	for _, p := range parts {
		if id := scene.StringOf(p.El, "id"); !strings.HasPrefix(id, "t-") {
			t.Errorf("the copy %s is taken for the table's", id)
		}
	}
	for _, c := range copies {
		if _, tagged := TableTagOf(element(t, doc, c)); !tagged && scene.StringOf(element(t, doc, c), "type") != "text" {
			t.Errorf("copy %s lost its tag: the test tests nothing", c)
		}
		if y := scene.NumberOf(element(t, doc, c), "y"); y < 400 {
			t.Errorf("copy %s moved onto the table (y %v)", c, y)
		}
	}
}
