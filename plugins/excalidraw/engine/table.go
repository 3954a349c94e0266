package engine

import (
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// This file is a table's grid (set_table): how wide its columns and how
// tall its rows are for the cells' texts, and the keeper that lays a
// table out again when an edit left its cells out of line.

// TagKey is the customData member every element a board-craft planner
// draws carries: {"kind": "table", "id": the table's id, "slot":
// "header"|"cell", "row", "col", "pad", "max", "size", "font"} for a table's cell (TableTag).
const TagKey = "dsh"

// TableCell is one cell of a table as its grid is measured: where it
// is and its label's text and typography.
type TableCell struct {
	Row, Col int
	Text     string
	Size     float64
	Family   int
}

// TableGrid is a table's column widths and row heights, whole pixels.
type TableGrid struct {
	Widths, Heights []float64
}

// LayTable measures a rows × cols grid for its cells: a column is as
// wide as its widest cell's text on one line, but at most maxWidth (a
// longer text wraps at word boundaries; a word wider than that widens
// its column), and a row as tall as its tallest cell's text wrapped to
// its column. pad is the room beyond the label's own padding on each
// side of a cell's text. Texts are measured by the builder's metrics
// (build.LabelBox), so a cell this size keeps its label inside.
func LayTable(cells []TableCell, rows, cols int, pad, maxWidth float64) TableGrid {
	g := TableGrid{Widths: make([]float64, cols), Heights: make([]float64, rows)}
	for _, c := range cells {
		min := 2*c.Size + 2*pad
		g.Widths[c.Col] = max(g.Widths[c.Col], math.Ceil(min))
		if strings.TrimSpace(c.Text) == "" {
			continue
		}
		w, _ := build.LabelBox("rectangle", c.Text, c.Family, c.Size, maxWidth-2*pad-10, 0, 0)
		g.Widths[c.Col] = max(g.Widths[c.Col], math.Ceil(w+2*pad))
	}
	for _, c := range cells {
		text := c.Text
		if strings.TrimSpace(text) == "" {
			text = "x" // an empty cell is one line tall
		}
		w := g.Widths[c.Col] - 2*pad
		_, h := build.LabelBox("rectangle", text, c.Family, c.Size, w-10, w, 0)
		g.Heights[c.Row] = max(g.Heights[c.Row], math.Ceil(h+2*pad))
	}
	return g
}

// Cell is the box of the cell at row r, column c of a grid whose top
// left corner is at x, y.
func (g TableGrid) Cell(x, y float64, r, c int) (cx, cy, w, h float64) {
	for _, cw := range g.Widths[:c] {
		x += cw
	}
	for _, rh := range g.Heights[:r] {
		y += rh
	}
	return x, y, g.Widths[c], g.Heights[r]
}

// Size is the grid's width and height.
func (g TableGrid) Size() (w, h float64) {
	for _, cw := range g.Widths {
		w += cw
	}
	for _, rh := range g.Heights {
		h += rh
	}
	return w, h
}

// TableTag is what a table's cell records in its customData (TagKey).
type TableTag struct {
	Table string  `json:"id"`
	Slot  string  `json:"slot"`
	Row   int     `json:"row"`
	Col   int     `json:"col"`
	Pad   float64 `json:"pad"`
	Max   float64 `json:"max"`
	// Size and Font are the cell's font size and family, which an
	// empty cell (one without a label) is measured by.
	Size float64 `json:"size"`
	Font int     `json:"font"`
}

// Object is the tag as the customData value SetCustom takes.
func (t TableTag) Object() *ojson.Object {
	return ojson.New().Set("kind", "table").Set("id", t.Table).Set("slot", t.Slot).
		Set("row", t.Row).Set("col", t.Col).Set("pad", t.Pad).Set("max", t.Max).Set("size", t.Size).Set("font", t.Font)
}

// TableTagOf reads el's table tag; ok is false when el is not a
// table's cell.
func TableTagOf(el *ojson.Object) (TableTag, bool) {
	cd, ok := el.Object("customData")
	if !ok {
		return TableTag{}, false
	}
	rec, ok := cd.Object(TagKey)
	if !ok || scene.StringOf(rec, "kind") != "table" || scene.StringOf(rec, "id") == "" {
		return TableTag{}, false
	}
	return TableTag{Table: scene.StringOf(rec, "id"), Slot: scene.StringOf(rec, "slot"),
		Row: int(scene.NumberOf(rec, "row")), Col: int(scene.NumberOf(rec, "col")),
		Pad: scene.NumberOf(rec, "pad"), Max: scene.NumberOf(rec, "max"),
		Size: scene.NumberOf(rec, "size"), Font: int(scene.NumberOf(rec, "font"))}, true
}

// TablePart is a live cell of a drawn table: its element, its tag and
// its label (nil for none).
type TablePart struct {
	El, Label *ojson.Object
	Tag       TableTag
}

// TableParts are the live cells of table id in doc, in scene order. A
// copy of a table (the editor's duplicate, copy_elements) carries the
// same tags in a group of its own: where two cells claim one row and
// column, the one in the table's group (its id) is the table's, else
// the first drawn; the others are not the table's, and neither set_table
// nor the keeper touches them.
func TableParts(doc *scene.Document, id string) []TablePart {
	byID := doc.IDIndex()
	var all []TablePart
	claims := map[[2]int]int{}
	for _, el := range doc.Elements() {
		if el == nil || scene.IsDeleted(el) {
			continue
		}
		tag, ok := TableTagOf(el)
		if !ok || tag.Table != id {
			continue
		}
		all = append(all, TablePart{El: el, Tag: tag, Label: labelIn(byID, el)})
		claims[[2]int{tag.Row, tag.Col}]++
	}
	inGroup := func(p TablePart) bool {
		g, _ := p.El.Array("groupIds")
		return slices.Contains(g, any(id))
	}
	var out []TablePart
	taken := map[[2]int]bool{}
	for _, pass := range []func(TablePart) bool{inGroup, func(TablePart) bool { return true }} {
		for _, p := range all {
			k := [2]int{p.Tag.Row, p.Tag.Col}
			if taken[k] || (claims[k] > 1 && !pass(p)) {
				continue
			}
			taken[k] = true
			out = append(out, p)
		}
	}
	at := make(map[*ojson.Object]int, len(all))
	for i, p := range all {
		at[p.El] = i
	}
	slices.SortFunc(out, func(a, b TablePart) int { return at[a.El] - at[b.El] })
	return out
}

// labelIn is the live label of container el, by the ids of byID.
func labelIn(byID map[string]*ojson.Object, el *ojson.Object) *ojson.Object {
	list, _ := el.Array("boundElements")
	for _, entry := range list {
		o, ok := entry.(*ojson.Object)
		if !ok || scene.StringOf(o, "type") != "text" {
			continue
		}
		if t := byID[scene.StringOf(o, "id")]; t != nil && !scene.IsDeleted(t) && scene.StringOf(t, "containerId") == scene.StringOf(el, "id") {
			return t
		}
	}
	return nil
}

// TableOrigin is the top left corner of a table's cells: its first
// cell's, or (when a person deleted that one) the least x and y of the
// others.
func TableOrigin(parts []TablePart) (x, y float64) {
	for i, p := range parts {
		px, py := scene.NumberOf(p.El, "x"), scene.NumberOf(p.El, "y")
		if p.Tag.Row == 0 && p.Tag.Col == 0 {
			return px, py
		}
		if i == 0 || px < x {
			x = px
		}
		if i == 0 || py < y {
			y = py
		}
	}
	return x, y
}

// TableCells are the parts as the grid measures them, and the grid's
// rows and columns.
func TableCells(parts []TablePart) (cells []TableCell, rows, cols int) {
	for _, p := range parts {
		c := TableCell{Row: p.Tag.Row, Col: p.Tag.Col, Size: p.Tag.Size, Family: p.Tag.Font}
		if c.Size <= 0 {
			c.Size = 20
		}
		if p.Label != nil {
			c.Text = build.OriginalText(p.Label)
			c.Size = scene.NumberOf(p.Label, "fontSize")
			c.Family = int(scene.NumberOf(p.Label, "fontFamily"))
		}
		cells = append(cells, c)
		rows, cols = max(rows, c.Row+1), max(cols, c.Col+1)
	}
	return cells, rows, cols
}

func init() { registerKeeper(10, "table", keepTables) }

// keepTables lays out again each table an edit of the transaction
// touched (a cell or a cell's label changed, Txn.Changed) whose cells are no
// longer where its grid puts them: a cell whose text grew widens its
// column (up to the table's maximum, then wraps) and heightens its row,
// and every cell after it moves along; a shorter text gives the room
// back. Cells keep the row and column their tags name; the table keeps
// its top left corner. A table in line is left alone.
func keepTables(tx *Txn) ([]string, error) {
	tx.index()
	var tables []string
	for el := range tx.Changed() {
		if el == nil {
			continue
		}
		if c := scene.StringOf(el, "containerId"); c != "" {
			if owner := tx.byID.Get(c); owner != nil {
				el = owner
			}
		}
		if tag, ok := TableTagOf(el); ok && !slices.Contains(tables, tag.Table) {
			tables = append(tables, tag.Table)
		}
	}
	slices.Sort(tables)
	var changed []string
	for _, id := range tables {
		ids, err := tx.relayTable(id)
		if err != nil {
			return nil, err
		}
		changed = append(changed, ids...)
	}
	return changed, nil
}

// relayTable moves and sizes table id's cells to its grid, and returns
// the ids of those that were not there.
func (tx *Txn) relayTable(id string) ([]string, error) {
	parts := TableParts(tx.doc, id)
	if len(parts) == 0 {
		return nil, nil
	}
	cells, rows, cols := TableCells(parts)
	g := LayTable(cells, rows, cols, parts[0].Tag.Pad, parts[0].Tag.Max)
	ox, oy := TableOrigin(parts)
	var updates []Update
	var ids []string
	for _, p := range parts {
		x, y, w, h := g.Cell(ox, oy, p.Tag.Row, p.Tag.Col)
		if onGrid(scene.NumberOf(p.El, "x"), x) && onGrid(scene.NumberOf(p.El, "y"), y) &&
			onGrid(scene.NumberOf(p.El, "width"), w) && onGrid(scene.NumberOf(p.El, "height"), h) {
			continue
		}
		patch, _ := json.Marshal(map[string]float64{"x": x, "y": y, "width": w, "height": h})
		cid := scene.StringOf(p.El, "id")
		updates = append(updates, Update{ID: cid, Patch: patch})
		ids = append(ids, cid)
	}
	if len(updates) == 0 {
		return nil, nil
	}
	return ids, InChunks(len(updates), func(lo, hi int) error { return tx.Update(updates[lo:hi], "/keep/table") })
}

// InChunks calls do on [lo, hi) ranges of n items, each at most
// MaxOperations long (what one Update or Delete takes), in order, until
// one fails: how a planner applies more changes than a call may hold.
func InChunks(n int, do func(lo, hi int) error) error {
	for lo := 0; lo < n; lo += MaxOperations {
		if err := do(lo, min(n, lo+MaxOperations)); err != nil {
			return err
		}
	}
	return nil
}

// onGrid is whether two coordinates are the same to a hundredth of a
// pixel.
func onGrid(a, b float64) bool { return math.Abs(a-b) < 0.01 }

// LabelCell gives the live container id, a table's cell drawn empty,
// a label: label is a label input (build.InputSchema's "label"), laid
// out in the container as the builder lays out a new one and put
// directly above it. An edit that fills an empty cell keeps its
// element and id. A container with a label already is an
// invalid_operation.
func (tx *Txn) LabelCell(id string, label json.RawMessage, pointer string) error {
	return tx.do(func() error {
		tx.index()
		c, err := tx.liveAt(id, pointer)
		if err != nil {
			return err
		}
		if tx.labelOf(c) != nil {
			return opError(pointer, "%q has a label already", id)
		}
		// The builder draws the label on a stand-in of the container,
		// which then leaves: it never was in a saved scene.
		standIn := tx.freshID(tx.takenIDs())
		in, _ := json.Marshal(map[string]any{"type": scene.StringOf(c, "type"), "id": standIn,
			"x": scene.NumberOf(c, "x"), "y": scene.NumberOf(c, "y"), "width": scene.NumberOf(c, "width"), "height": scene.NumberOf(c, "height"),
			"label": label})
		ids, err := tx.add([]json.RawMessage{in}, func(int) string { return pointer })
		if err != nil {
			return err
		}
		tx.index()
		var t *ojson.Object
		order := slices.DeleteFunc(slices.Clone(tx.doc.Elements()), func(el *ojson.Object) bool {
			if el != nil && scene.StringOf(el, "containerId") == ids[0] {
				t = el
			}
			return el != nil && scene.StringOf(el, "id") == ids[0]
		})
		if t == nil {
			return opError(pointer, "the label of %q was not drawn", id)
		}
		delete(tx.bumped, tx.byID.Get(ids[0]))
		t.Set("containerId", id)
		if g, ok := c.Array("groupIds"); ok {
			t.Set("groupIds", slices.Clone(g))
		}
		if f, ok := c.Get("frameId"); ok {
			t.Set("frameId", f)
		}
		list, _ := c.Array("boundElements")
		c.Set("boundElements", append(slices.Clone(list), ojson.New().Set("type", "text").Set("id", scene.StringOf(t, "id"))))
		order = slices.DeleteFunc(order, func(el *ojson.Object) bool { return el == t })
		order = slices.Insert(order, slices.Index(order, c)+1, t)
		tx.setOrder(order, map[*ojson.Object]bool{t: true})
		tx.index()
		layoutLabel(c, t)
		tx.bump(c)
		tx.result.Added++
		tx.note(scene.StringOf(t, "id"))
		return nil
	})
}
