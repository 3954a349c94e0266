package scene

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// syntheticScene returns about n elements in groups of three: a rectangle,
// its bound label, and an arrow bound from the previous rectangle to it,
// all with consecutive fractional indices: a valid, binding-heavy scene.
func syntheticScene(tb testing.TB, n int) []byte {
	tb.Helper()
	keys, err := findex.N("", "", n)
	if err != nil {
		tb.Fatal(err)
	}
	els := make([]*ojson.Object, 0, n)
	var prev *ojson.Object
	for g := 0; len(els)+3 <= n; g++ {
		id := "r" + strconv.Itoa(g)
		r := baseElement(id, "rectangle", float64(g%100)*200, float64(g/100)*150, 160, 80)
		label := textEl("t"+strconv.Itoa(g), id)
		bind(r, "t"+strconv.Itoa(g), "text")
		els = append(els, r, label)
		if prev != nil {
			aid := "a" + strconv.Itoa(g)
			from, _ := prev.String("id")
			a := arrow(aid, from, id)
			bind(prev, aid, "arrow")
			bind(r, aid, "arrow")
			els = append(els, a)
		}
		prev = r
	}
	for len(els) < n {
		els = append(els, baseElement("e"+strconv.Itoa(len(els)), "ellipse", 0, -100, 50, 50))
	}
	for i, el := range els {
		el.Set("index", keys[i])
	}
	d := NewDocument()
	d.SetElements(els)
	b, err := d.Marshal()
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func TestSyntheticSceneIsValid(t *testing.T) {
	data := syntheticScene(t, 1000)
	r := ValidateBytes(data, Limits{})
	if !r.Valid || len(r.Diagnostics) != 0 || r.Stats.Elements != 1000 {
		t.Fatalf("%d elements, %s", r.Stats.Elements, dump(r.Diagnostics))
	}
	if r.Stats.ByType["arrow"] < 300 || r.Stats.ByType["text"] < 300 {
		t.Fatalf("not mixed: %v", r.Stats.ByType)
	}
}

// BenchmarkParseValidateMarshal measures what a tool call costs: read a
// scene, validate it, write it back. The 10,000-element case also reports
// its time per operation over the 1,000-element case's (x1k: about 10
// when the cost is linear), when both ran.
func BenchmarkParseValidateMarshal(b *testing.B) {
	perOp := map[int]float64{}
	for _, n := range []int{1000, 10000} {
		data := syntheticScene(b, n)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			defer func() {
				perOp[n] = float64(b.Elapsed()) / float64(b.N)
				if small := perOp[1000]; n == 10000 && small > 0 {
					b.ReportMetric(perOp[n]/small, "x1k")
				}
			}()
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				d, err := Parse(data, Limits{})
				if err != nil {
					b.Fatal(err)
				}
				if r := Validate(d, Limits{}); !r.Valid {
					b.Fatal(r.Diagnostics[0])
				}
				if _, err := d.Marshal(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkStages splits the 10,000-element case into its parts.
func BenchmarkStages(b *testing.B) {
	data := syntheticScene(b, 10000)
	d := mustParse(b, data)
	b.Run("parse", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := Parse(data, Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("validate", func(b *testing.B) {
		for b.Loop() {
			Validate(d, Limits{})
		}
	})
	b.Run("marshal", func(b *testing.B) {
		for b.Loop() {
			if _, err := d.Marshal(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkParse reads the largest real scene of the corpus.
func BenchmarkParse(b *testing.B) {
	var largest string
	var size int64
	for _, p := range testcorpus.Files(b) {
		if st, err := os.Stat(p); err == nil && st.Size() > size {
			largest, size = p, st.Size()
		}
	}
	data, err := os.ReadFile(largest)
	if err != nil {
		b.Fatal(err)
	}
	b.Run(filepath.Base(largest), func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Parse(data, Limits{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
