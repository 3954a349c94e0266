package service

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"

	"github.com/dshgo/dsh/plugins/excalidraw/engine"
	"github.com/dshgo/dsh/plugins/excalidraw/profile"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// Bounds of a table drawn in one call.
const (
	MaxTableColumns = 50
	MaxTableCells   = 2000
)

// Table defaults when the board's profile says nothing.
const (
	tableBodySize   = 16
	tableFamily     = 5
	tableHeaderFill = "#e9ecef"
	tableStroke     = "#1e1e1e"
)

// SetTable draws a table (a header row and rows of cells, each cell a
// rectangle with its text as a bound label, grouped as one) at At or
// beside the scene's content; with Table, the id it answered, it plans
// that table again where it is (or at At) to the rows given whole:
// cells keep their elements (and ids) by row and column, new ones are
// added, those left out go. Columns fit their widest text up to
// MaxColumnWidth, past which a cell wraps at word boundaries; rows are
// as tall as their tallest cell. Sizes, font, padding and the header's
// fill come from the board's profile.
type SetTable struct {
	Table          string        `json:"table,omitempty"`
	Header         []string      `json:"header,omitempty"`
	Rows           [][]string    `json:"rows,omitempty"`
	Align          []string      `json:"align,omitempty"`
	At             *engine.Point `json:"at,omitempty"`
	MaxColumnWidth float64       `json:"maxColumnWidth,omitempty"`

	profile profile.Profile
}

func (e SetTable) Named() []string { return nil }

// WithProfile takes the board's profile for the table's defaults.
func (e SetTable) WithProfile(p profile.Profile) Edit {
	e.profile = p
	return e
}

// tableStyle is how a table's cells look.
type tableStyle struct {
	family                 int
	bodySize, headerSize   float64
	pad, maxWidth          float64
	headerFill, headerText string
}

// style is the table's look: the profile's body and subheading (or
// heading) sizes, font, spacing and header role, or the defaults.
func (e SetTable) style() tableStyle {
	p := e.profile
	st := tableStyle{family: tableFamily, bodySize: p.Size("body", tableBodySize), headerFill: tableHeaderFill, headerText: tableStroke}
	st.headerSize = p.Size("subheading", p.Size("heading", st.bodySize))
	if p.FontFamily != 0 {
		st.family = p.FontFamily
	}
	st.pad = math.Round(p.Gap() / 4)
	st.maxWidth = e.MaxColumnWidth
	if st.maxWidth <= 0 {
		st.maxWidth = math.Round(18 * st.bodySize)
	}
	if r, ok := p.Roles["header"]; ok {
		if r.Fill != "" {
			st.headerFill = r.Fill
		}
		if r.Stroke != "" {
			st.headerText = r.Stroke
		}
	}
	return st
}

// grid is the table's text by row (the header first) padded to its
// width, and its alignment per column, checked (errors under at) before
// any work.
func (e SetTable) grid(at string) (texts [][]string, align []string, err error) {
	if len(e.Header) == 0 && len(e.Rows) == 0 {
		return nil, nil, opError(at+"/rows", "give rows (and a header): a table needs at least one row")
	}
	if e.Header != nil && len(e.Header) == 0 {
		return nil, nil, opError(at+"/header", "an empty header: leave it out for a table without one")
	}
	cols := len(e.Header)
	for i, r := range e.Rows {
		if len(r) == 0 {
			return nil, nil, opError(at+"/rows/"+strconv.Itoa(i), "an empty row: give its cells (\"\" for an empty cell)")
		}
		cols = max(cols, len(r))
	}
	if cols > MaxTableColumns {
		return nil, nil, opError(tableWidest(e, at), "%d columns; a table has at most %d", cols, MaxTableColumns)
	}
	rows := len(e.Rows)
	if len(e.Header) > 0 {
		rows++
	}
	if rows*cols > MaxTableCells {
		return nil, nil, opError(at+"/rows", "%d × %d is %d cells; a table has at most %d", rows, cols, rows*cols, MaxTableCells)
	}
	if len(e.Align) > cols {
		return nil, nil, opError(at+"/align/"+strconv.Itoa(cols), "%d alignments for %d columns", len(e.Align), cols)
	}
	for i, a := range e.Align {
		if a != "left" && a != "center" && a != "right" {
			return nil, nil, opError(at+"/align/"+strconv.Itoa(i), "alignment %q: left, center or right", a)
		}
	}
	pad := func(r []string) []string {
		out := make([]string, cols)
		copy(out, r)
		return out
	}
	if len(e.Header) > 0 {
		texts = append(texts, pad(e.Header))
	}
	for _, r := range e.Rows {
		texts = append(texts, pad(r))
	}
	align = make([]string, cols)
	for c := range align {
		switch {
		case c < len(e.Align):
			align[c] = e.Align[c]
		case numericColumn(e.Rows, c):
			align[c] = "right"
		default:
			align[c] = "left"
		}
	}
	return texts, align, nil
}

