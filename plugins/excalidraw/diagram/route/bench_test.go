package route

import (
	"fmt"
	"testing"
)

// benchPlacement is a placement cut to the given number of edges.
func cut(p placement, edges int) placement {
	if len(p.edges) > edges {
		p.edges = p.edges[:edges]
	}
	return p
}

func BenchmarkRoute(b *testing.B) {
	for _, tc := range []struct {
		name string
		p    placement
	}{
		{"layered/100x150", cut(layeredPlacement(100, 40, 60, 11), 150)},
		{"layered/1000x1500", cut(layeredPlacement(1000, 40, 60, 12), 1500)},
		{"grid/100x150", cut(gridPlacement(10, 10, 13), 150)},
		{"grid/1024x1500", cut(gridPlacement(32, 32, 14), 1500)},
		{"random/100x150", cut(randomPlacement(100, 150, 40, 15), 150)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			var paths []Path
			for b.Loop() {
				var err error
				paths, err = Route(tc.p.boxes, tc.p.edges, Options{})
				if err != nil {
					b.Fatal(err)
				}
			}
			st := measure(paths)
			b.ReportMetric(float64(st.crossings), "crossings")
			b.ReportMetric(float64(st.bends), "bends")
			_ = fmt.Sprint()
		})
	}
}
