package engine

import (
	"cmp"
	"math"
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/query"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Point is a point in scene coordinates.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Arrangement says how Arrange places elements. Give a Layout, or an
// Align and/or a Distribute on their own (the editor's align and
// distribute actions).
type Arrangement struct {
	// Layout is "grid", "row" or "column": the elements are placed one
	// after the other, in the order ids names them, Gap apart.
	Layout string `json:"layout,omitempty"`
	// Align is "left", "center", "right", "top", "middle" or "bottom".
	// With a layout it aligns across it: a row's elements by top,
	// middle (the default) or bottom, a column's by left, center (the
	// default) or right, a grid's within their cells (centred on both
	// axes by default; Align sets one axis). Alone it aligns the
	// elements' edges or centres with the box around them all.
	Align string `json:"align,omitempty"`
	// Distribute is "horizontal" or "vertical", without a layout: the
	// elements, in the order of their centres, are spaced evenly over
	// the extent they span, or Gap apart from the first when Gap is
	// given.
	Distribute string `json:"distribute,omitempty"`
	// Gap is the space between elements; 0 means DefaultGap for a layout
	// and even spacing for Distribute.
	Gap float64 `json:"gap,omitempty"`
	// Columns is a grid's number of columns; 0 means ceil(√n).
	Columns int `json:"columns,omitempty"`
	// Origin is where a layout's top-left corner goes; nil means where
	// the box around the elements has it now.
	Origin *Point `json:"origin,omitempty"`
}

// DefaultGap is the space a layout leaves between elements.
const DefaultGap = 40

// Layouts, alignments and distributions of an Arrangement.
var (
	layouts       = []string{"grid", "row", "column"}
	alignsX       = []string{"left", "center", "right"}
	alignsY       = []string{"top", "middle", "bottom"}
	distributions = []string{"horizontal", "vertical"}
)

// Arrange places the elements ids name as a (see Arrangement), by the
// boxes they are drawn in (rotation included). What is placed are
// shapes, text, images, frames and freehand strokes: arrows and lines
// are connectors and labels belong to containers, so those in ids are
// not placed themselves; a container takes its label along, a frame its
// children, and bound arrows follow the elements they are bound to, as
// they follow any move (Move). The elements ids names that share an
// outermost group are placed as one block, as the editor aligns and
// distributes a group; a frame's children named with it move with it.
//
// pointer locates the call's arguments: an unknown or deleted id is
// not_found at pointer/ids/<i>, an Arrangement field that is unknown or
// does not apply is invalid_operation at pointer/<field> (layout,
// align, distribute, gap, columns, origin), and a call naming nothing
// that can be placed at pointer/ids.
func (tx *Txn) Arrange(ids []string, a Arrangement, pointer string) error {
	return tx.do(func() error { return tx.arrange(ids, a, pointer) })
}

// arrangeUnit is what Arrange places as one block.
type arrangeUnit struct {
	ids []string
	box Box
}

func (tx *Txn) arrange(ids []string, a Arrangement, pointer string) error {
	if err := a.check(pointer); err != nil {
		return err
	}
	named, err := tx.selection(ids, pointer+"/ids", "arrange")
	if err != nil {
		return err
	}
	units := tx.arrangeUnits(named)
	if len(units) == 0 {
		return opError(pointer+"/ids", "nothing to arrange: arrows, lines and labels follow the elements they belong to")
	}
	var deltas []Point
	if a.Layout != "" {
		deltas = a.layout(units)
	} else {
		deltas = a.alignAndDistribute(units)
	}
	for i, u := range units {
		b := u.box
		x, y := b.X+deltas[i].X, b.Y+deltas[i].Y
		if math.Abs(x) > maxCoord || math.Abs(y) > maxCoord || math.Abs(x+b.Width) > maxCoord || math.Abs(y+b.Height) > maxCoord {
			return opError(pointer, "the arrangement takes %q beyond ±1e6", u.ids[0])
		}
	}
	for i, u := range units {
		d := deltas[i]
		if d.X == 0 && d.Y == 0 {
			continue
		}
		if _, err := tx.move(u.ids, pointer+"/ids", func([]*ojson.Object) (float64, float64) { return d.X, d.Y }); err != nil {
			return err
		}
	}
	return nil
}

// check refuses a field that is unknown or does not apply.
func (a Arrangement) check(pointer string) error {
	finite := func(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
	switch {
	case a.Layout != "" && !slices.Contains(layouts, a.Layout):
		return opError(pointer+"/layout", "layout must be one of %s", listOf(layouts))
	case a.Align != "" && !slices.Contains(alignsX, a.Align) && !slices.Contains(alignsY, a.Align):
		return opError(pointer+"/align", "align must be one of %s", listOf(slices.Concat(alignsX, alignsY)))
	case a.Distribute != "" && !slices.Contains(distributions, a.Distribute):
		return opError(pointer+"/distribute", "distribute must be one of %s", listOf(distributions))
	case a.Layout == "" && a.Align == "" && a.Distribute == "":
		return opError(pointer, "give a layout, an align or a distribute")
	case a.Layout == "row" && slices.Contains(alignsX, a.Align):
		return opError(pointer+"/align", "a row aligns its elements by %s", listOf(alignsY))
	case a.Layout == "column" && slices.Contains(alignsY, a.Align):
		return opError(pointer+"/align", "a column aligns its elements by %s", listOf(alignsX))
	case a.Layout != "" && a.Distribute != "":
		return opError(pointer+"/distribute", "distribute applies without a layout: a layout spaces its elements by gap")
	case a.Gap < 0 || !finite(a.Gap) || a.Gap > maxCoord:
		return opError(pointer+"/gap", "gap must be a number from 0 to 1e6")
	case a.Gap != 0 && a.Layout == "" && a.Distribute == "":
		return opError(pointer+"/gap", "gap applies to a layout or a distribute")
	case a.Columns < 0:
		return opError(pointer+"/columns", "columns must be a positive integer")
	case a.Columns != 0 && a.Layout != "grid":
		return opError(pointer+"/columns", "columns applies to the grid layout")
	case a.Origin != nil && a.Layout == "":
		return opError(pointer+"/origin", "origin applies to a layout")
	case a.Origin != nil && (!finite(a.Origin.X) || !finite(a.Origin.Y) || math.Abs(a.Origin.X) > maxCoord || math.Abs(a.Origin.Y) > maxCoord):
		return opError(pointer+"/origin", "origin must be numbers within ±1e6")
	}
	return nil
}

// arrangeUnits are the blocks the named elements are placed as, in the
// order ids names them: one per outermost group, one per element in
// none; arrows, lines, labels and the children of named frames are
// left to follow.
func (tx *Txn) arrangeUnits(named []*ojson.Object) []arrangeUnit {
	frames := map[string]bool{}
	for _, el := range named {
		if isFrameType(scene.StringOf(el, "type")) {
			frames[scene.StringOf(el, "id")] = true
		}
	}
	var keys []string
	members := map[string][]*ojson.Object{}
	for _, el := range named {
		typ := scene.StringOf(el, "type")
		if scene.IsLinear(typ) || tx.holderOf(el) != el || frames[tx.liveFrameOf(el)] {
			continue
		}
		key := "element:" + scene.StringOf(el, "id")
		if gs := stringsOf(el, "groupIds"); len(gs) > 0 {
			key = "group:" + gs[len(gs)-1]
		}
		if members[key] == nil {
			keys = append(keys, key)
		}
		members[key] = append(members[key], el)
	}
	var out []arrangeUnit
	for _, k := range keys {
		b, ok := query.Bounds(tx.withLabels(members[k]))
		if !ok {
			continue
		}
		u := arrangeUnit{box: b}
		for _, el := range members[k] {
			u.ids = append(u.ids, scene.StringOf(el, "id"))
		}
		out = append(out, u)
	}
	return out
}

// layout is how far a layout moves each unit.
func (a Arrangement) layout(units []arrangeUnit) []Point {
	gap := a.Gap
	if gap == 0 {
		gap = DefaultGap
	}
	all := boxAround(units)
	origin := Point{all.X, all.Y}
	if a.Origin != nil {
		origin = *a.Origin
	}
	cols := len(units) // a row
	switch a.Layout {
	case "column":
		cols = 1
	case "grid":
		cols = a.Columns
		if cols == 0 {
			cols = int(math.Ceil(math.Sqrt(float64(len(units)))))
		}
	}
	rows := (len(units) + cols - 1) / cols
	colW, rowH := make([]float64, cols), make([]float64, rows)
	for i, u := range units {
		colW[i%cols] = math.Max(colW[i%cols], u.box.Width)
		rowH[i/cols] = math.Max(rowH[i/cols], u.box.Height)
	}
	cellX, cellY := offsets(colW, origin.X, gap), offsets(rowH, origin.Y, gap)
	ax, ay := "center", "middle"
	switch {
	case slices.Contains(alignsX, a.Align):
		ax = a.Align
	case slices.Contains(alignsY, a.Align):
		ay = a.Align
	}
	out := make([]Point, len(units))
	for i, u := range units {
		c, r := i%cols, i/cols
		x := place(cellX[c], colW[c], u.box.Width, ax)
		y := place(cellY[r], rowH[r], u.box.Height, ay)
		out[i] = Point{x - u.box.X, y - u.box.Y}
	}
	return out
}

// offsets are where cells of the sizes start, from start on, gap apart.
func offsets(sizes []float64, start, gap float64) []float64 {
	out := make([]float64, len(sizes))
	for i := range sizes {
		out[i] = start
		start += sizes[i] + gap
	}
	return out
}

// place is where a box of size goes in a cell at start of size cell,
// aligned by how ("left"/"top" at the start, "right"/"bottom" at the
// end, centred otherwise).
func place(start, cell, size float64, how string) float64 {
	switch how {
	case "left", "top":
		return start
	case "right", "bottom":
		return start + cell - size
	}
	return start + (cell-size)/2
}

// boxAround is the box around the units' boxes.
func boxAround(units []arrangeUnit) Box {
	lo, hi := Point{math.Inf(1), math.Inf(1)}, Point{math.Inf(-1), math.Inf(-1)}
	for _, u := range units {
		lo = Point{math.Min(lo.X, u.box.X), math.Min(lo.Y, u.box.Y)}
		hi = Point{math.Max(hi.X, u.box.X+u.box.Width), math.Max(hi.Y, u.box.Y+u.box.Height)}
	}
	return Box{X: lo.X, Y: lo.Y, Width: hi.X - lo.X, Height: hi.Y - lo.Y}
}

// alignAndDistribute is how far Excalidraw's align action, then its
// distribute action, move each unit (alignElements, distributeElements).
func (a Arrangement) alignAndDistribute(units []arrangeUnit) []Point {
	out := make([]Point, len(units))
	boxes := make([]Box, len(units))
	for i, u := range units {
		boxes[i] = u.box
	}
	if a.Align != "" {
		all := boxAround(units)
		for i, b := range boxes {
			if slices.Contains(alignsX, a.Align) {
				out[i].X = place(all.X, all.Width, b.Width, a.Align) - b.X
			} else {
				out[i].Y = place(all.Y, all.Height, b.Height, a.Align) - b.Y
			}
			boxes[i].X += out[i].X
			boxes[i].Y += out[i].Y
		}
	}
	if a.Distribute != "" && len(units) > 1 {
		horizontal := a.Distribute == "horizontal"
		axis := func(b Box) (start, size float64) {
			if horizontal {
				return b.X, b.Width
			}
			return b.Y, b.Height
		}
		moves := distribute(boxes, axis, a.Gap)
		for i, d := range moves {
			if horizontal {
				out[i].X += d
			} else {
				out[i].Y += d
			}
		}
	}
	return out
}

// distribute is how far each box moves along the axis axis reads: in
// the order of their centres, spaced evenly over the extent they span
// (where they overlap too much for that, their centres are spaced
// evenly between the first and the last), or gap apart from the first
// when gap is not 0.
func distribute(boxes []Box, axis func(Box) (float64, float64), gap float64) []float64 {
	order := make([]int, len(boxes))
	for i := range order {
		order[i] = i
	}
	mid := func(i int) float64 { s, w := axis(boxes[i]); return s + w/2 }
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(mid(i), mid(j)) })
	lo, hi, span := math.Inf(1), math.Inf(-1), 0.0
	for _, b := range boxes {
		s, w := axis(b)
		lo, hi, span = math.Min(lo, s), math.Max(hi, s+w), span+w
	}
	out := make([]float64, len(boxes))
	step := (hi - lo - span) / float64(len(boxes)-1)
	if gap != 0 {
		step = gap
		lo, _ = axis(boxes[order[0]])
	}
	if step < 0 {
		first := slices.IndexFunc(order, func(i int) bool { s, _ := axis(boxes[i]); return s == lo })
		last := slices.IndexFunc(order, func(i int) bool { s, w := axis(boxes[i]); return s+w == hi })
		step = (mid(order[last]) - mid(order[first])) / float64(len(boxes)-1)
		pos := mid(order[first])
		for k, i := range order {
			if k != first && k != last {
				pos += step
				out[i] = pos - mid(i)
			}
		}
		return out
	}
	pos := lo
	for _, i := range order {
		s, w := axis(boxes[i])
		out[i] = pos - s
		pos += w + step
	}
	return out
}