// tableWidest is the pointer to the widest of a table's rows.
func tableWidest(e SetTable, at string) string {
	p, w := at+"/header", len(e.Header)
	for i, r := range e.Rows {
		if len(r) > w {
			p, w = at+"/rows/"+strconv.Itoa(i), len(r)
		}
	}
	return p
}

// number is a cell that reads as a number or an amount: digits with
// separators, a sign, a currency or a percent.
var number = regexp.MustCompile(`^[-+−]?[$€£¥]?\s?[0-9][0-9.,'  ]*\s?(%|[kKmMbB]|[$€£¥])?$`)

// numericColumn reports whether every non-empty body cell of column c
// is a number (and one is): such a column is right-aligned by default.
func numericColumn(rows [][]string, c int) bool {
	seen := false
	for _, r := range rows {
		if c >= len(r) || strings.TrimSpace(r[c]) == "" {
			continue
		}
		if !number.MatchString(strings.TrimSpace(r[c])) {
			return false
		}
		seen = true
	}
	return seen
}

func (e SetTable) Plan(at string) Plan {
	return func(tx *engine.Txn, doc *scene.Document) (PlanResult, error) {
		texts, align, err := e.grid(at)
		if err != nil {
			return PlanResult{}, err
		}
		st := e.style()
		header := len(e.Header) > 0
		var old []engine.TablePart
		if e.Table != "" {
			if old = engine.TableParts(doc, e.Table); len(old) == 0 {
				return PlanResult{}, sceneerr.New(sceneerr.NotFound, "no table %q in this scene; set_table without table draws one and answers its id", e.Table).
					With("pointer", at+"/table")
			}
		}
		rows, cols := len(texts), len(texts[0])
		var cells []engine.TableCell
		for r, row := range texts {
			size := st.bodySize
			if header && r == 0 {
				size = st.headerSize
			}
			for c, t := range row {
				cells = append(cells, engine.TableCell{Row: r, Col: c, Text: t, Size: size, Family: st.family})
			}
		}
		g := engine.LayTable(cells, rows, cols, st.pad, st.maxWidth)

		tid := e.Table
		var origin geom.Vec
		switch {
		case e.At != nil:
			origin = geom.V(e.At.X, e.At.Y)
		case e.Table != "":
			x, y := engine.TableOrigin(old)
			origin = geom.V(x, y)
		default:
			origin = besideContent(doc)
		}
		if tid == "" {
			tid = newTableID(doc)
		}
		// Old cells by row and column; a cell beyond the new grid goes.
		have := map[[2]int]engine.TablePart{}
		var gone []string
		for _, p := range old {
			k := [2]int{p.Tag.Row, p.Tag.Col}
			if _, dup := have[k]; dup || p.Tag.Row >= rows || p.Tag.Col >= cols {
				gone = append(gone, scene.StringOf(p.El, "id"))
				continue
			}
			have[k] = p
		}
		taken := map[string]bool{}
		for _, el := range doc.Elements() {
			taken[scene.StringOf(el, "id")] = true
		}
		ids := make([][]string, rows)
		var inputs []json.RawMessage
		var added [][2]int
		var updates []engine.Update
		var retag []string
		tags := map[string]engine.TableTag{}
		var labelled []engine.Update // empty cells given text: id and label
		for _, c := range cells {
			tag := engine.TableTag{Table: tid, Slot: "cell", Row: c.Row, Col: c.Col, Pad: st.pad, Max: st.maxWidth, Size: c.Size, Font: c.Family}
			fill, ink := "transparent", tableStroke
			if header && c.Row == 0 {
				tag.Slot, fill, ink = "header", st.headerFill, st.headerText
			}
			x, y, w, h := g.Cell(origin.X, origin.Y, c.Row, c.Col)
			if ids[c.Row] == nil {
				ids[c.Row] = make([]string, cols)
			}
			empty := strings.TrimSpace(c.Text) == ""
			label := map[string]any{"text": c.Text, "fontSize": c.Size, "fontFamily": c.Family,
				"textAlign": align[c.Col], "verticalAlign": "middle", "strokeColor": ink}
			if p, ok := have[[2]int{c.Row, c.Col}]; ok {
				// The cell is drawn: it keeps its element, moved, sized
				// and relabelled in place.
				id := scene.StringOf(p.El, "id")
				ids[c.Row][c.Col] = id
				patch := map[string]any{"x": x, "y": y, "width": w, "height": h, "backgroundColor": fill}
				switch {
				case p.Label != nil && empty:
					gone = append(gone, scene.StringOf(p.Label, "id"))
				case p.Label != nil:
					patch["text"], patch["fontSize"], patch["fontFamily"], patch["textAlign"] = c.Text, c.Size, c.Family, align[c.Col]
					if scene.StringOf(p.Label, "strokeColor") != ink {
						raw, _ := json.Marshal(map[string]string{"strokeColor": ink})
						updates = append(updates, engine.Update{ID: scene.StringOf(p.Label, "id"), Patch: raw})
					}
				case !empty:
					raw, _ := json.Marshal(label)
					labelled = append(labelled, engine.Update{ID: id, Patch: raw})
				}
				raw, _ := json.Marshal(patch)
				updates = append(updates, engine.Update{ID: id, Patch: raw})
				if p.Tag != tag {
					retag = append(retag, id)
					tags[id] = tag
				}
				continue
			}
			id := fmt.Sprintf("%s-%d-%d", tid, c.Row, c.Col)
			for n := 2; taken[id]; n++ {
				id = fmt.Sprintf("%s-%d-%d-%d", tid, c.Row, c.Col, n)
			}
			taken[id] = true
			ids[c.Row][c.Col] = id
			in := map[string]any{"type": "rectangle", "id": id, "x": x, "y": y, "width": w, "height": h,
				"strokeColor": tableStroke, "backgroundColor": fill, "fillStyle": "solid", "strokeWidth": 1,
				"roughness": 0, "roundness": "sharp", "groupIds": []string{tid}}
			if !empty {
				in["label"] = label
			}
			raw, _ := json.Marshal(in)
			inputs = append(inputs, raw)
			added = append(added, [2]int{c.Row, c.Col})
			tags[id] = tag
		}
		if len(gone) > 0 {
			if err := engine.InChunks(len(gone), func(lo, hi int) error { return tx.Delete(gone[lo:hi], at+"/table") }); err != nil {
				return PlanResult{}, err
			}
		}
		if len(updates) > 0 {
			if err := engine.InChunks(len(updates), func(lo, hi int) error { return tx.Update(updates[lo:hi], at+"/rows") }); err != nil {
				return PlanResult{}, err
			}
		}
		for _, l := range labelled {
			if err := tx.LabelCell(l.ID, l.Patch, at+"/rows"); err != nil {
				return PlanResult{}, err
			}
		}
		if len(inputs) > 0 {
			if _, err := tx.Add(inputs, at+"/rows"); err != nil {
				return PlanResult{}, err
			}
		}
		for _, rc := range added {
			retag = append(retag, ids[rc[0]][rc[1]])
		}
		for _, id := range retag {
			if err := tx.SetCustom(id, engine.TagKey, tags[id].Object(), at); err != nil {
				return PlanResult{}, err
			}
		}
		// A cell's id is <table>-<row>-<col>, which an agent can make
		// itself; only the few that are not (an id a deleted element
		// holds) are answered, so the answer stays small.
		var targets []string
		odd := map[string]string{}
		for r, row := range ids {
			for c, id := range row {
				targets = append(targets, id)
				if id != fmt.Sprintf("%s-%d-%d", tid, r, c) {
					odd[fmt.Sprintf("%d-%d", r, c)] = id
				}
			}
		}
		w, h := g.Size()
		extra := map[string]any{
			"table": tid,
			"size":  []int{rows, cols},
			"box":   map[string]float64{"x": origin.X, "y": origin.Y, "width": w, "height": h},
		}
		if len(odd) > 0 {
			extra["cellIds"] = odd
		}
		return PlanResult{Targets: targets, Extra: extra}, nil
	}
}

// newTableID is a table id ("tbl_" and six letters) that no element of
// doc has in its id or its groups.
func newTableID(doc *scene.Document) string {
	const letters = "abcdefghijkmnpqrstuvwxyz23456789"
	for {
		b := []byte("tbl_")
		for range 6 {
			b = append(b, letters[rand.IntN(len(letters))])
		}
		id := string(b)
		taken := false
		for _, el := range doc.Elements() {
			if strings.HasPrefix(scene.StringOf(el, "id"), id) {
				taken = true
				break
			}
			if tag, ok := engine.TableTagOf(el); ok && tag.Table == id {
				taken = true
				break
			}
		}
		if !taken {
			return id
		}
	}
}
