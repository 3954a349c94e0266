package lint

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// A grid derived from another (grid.over), version after version, answers
// every query as a grid built anew from the same boxes: boxes moved,
// resized, made unreadable (NaN), made readable again, and added.
func TestDerivedGridAnswersAsANewOne(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	box := func() geom.Rect {
		x, y := r.Float64()*4000, r.Float64()*3000
		w, h := 20+r.Float64()*200, 20+r.Float64()*100
		if r.IntN(50) == 0 {
			w = 5000 // a background panel: the big list
		}
		return geom.R(x, y, x+w, y+h)
	}
	nan := geom.R(math.NaN(), math.NaN(), math.NaN(), math.NaN())
	boxes := make([]geom.Rect, 500)
	for i := range boxes {
		boxes[i] = box()
	}
	finite := func(bs []geom.Rect) func(int) bool {
		return func(i int) bool { return finiteRect(bs[i]) }
	}
	fresh := func(bs []geom.Rect) *grid {
		var items []int
		for i := range bs {
			if finiteRect(bs[i]) {
				items = append(items, i)
			}
		}
		return newGrid(bs, items)
	}
	answers := func(g *grid, q geom.Rect) []int {
		var out []int
		g.query(q, func(i int) { out = append(out, i) })
		return out
	}
	g := fresh(boxes)
	derived := 0
	for version := range 40 {
		next := slices.Clone(boxes)
		for range 1 + r.IntN(3) {
			i := r.IntN(len(next))
			switch r.IntN(4) {
			case 0:
				next[i] = nan
			default:
				next[i] = box()
			}
		}
		if version%5 == 0 {
			next = append(next, box(), nan)
		}
		d, ok := g.over(next, finite(next))
		if !ok {
			d = fresh(next)
		} else {
			derived++
		}
		want := fresh(next)
		for range 200 {
			q := box()
			if a, b := answers(d, q), answers(want, q); !slices.Equal(a, b) {
				t.Fatalf("version %d: query %v: derived grid found %v, a new one %v", version, q, a, b)
			}
		}
		boxes, g = next, d
	}
	if derived < 10 {
		t.Fatalf("only %d of 40 versions derived their grid", derived)
	}
}

func finiteRect(b geom.Rect) bool { return finite(b.MinX, b.MinY, b.MaxX, b.MaxY) }
