package lint

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// gridScene builds about n elements as an agent would: a square grid of
// labelled boxes, each joined to its right-hand neighbour by an arrow
// (three elements per box). Every eleventh box is filled, every
// thirteenth is nudged 2 px (an alignment hint) so the rules have
// something to find.
func gridScene(tb testing.TB, n int) []*ojson.Object {
	tb.Helper()
	boxes := n / 3
	cols := int(math.Ceil(math.Sqrt(float64(boxes))))
	var inputs []json.RawMessage
	for i := range boxes {
		x, y := float64(i%cols)*260, float64(i/cols)*180
		if i%13 == 0 {
			x += 2
		}
		fill := ""
		if i%11 == 0 {
			fill = `,"backgroundColor":"#a5d8ff"`
		}
		inputs = append(inputs, json.RawMessage(fmt.Sprintf(
			`{"type":"rectangle","id":"n%d","x":%g,"y":%g,"width":160,"height":80%s,"label":{"text":"Node %d"}}`, i, x, y, fill, i)))
	}
	for i := range boxes {
		if i%cols != cols-1 && i+1 < boxes {
			inputs = append(inputs, json.RawMessage(fmt.Sprintf(`{"type":"arrow","id":"e%d","startElementId":"n%d","endElementId":"n%d"}`, i, i, i+1)))
		}
	}
	return buildBench(tb, inputs)
}

// crossedScene is gridScene with, in every other square of four boxes,
// the two diagonals as labelled arrows: an X whose arrows cross each
// other, pass over their labels and the row's arrows, about 40% more
// elements. It is the reading rules' worst case among plausible scenes.
func crossedScene(tb testing.TB, n int) []*ojson.Object {
	tb.Helper()
	boxes := n / 4
	cols := int(math.Ceil(math.Sqrt(float64(boxes))))
	var inputs []json.RawMessage
	for i := range boxes {
		x, y := float64(i%cols)*260, float64(i/cols)*180
		inputs = append(inputs, json.RawMessage(fmt.Sprintf(
			`{"type":"rectangle","id":"n%d","x":%g,"y":%g,"width":160,"height":80,"label":{"text":"Node %d"}}`, i, x, y, i)))
	}
	for i := range boxes {
		if i%cols != cols-1 && i+1 < boxes {
			inputs = append(inputs, json.RawMessage(fmt.Sprintf(`{"type":"arrow","id":"e%d","startElementId":"n%d","endElementId":"n%d"}`, i, i, i+1)))
		}
		if i%cols != cols-1 && i%2 == 0 && i+cols+1 < boxes {
			inputs = append(inputs, json.RawMessage(fmt.Sprintf(
				`{"type":"arrow","id":"d%d","startElementId":"n%d","endElementId":"n%d","label":{"text":"down"}}`, i, i, i+cols+1)),
				json.RawMessage(fmt.Sprintf(
					`{"type":"arrow","id":"u%d","startElementId":"n%d","endElementId":"n%d","label":{"text":"up"}}`, i, i+1, i+cols)))
		}
	}
	return buildBench(tb, inputs)
}

func buildBench(tb testing.TB, inputs []json.RawMessage) []*ojson.Object {
	res, err := build.Build(inputs, build.Context{Rand: rand.New(rand.NewPCG(1, 1)), Now: func() time.Time { return time.UnixMilli(0) }})
	if err != nil {
		tb.Fatal(err)
	}
	return res.Elements
}

var (
	gridOnce sync.Once
	grid1k   []*ojson.Object
	grid10k  []*ojson.Object
)

func grids(tb testing.TB) ([]*ojson.Object, []*ojson.Object) {
	gridOnce.Do(func() {
		grid1k = gridScene(tb, 1000)
		grid10k = gridScene(tb, 10000)
	})
	return grid1k, grid10k
}

// readingRules are the reading rules (arrow_over_text, text_overlap,
// collinear_arrows, label_broken_mid_word, arrow_crossing): the benchmarks run
// with and without them, so one run gives their cost as a ratio.
var readingRules = map[string]bool{CodeArrowOverText: true, CodeTextOverlap: true, CodeCollinearArrows: true,
	CodeLabelBrokenMidWord: true, CodeArrowCrossing: true}

