package route

import "math"

// con is a separation constraint: x[r] ≥ x[l] + gap.
type con struct {
	l, r int32
	gap  float64
}

// place solves a one-dimensional placement: positions near des (each
// moving as little as it can, all weighing the same) with x[r] ≥ x[l] +
// gap for each constraint and lo[i] ≤ x[i] ≤ hi[i] (infinite bounds are
// none). des must lie within the bounds and the constraints must not
// form a cycle nor be broken by des with zero gaps (des[l] ≤ des[r]).
//
// Where the bounds leave too little room for the gaps, the gaps along
// each chain that does not fit shrink (by a fifth at a time) until it
// does; the rest keep theirs.
func place(des, lo, hi []float64, cons []con) []float64 {
	n := len(des)
	cs := append([]con(nil), cons...)
	order, in, out := topo(n, cs)
	early, late := make([]float64, n), make([]float64, n)
	fit := func() (ok bool) {
		for _, i := range order {
			e := lo[i]
			for _, k := range in[i] {
				e = math.Max(e, early[cs[k].l]+cs[k].gap)
			}
			early[i] = e
		}
		for o := len(order) - 1; o >= 0; o-- {
			i := order[o]
			d := hi[i]
			for _, k := range out[i] {
				d = math.Min(d, late[cs[k].r]-cs[k].gap)
			}
			late[i] = d
		}
		ok = true
		for k := range cs {
			c := &cs[k]
			if early[c.l]+c.gap > late[c.r]+1e-9 {
				ok = false
			}
		}
		return ok
	}
	for round := 0; !fit(); round++ {
		for k := range cs {
			c := &cs[k]
			if early[c.l]+c.gap > late[c.r]+1e-9 {
				if round < 30 {
					c.gap *= 0.8
				} else {
					c.gap = 0
				}
			}
		}
	}
	x, _ := satisfy(des, lo, hi, cs)
	// The solver can leave a bound or a gap broken where it merged blocks
	// that hold two bounds; a pass in order mends that, keeping each
	// variable between its earliest and latest feasible positions.
	for _, i := range order {
		v := math.Max(x[i], early[i])
		for _, k := range in[i] {
			v = math.Max(v, x[cs[k].l]+cs[k].gap)
		}
		x[i] = math.Min(v, late[i])
	}
	return x
}

// topo is a topological order of n variables under the constraints
// (lowest index first among the ready), with each variable's incoming
// and outgoing constraints.
func topo(n int, cs []con) (order []int32, in, out [][]int32) {
	in, out = make([][]int32, n), make([][]int32, n)
	indeg := make([]int, n)
	for k, c := range cs {
		in[c.r] = append(in[c.r], int32(k))
		out[c.l] = append(out[c.l], int32(k))
		indeg[c.r]++
	}
	order = make([]int32, 0, n)
	ready := &heap[varIndex]{}
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			ready.push(varIndex(i))
		}
	}
	for ready.len() > 0 {
		i := int32(ready.pop())
		order = append(order, i)
		for _, k := range out[i] {
			r := cs[k].r
			if indeg[r]--; indeg[r] == 0 {
				ready.push(varIndex(r))
			}
		}
	}
	return order, in, out
}

// vpsc is the satisfy step of VPSC (Dwyer, Marriott and Stuckey, "Fast
// node overlap removal"): variables in blocks held at fixed offsets, each
// block at the mean of what its variables want, blocks merged along
// violated constraints in topological order. Bounds are fixed variables.
type vpsc struct {
	des    []float64
	fixed  []bool
	off    []float64
	blk    []int32
	in     [][]int32
	cons   []con
	blocks []vblock
}

type vblock struct {
	vars     []int32
	nfix     int
	wsum, wd float64 // count and sum of des-off of the free variables
	fsum     float64 // sum of des-off of the fixed ones
}

func (v *vpsc) posn(b int32) float64 {
	bl := &v.blocks[b]
	if bl.nfix > 0 {
		return bl.fsum / float64(bl.nfix)
	}
	return bl.wd / bl.wsum
}

func (v *vpsc) pos(i int32) float64 { return v.posn(v.blk[i]) + v.off[i] }

// satisfy places the variables; the first len(des) of the solver's
// variables are the given ones, the rest stand for bounds.
func satisfy(des, lo, hi []float64, cons []con) ([]float64, *vpsc) {
	n := len(des)
	v := &vpsc{}
	v.des = append(v.des, des...)
	v.fixed = make([]bool, n)
	v.cons = append(v.cons, cons...)
	for i := 0; i < n; i++ {
		if !math.IsInf(lo[i], 0) {
			id := int32(len(v.des))
			v.des = append(v.des, lo[i])
			v.fixed = append(v.fixed, true)
			v.cons = append(v.cons, con{l: id, r: int32(i)})
		}
		if !math.IsInf(hi[i], 0) {
			id := int32(len(v.des))
			v.des = append(v.des, hi[i])
			v.fixed = append(v.fixed, true)
			v.cons = append(v.cons, con{l: int32(i), r: id})
		}
	}
	m := len(v.des)
	v.off = make([]float64, m)
	v.blk = make([]int32, m)
	var order []int32
	order, v.in, _ = topo(m, v.cons)
	v.blocks = make([]vblock, m)
	for i := 0; i < m; i++ {
		v.blk[i] = int32(i)
		b := &v.blocks[i]
		b.vars = []int32{int32(i)}
		if v.fixed[i] {
			b.nfix, b.fsum = 1, v.des[i]
		} else {
			b.wsum, b.wd = 1, v.des[i]
		}
	}
	for _, i := range order {
		v.mergeLeft(v.blk[i])
	}
	x := make([]float64, m)
	for i := range x {
		x[i] = v.pos(int32(i))
	}
	return x[:n], v
}

// mergeLeft merges block b with the blocks to its left while a constraint
// into it is violated, most violated first.
func (v *vpsc) mergeLeft(b int32) {
	for {
		best, worst := int32(-1), 1e-9
		for _, i := range v.blocks[b].vars {
			for _, k := range v.in[i] {
				c := v.cons[k]
				if v.blk[c.l] == b {
					continue
				}
				if d := v.pos(c.l) + c.gap - v.pos(c.r); d > worst {
					best, worst = k, d
				}
			}
		}
		if best < 0 {
			return
		}
		c := v.cons[best]
		bl := v.blk[c.l]
		d := v.off[c.l] + c.gap - v.off[c.r]
		if len(v.blocks[b].vars) > len(v.blocks[bl].vars) {
			v.merge(b, bl, -d)
		} else {
			v.merge(bl, b, d)
			b = bl
		}
	}
}

// merge moves block b into block a, shifting b's offsets by d.
func (v *vpsc) merge(a, b int32, d float64) {
	A, B := &v.blocks[a], &v.blocks[b]
	for _, i := range B.vars {
		v.off[i] += d
		v.blk[i] = a
	}
	A.vars = append(A.vars, B.vars...)
	A.wsum += B.wsum
	A.wd += B.wd - d*B.wsum
	A.fsum += B.fsum - d*float64(B.nfix)
	A.nfix += B.nfix
	B.vars = nil
}

// varIndex is a variable's index, in a heap smallest first.
type varIndex int32

func (a varIndex) before(b varIndex) bool { return a < b }
