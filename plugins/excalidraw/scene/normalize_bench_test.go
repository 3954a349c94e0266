package scene

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// legacyScene is the 10,000-element synthetic scene as an old editor would
// have saved it: no index, updated, link, locked or frameId, roundness as
// strokeSharpness, labels without lineHeight, and no back-references.
// Normalize has to repair every element of it.
func legacyScene(tb testing.TB, n int) *Document {
	tb.Helper()
	d := mustParse(tb, syntheticScene(tb, n))
	for _, el := range d.Elements() {
		for _, k := range []string{"index", "updated", "link", "locked", "frameId", "roundness", "lineHeight", "lastCommittedPoint"} {
			el.Delete(k)
		}
		el.Set("strokeSharpness", "round")
		el.Set("boundElements", nil)
	}
	return d
}

// hubScene is n elements bound to one rectangle that lists none of them:
// half arrows, half texts naming it as their container. Repairing it must
// not take quadratic time.
func hubScene(n int) *Document {
	hub := rect("hub").Set("boundElements", []any{})
	els := []*ojson.Object{hub}
	for i := 1; i < n; i++ {
		id := strconv.Itoa(i)
		if i%2 == 0 {
			els = append(els, textEl("t"+id, "hub"))
			continue
		}
		els = append(els, arrow("a"+id, "hub", ""))
	}
	d := NewDocument()
	d.SetElements(els)
	return d
}

// BenchmarkNormalize: a 10,000-element scene that needs every repair
// (legacy), the same scene once normalized (the cost of checking a scene
// that is already a fixed point, the common case on write), and 10,000
// elements bound to one shape (hub).
func BenchmarkNormalize(b *testing.B) {
	const n = 10000
	legacy := legacyScene(b, n)
	normalized := legacy.Clone()
	Normalize(normalized)
	for _, c := range []struct {
		name string
		doc  *Document
	}{{"legacy-10k", legacy}, {"normalized-10k", normalized}, {"hub-10k", hubScene(n)}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				d := c.doc.Clone()
				runtime.GC() // the clone's garbage is not Normalize's
				b.StartTimer()
				Normalize(d)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/element")
		})
	}
}

// The legacy scene really needs repairs, and normalizes to a valid scene
// without the warnings restore would act on.
func TestLegacySceneNormalizes(t *testing.T) {
	d := legacyScene(t, 999)
	rep := Normalize(d)
	if rep.Changed != 999 || rep.Fixes[FixIndex] != 999 || rep.Fixes[FixBoundElements] == 0 {
		t.Fatalf("%+v", rep)
	}
	r := Validate(d, Limits{})
	if !r.Valid || len(r.Diagnostics) != 0 {
		t.Fatalf("%s", dump(r.Diagnostics))
	}
}

func TestHubSceneNormalizes(t *testing.T) {
	d := hubScene(1001)
	rep := Normalize(d)
	if list, _ := d.Elements()[0].Array("boundElements"); len(list) != 1000 || rep.Fixes[FixBoundElements] != 1000 {
		t.Fatalf("hub lists %d, %+v", len(list), rep)
	}
	if again := Normalize(d); again.Changed != 0 {
		t.Fatalf("%+v", again)
	}
}