// rulesets are the benchmarks' variants: every rule, and every rule but
// the reading ones.
var rulesets = []struct {
	name     string
	disabled map[string]bool
}{{"all", nil}, {"no-reading", readingRules}}

func BenchmarkRunAll(b *testing.B) {
	small, large := grids(b)
	for _, c := range []struct {
		name string
		els  []*ojson.Object
	}{{"1k", small}, {"10k", large}, {"1k-crossed", crossedScene(b, 1000)}} {
		for _, r := range rulesets {
			b.Run(c.name+"/"+r.name, func(b *testing.B) {
				b.ReportAllocs()
				var n int
				for b.Loop() {
					n = len(Run(c.els, Options{Disabled: r.disabled}))
				}
				b.ReportMetric(float64(len(c.els)), "elements")
				b.ReportMetric(float64(n), "findings")
			})
		}
	}
}

// BenchmarkRunScoped is a staged write touching 10 elements of 10k:
// Neighbours of the touched ids, then a scoped Run.
func BenchmarkRunScoped(b *testing.B) {
	_, large := grids(b)
	var touched []string
	for i := range 10 {
		id, _ := large[i*len(large)/10].String("id")
		touched = append(touched, id)
	}
	scope := Neighbours(large, touched)
	for _, r := range rulesets {
		b.Run("neighbours+run/"+r.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Run(large, Options{Scope: Neighbours(large, touched), Disabled: r.disabled})
			}
		})
		b.Run("run/"+r.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Run(large, Options{Scope: scope, Disabled: r.disabled})
			}
			b.ReportMetric(float64(len(scope)), "scope")
		})
	}
}

// visits runs every rule and reports how many candidates the spatial
// index handed the rules.
func visits(els []*ojson.Object, o Options) int {
	s := newScene(els, o, nil)
	for _, r := range rules {
		r.run(s)
	}
	return s.visits
}

// The pairwise rules are not quadratic: four times the elements, about
// four times the candidates; a scope of ten ids examines a few hundred.
func TestPairwiseWorkIsLinear(t *testing.T) {
	small := gridScene(t, 2500)
	_, large := grids(t)
	vs, vl := visits(small, Options{}), visits(large, Options{})
	ratio := float64(vl) / float64(vs)
	t.Logf("%d elements: %d candidates; %d elements: %d candidates (×%.2f)", len(small), vs, len(large), vl, ratio)
	if ratio > 5 {
		t.Errorf("candidates grew ×%.1f for ×4 elements", ratio)
	}
	if per := vl / len(large); per > 100 {
		t.Errorf("%d candidates per element", per)
	}
	scope := map[string]bool{}
	for i := range 10 {
		id, _ := large[i*len(large)/10].String("id")
		scope[id] = true
	}
	scoped := visits(large, Options{Scope: Neighbours(large, slices.Collect(maps.Keys(scope)))})
	t.Logf("scoped to the neighbours of 10 ids: %d candidates", scoped)
	if scoped > vl/50 {
		t.Errorf("a scoped run examined %d candidates of a full run's %d", scoped, vl)
	}
}

// BenchmarkDeltaWrite is the lint of a one-element write on a 1,000-
// element scene as the service runs it: the model of the version before
// is the previous write's (read already, its spatial index built), the
// version after is read anew, both frozen as sealed documents are.
func BenchmarkDeltaWrite(b *testing.B) {
	small, _ := grids(b)
	before := make([]*ojson.Object, len(small))
	for i, o := range small {
		before[i] = o.Clone()
		before[i].Freeze()
	}
	i := len(before) / 2
	id, _ := before[i].String("id")
	moved := before[i].Clone()
	x, _ := moved.Number("x")
	moved.Set("x", x+1)
	moved.Freeze()
	after := slices.Clone(before)
	after[i] = moved
	was := NewModel(before, "")
	DeltaModels(was, NewModel(before, ""), []string{id}, false) // reads before
	b.ReportAllocs()
	start := processCPU()
	for b.Loop() {
		DeltaModels(was, NewModel(after, ""), []string{id}, false)
	}
	b.ReportMetric(float64(processCPU()-start)/float64(time.Microsecond)/float64(b.N), "cpu-µs/op")
}

// processCPU is the CPU time this process has used on every thread (Delta
// lints the two versions side by side).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
