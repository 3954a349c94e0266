package query

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// generated is a scene of n elements in the proportions of real
// diagrams: labelled boxes (box + label), a bound labelled arrow between
// neighbours (arrow + label), a free text every few boxes; ids are 21
// characters like the editor's.
func generated(tb testing.TB, n int) []*ojson.Object {
	tb.Helper()
	var b strings.Builder
	b.WriteString("[")
	id := func(kind byte, i int) string { return fmt.Sprintf("%c%020d", kind, i) }
	count := 0
	add := func(s string) {
		if count > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s)
		count++
	}
	for i := 0; count < n; i++ {
		x, y := (i%40)*250, (i/40)*180
		add(fmt.Sprintf(`{"id":%q,"type":"rectangle","x":%d.25,"y":%d.5,"width":180,"height":80,"angle":0,"strokeColor":"#1e1e1e","backgroundColor":"#a5d8ff","fillStyle":"solid","strokeWidth":2,"strokeStyle":"solid","roughness":1,"opacity":100,"groupIds":[],"frameId":null,"boundElements":[{"type":"text","id":%q}],"link":null,"locked":false}`,
			id('b', i), x, y, id('l', i)))
		add(fmt.Sprintf(`{"id":%q,"type":"text","x":%d,"y":%d,"width":120,"height":25,"angle":0,"strokeColor":"#1e1e1e","backgroundColor":"transparent","text":"Service %d","originalText":"Service %d","fontSize":20,"fontFamily":5,"containerId":%q}`,
			id('l', i), x+30, y+27, i, i, id('b', i)))
		if i > 0 {
			add(fmt.Sprintf(`{"id":%q,"type":"arrow","x":%d,"y":%d,"width":70,"height":0,"angle":0,"points":[[0,0],[70,0]],"startBinding":{"elementId":%q,"focus":0,"gap":1},"endBinding":{"elementId":%q,"focus":0,"gap":1},"startArrowhead":null,"endArrowhead":"arrow","boundElements":[{"type":"text","id":%q}]}`,
				id('a', i), x-70, y+40, id('b', i-1), id('b', i), id('m', i)))
			add(fmt.Sprintf(`{"id":%q,"type":"text","x":%d,"y":%d,"width":40,"height":25,"text":"calls","originalText":"calls","containerId":%q}`,
				id('m', i), x-50, y+30, id('a', i)))
		}
		if i%5 == 0 {
			add(fmt.Sprintf(`{"id":%q,"type":"text","x":%d,"y":%d,"width":200,"height":25,"text":"Note %d about this part","originalText":"Note %d about this part"}`,
				id('t', i), x, y+100, i, i))
		}
	}
	b.WriteString("]")
	els := elements(tb, b.String())
	return els[:n]
}

func benchSelectRows(b *testing.B, n int, tg Target) {
	all := generated(b, n)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		els, err := Select(all, tg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Rows(els, all, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/element")
}

func BenchmarkSelectRows(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("all/%d", n), func(b *testing.B) { benchSelectRows(b, n, Target{}) })
		b.Run(fmt.Sprintf("text+region/%d", n), func(b *testing.B) {
			benchSelectRows(b, n, Target{TextRegex: `(?i)service \d+0$`, Region: &Region{X: 0, Y: 0, Width: 5000, Height: 1e6}})
		})
	}
}

func BenchmarkGraph(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			all := generated(b, n)
			b.ReportAllocs()
			for b.Loop() {
				Graph(all, all)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/element")
		})
	}
}

func TestGenerated(t *testing.T) {
	all := generated(t, 1000)
	if len(all) != 1000 {
		t.Fatal(len(all))
	}
	g := Graph(all, all)
	if len(g.Edges) < 200 || len(g.Unbound) != 0 {
		t.Fatalf("%d edges, %d unbound", len(g.Edges), len(g.Unbound))
	}
}

// benchSizes are the scene sizes benchmarked: the brief's 1k and 10k.
var benchSizes = []int{1000, 10000}

// BenchmarkBaselineScan reads one member of every element and nothing
// else: the floor set by memory. Its time per element grows with the
// scene as the elements outgrow the caches; the benchmarks above grow
// by the same factor, so their growth is the memory's, not the
// algorithm's (every step is one pass or a hash lookup per element).
func BenchmarkBaselineScan(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			all := generated(b, n)
			k := 0
			for b.Loop() {
				for _, el := range all {
					if scene.StringOf(el, "type") == "text" {
						k++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/element")
		})
	}
}
