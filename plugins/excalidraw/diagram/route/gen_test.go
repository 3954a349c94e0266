package route

import (
	"fmt"
	"math/rand"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

// A placement is boxes already placed and the edges between them.
type placement struct {
	boxes map[string]geom.Rect
	edges []Edge
}

func name(i int) string { return fmt.Sprintf("n%d", i) }

// gridPlacement is rows×cols boxes of varied sizes in cells of a grid,
// with edges to the right and down neighbours, some diagonals and some
// long ones.
func gridPlacement(rows, cols int, seed int64) placement {
	rnd := rand.New(rand.NewSource(seed))
	p := placement{boxes: map[string]geom.Rect{}}
	const cellW, cellH = 200, 130
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			w, h := 80+rnd.Float64()*60, 40+rnd.Float64()*30
			x, y := float64(c)*cellW+(cellW-w)/2, float64(r)*cellH+(cellH-h)/2
			p.boxes[name(r*cols+c)] = geom.R(x, y, x+w, y+h)
		}
	}
	add := func(a, b int) {
		p.edges = append(p.edges, Edge{ID: fmt.Sprintf("e%d", len(p.edges)), From: name(a), To: name(b)})
	}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			i := r*cols + c
			if c+1 < cols {
				add(i, i+1)
			}
			if r+1 < rows && rnd.Intn(2) == 0 {
				add(i, i+cols)
			}
			if r+1 < rows && c+1 < cols && rnd.Intn(4) == 0 {
				add(i, i+cols+1)
			}
		}
	}
	for k := 0; k < rows*cols/6; k++ {
		a, b := rnd.Intn(rows*cols), rnd.Intn(rows*cols)
		if a != b {
			add(a, b)
		}
	}
	return p
}

// layeredPlacement is a diagram flowing top to bottom in layers, as a
// layered layout places one: about nodes boxes, edges from each layer to
// the next, skip edges over a layer or two and back edges up, all
// preferring to leave by the bottom and enter by the top. nodeGap and
// rankGap are the room between boxes in a layer and between layers.
func layeredPlacement(nodes int, nodeGap, rankGap float64, seed int64) placement {
	rnd := rand.New(rand.NewSource(seed))
	p := placement{boxes: map[string]geom.Rect{}}
	var layers [][]int
	n := 0
	for n < nodes {
		k := 2 + rnd.Intn(7)
		if n+k > nodes {
			k = nodes - n
		}
		var l []int
		for i := 0; i < k; i++ {
			l = append(l, n)
			n++
		}
		layers = append(layers, l)
	}
	y := 0.0
	for _, l := range layers {
		ws := make([]float64, len(l))
		total := 0.0
		for i := range l {
			ws[i] = 80 + float64(rnd.Intn(5))*20
			total += ws[i]
		}
		total += nodeGap * float64(len(l)-1)
		x := -total / 2
		h := 40 + float64(rnd.Intn(3))*10
		for i, id := range l {
			p.boxes[name(id)] = geom.R(x, y, x+ws[i], y+h)
			x += ws[i] + nodeGap
		}
		y += h + rankGap
	}
	add := func(a, b int) {
		p.edges = append(p.edges, Edge{ID: fmt.Sprintf("e%d", len(p.edges)), From: name(a), To: name(b), FromSide: Bottom, ToSide: Top})
	}
	// near is a node of layer l near where index i of a layer of n
	// nodes stands, give or take one (a layout keeps edges short).
	near := func(l []int, i, n int) int {
		j := int(float64(i)+0.5)*len(l)/n + rnd.Intn(3) - 1
		return l[max(0, min(len(l)-1, j))]
	}
	for li := 0; li+1 < len(layers); li++ {
		cur, next := layers[li], layers[li+1]
		for i, a := range cur {
			for k := 1 + rnd.Intn(2); k > 0; k-- {
				add(a, near(next, i, len(cur)))
			}
		}
		if li+2 < len(layers) && rnd.Intn(2) == 0 {
			i := rnd.Intn(len(cur))
			add(cur[i], near(layers[li+2], i, len(cur)))
		}
		if li+3 < len(layers) && rnd.Intn(3) == 0 {
			i := rnd.Intn(len(cur))
			add(cur[i], near(layers[li+3], i, len(cur)))
		}
		if rnd.Intn(3) == 0 {
			i := rnd.Intn(len(next))
			add(next[i], near(cur, i, len(next)))
		}
	}
	return p
}

// randomPlacement is n boxes of random sizes at random places, at least
// minGap apart, with random edges (a few loops and a repeated edge among
// them).
func randomPlacement(n, edges int, minGap float64, seed int64) placement {
	rnd := rand.New(rand.NewSource(seed))
	p := placement{boxes: map[string]geom.Rect{}}
	side := 180 * float64(n)
	var placed []geom.Rect
	for len(placed) < n {
		w, h := 40+rnd.Float64()*120, 30+rnd.Float64()*60
		x, y := rnd.Float64()*side/4, rnd.Float64()*side/6
		b := geom.R(x, y, x+w, y+h)
		ok := true
		for _, q := range placed {
			if b.Expand(minGap).Intersects(q) {
				ok = false
				break
			}
		}
		if ok {
			p.boxes[name(len(placed))] = b
			placed = append(placed, b)
		}
	}
	add := func(a, b int) {
		p.edges = append(p.edges, Edge{ID: fmt.Sprintf("e%d", len(p.edges)), From: name(a), To: name(b)})
	}
	for len(p.edges) < edges {
		a := rnd.Intn(n)
		// Mostly to a near box.
		best, bd := -1, 0.0
		for k := 0; k < 3; k++ {
			b := rnd.Intn(n)
			if b == a {
				continue
			}
			d := placed[a].Center().Dist(placed[b].Center())
			if best < 0 || d < bd {
				best, bd = b, d
			}
		}
		if best >= 0 {
			add(a, best)
		}
	}
	add(0, 0)
	add(1, 1)
	add(2, 3)
	add(2, 3)
	return p
}
