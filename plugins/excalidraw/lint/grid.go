package lint

import (
	"math"
	"slices"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// grid is a uniform-grid spatial index over boxes: each item is filed in
// every cell its box covers, so a query visits the items of the cells its
// box covers. Items that would cover too many cells (a background panel,
// a long arrow) are kept aside and returned by every query, so an index
// of n items costs O(n) to build whatever their sizes.
//
// A grid may be derived from another (over): it then shares that grid's
// cells and big list, read only, and checks every query against extra,
// the items whose box differs from the one they were filed with.
type grid struct {
	cell  float64
	cells map[[2]int32][]int32
	big   []int32
	extra []int32 // ascending
	boxes []geom.Rect
	mark  []uint32
	stamp uint32
}

// over is a grid of boxes derived from g, whose items are the first
// len(g.boxes) of them: extra holds g's extra, each item whose box is not
// the one g has, and the items g does not have, those passing finite
// (the items a new grid would index). ok is false when that leaves too
// many aside for queries to stay cheap: build a new grid then.
func (g *grid) over(boxes []geom.Rect, finite func(i int) bool) (*grid, bool) {
	if len(boxes) < len(g.boxes) {
		return nil, false
	}
	limit := 32 + len(boxes)/32
	extra := slices.Clone(g.extra)
	for i := range boxes {
		if finite(i) && (i >= len(g.boxes) || g.boxes[i] != boxes[i]) {
			if extra = append(extra, int32(i)); len(extra) > limit {
				return nil, false
			}
		}
	}
	slices.Sort(extra)
	extra = slices.Compact(extra)
	return &grid{cell: g.cell, cells: g.cells, big: g.big, extra: extra, boxes: boxes, mark: make([]uint32, len(boxes))}, true
}

const (
	// maxCellsPerItem: an item covering more cells goes to the big list.
	maxCellsPerItem = 256
	minCell         = 32
	maxCell         = 4096
)

// newGrid indexes items (their indices into boxes are what queries
// return). The cell size is twice the median item size, so a typical
// item covers one to four cells.
func newGrid(boxes []geom.Rect, items []int) *grid {
	sizes := make([]float64, 0, len(items))
	for _, i := range items {
		sizes = append(sizes, math.Max(boxes[i].W(), boxes[i].H()))
	}
	cell := float64(minCell)
	if len(sizes) > 0 {
		slices.Sort(sizes)
		cell = math.Max(minCell, math.Min(maxCell, 2*sizes[len(sizes)/2]))
	}
	g := &grid{cell: cell, cells: make(map[[2]int32][]int32, len(items)), boxes: boxes, mark: make([]uint32, len(boxes))}
	for _, i := range items {
		g.insert(i)
	}
	return g
}

func (g *grid) span(r geom.Rect) (x0, y0, x1, y1 int32, ok bool) {
	const lim = 1 << 30
	c := func(v float64) float64 { return math.Max(-lim, math.Min(lim, math.Floor(v/g.cell))) }
	if !finite(r.MinX, r.MinY, r.MaxX, r.MaxY) {
		return 0, 0, 0, 0, false
	}
	return int32(c(r.MinX)), int32(c(r.MinY)), int32(c(r.MaxX)), int32(c(r.MaxY)), true
}

func (g *grid) insert(i int) {
	x0, y0, x1, y1, ok := g.span(g.boxes[i])
	if !ok {
		return
	}
	if (int64(x1)-int64(x0)+1)*(int64(y1)-int64(y0)+1) > maxCellsPerItem {
		g.big = append(g.big, int32(i))
		return
	}
	for cx := x0; cx <= x1; cx++ {
		for cy := y0; cy <= y1; cy++ {
			k := [2]int32{cx, cy}
			g.cells[k] = append(g.cells[k], int32(i))
		}
	}
}

// query calls fn once for each indexed item whose box intersects r, in
// ascending item order (so results do not depend on map order).
func (g *grid) query(r geom.Rect, fn func(i int)) {
	g.stamp++
	if g.stamp == 0 {
		clear(g.mark)
		g.stamp = 1
	}
	var found []int32
	take := func(i int32) {
		if g.mark[i] != g.stamp && g.boxes[i].Intersects(r) {
			g.mark[i] = g.stamp
			found = append(found, i)
		}
	}
	for _, i := range g.big {
		take(i)
	}
	for _, i := range g.extra {
		take(i)
	}
	x0, y0, x1, y1, ok := g.span(r)
	if ok {
		if (int64(x1)-int64(x0)+1)*(int64(y1)-int64(y0)+1) > int64(len(g.cells)) {
			// A query larger than the index: walk the cells instead.
			for k, list := range g.cells {
				if k[0] >= x0 && k[0] <= x1 && k[1] >= y0 && k[1] <= y1 {
					for _, i := range list {
						take(i)
					}
				}
			}
		} else {
			for cx := x0; cx <= x1; cx++ {
				for cy := y0; cy <= y1; cy++ {
					for _, i := range g.cells[[2]int32{cx, cy}] {
						take(i)
					}
				}
			}
		}
	}
	slices.Sort(found)
	for _, i := range found {
		fn(int(i))
	}
}
