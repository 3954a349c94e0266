package route

import (
	"math"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// index finds the boxes near a place: a uniform grid of cells about the
// size of an average box, each listing the boxes that touch it.
type index struct {
	rects   []geom.Rect
	x0, y0  float64
	cell    float64
	nx, ny  int
	cells   [][]int32
	seen    []uint32
	gen     uint32
	scratch []int32
}

func newIndex(rects []geom.Rect) *index {
	ix := &index{rects: rects, seen: make([]uint32, len(rects)), cell: 1, nx: 1, ny: 1}
	if len(rects) == 0 {
		ix.cells = make([][]int32, 1)
		return ix
	}
	all := rects[0]
	size := 0.0
	for _, r := range rects {
		all = all.Union(r)
		size += r.W() + r.H()
	}
	// Cells about twice an average box's side, and no more cells than
	// about four per box.
	ix.cell = math.Max(2*size/float64(2*len(rects)), 1)
	for float64(int(all.W()/ix.cell)+1)*float64(int(all.H()/ix.cell)+1) > float64(4*len(rects)+16) {
		ix.cell *= 1.5
	}
	ix.x0, ix.y0 = all.MinX, all.MinY
	ix.nx, ix.ny = int(all.W()/ix.cell)+1, int(all.H()/ix.cell)+1
	ix.cells = make([][]int32, ix.nx*ix.ny)
	for i, r := range rects {
		x0, y0, x1, y1 := ix.span(r)
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				ix.cells[y*ix.nx+x] = append(ix.cells[y*ix.nx+x], int32(i))
			}
		}
	}
	return ix
}

// span is the range of cells r touches, clipped to the grid.
func (ix *index) span(r geom.Rect) (x0, y0, x1, y1 int) {
	c := func(v, o float64, n int) int {
		i := int(math.Floor((v - o) / ix.cell))
		return max(0, min(n-1, i))
	}
	return c(r.MinX, ix.x0, ix.nx), c(r.MinY, ix.y0, ix.ny), c(r.MaxX, ix.x0, ix.nx), c(r.MaxY, ix.y0, ix.ny)
}

// near is the boxes in the cells r touches (a superset of those r
// touches), each once, in no set order; the slice is reused by the next
// call.
func (ix *index) near(r geom.Rect) []int32 {
	ix.gen++
	if ix.gen == 0 {
		clear(ix.seen)
		ix.gen = 1
	}
	out := ix.scratch[:0]
	x0, y0, x1, y1 := ix.span(r)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			for _, i := range ix.cells[y*ix.nx+x] {
				if ix.seen[i] != ix.gen {
					ix.seen[i] = ix.gen
					out = append(out, i)
				}
			}
		}
	}
	ix.scratch = out
	return out
}
