//go:build !race

package render_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/internal/e2e/rendercheck"
	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/plugins/excalidraw/render"
	"github.com/dshgo/dsh/plugins/excalidraw/render/fonts"
	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// svgScene is a scene the SVG comparison draws.
type svgScene struct {
	name string
	data []byte
}

// svgScenes are the synthetic scenes of 100, 1,000 and 5,000 elements and
// every corpus scene (the generated ones, or DSH_CORPUS's real drawings)
// whose name holds a part of DSH_SVG_SCENES ("all" for every one).
func svgScenes(t *testing.T) []svgScene {
	var out []svgScene
	for _, n := range []int{100, 1000, 5000} {
		out = append(out, svgScene{fmt.Sprintf("synthetic-%d", n), syntheticScene(t, n)})
	}
	want := os.Getenv("DSH_SVG_SCENES")
	if want == "" {
		want = "text,cjk,fonts,flow" // the scenes with the most text
	}
	for _, f := range testcorpus.Files(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".excalidraw")
		if want != "all" && !slices.ContainsFunc(strings.Split(want, ","), func(p string) bool { return p != "" && strings.Contains(name, p) }) {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, svgScene{name, data})
	}
	return out
}

// dsh's SVG against Excalidraw 0.18.1's exportToSvg in headless Chromium
// (fonts subset and inlined by Excalidraw): bytes on every scene, and,
// with DSH_SVG_ROUNDS=n, speed over n alternated rounds (Excalidraw, dsh
// from nothing, dsh again), each round the median of five exports after
// a warm-up on both sides. "Cold" draws every shape and cuts every font
// subset anew, as Excalidraw's export does (it restores the elements,
// so its shape cache misses); "warm" is a repeated render (a thumbnail,
// a second export), which reuses them. The ratios are logged as
// min/median/max over the rounds. The bytes ratio is asserted on the
// generated scenes only, against a gross regression (whole font files
// embedded made the text scenes 3× Excalidraw's); real drawings with CJK
// in Virgil or Cascadia embed Xiaolai where Excalidraw embeds nothing
// (it leaves CJK to a system font), up to 4× its bytes.
//
//	DSH_SVG_ROUNDS=5 DSH_SVG_SCENES=all go test ./plugins/excalidraw/render -run TestSVGAgainstExcalidraw -count=1 -v -timeout 60m
func TestSVGAgainstExcalidraw(t *testing.T) {
	h := rendercheck.Start(t)
	set := editorFonts(t)
	rounds := envRounds(t, "DSH_SVG_ROUNDS", 0)
	median := func(f func()) time.Duration {
		var ds []time.Duration
		for i := range 6 {
			start := time.Now()
			f()
			if i > 0 {
				ds = append(ds, time.Since(start))
			}
		}
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	var byteRatios, coldMedians, warmMedians []float64
	for _, sc := range svgScenes(t) {
		doc, err := scene.Parse(sc.data, scene.Limits{}.ForReading())
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		ours, err := dshSVG(doc, set)
		if errors.Is(err, render.ErrEmpty) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		ro := rendercheck.DefaultOptions
		ro.Runs, ro.MaxPixels = 1, 1 // the SVG only: no canvas is drawn
		ref, err := h.Render(sc.name, sc.data, ro)
		if err != nil && !errors.Is(err, rendercheck.ErrCanvasTooBig) {
			t.Fatalf("%s: Excalidraw: %v", sc.name, err)
		}
		br := float64(len(ours)) / float64(len(ref.SVG))
		byteRatios = append(byteRatios, br)
		if br > 2 && testcorpus.Shared() == "" {
			t.Errorf("%s: dsh's SVG is %d bytes, %.2f× Excalidraw's %d", sc.name, len(ours), br, len(ref.SVG))
		}
		if rounds == 0 {
			t.Logf("%s: SVG %d bytes, Excalidraw's %d (%.2f×)", sc.name, len(ours), len(ref.SVG), br)
			continue
		}
		ro.Runs = 5
		var cold, warm []float64
		for range rounds {
			ref, err = h.Render(sc.name, sc.data, ro)
			if err != nil && !errors.Is(err, rendercheck.ErrCanvasTooBig) {
				t.Fatalf("%s: Excalidraw: %v", sc.name, err)
			}
			c := median(func() {
				render.PurgeShapeCache()
				fonts.PurgeSubsets()
				if _, err := dshSVG(doc, set); err != nil {
					t.Fatal(err)
				}
			})
			w := median(func() {
				if _, err := dshSVG(doc, set); err != nil {
					t.Fatal(err)
				}
			})
			cold = append(cold, float64(ref.SVGTime)/float64(c))
			warm = append(warm, float64(ref.SVGTime)/float64(w))
		}
		slices.Sort(cold)
		slices.Sort(warm)
		coldMedians = append(coldMedians, cold[len(cold)/2])
		warmMedians = append(warmMedians, warm[len(warm)/2])
		t.Logf("%s: %d rounds: SVG %s× faster than Excalidraw cold, %s× warm (last Excalidraw %v); %d bytes, Excalidraw's %d (%.2f×)",
			sc.name, rounds, spread(cold), spread(warm), ref.SVGTime.Round(time.Microsecond), len(ours), len(ref.SVG), br)
	}
	t.Logf("bytes, dsh's ÷ Excalidraw's, over %d scenes (min/median/max): %s", len(byteRatios), spread(byteRatios))
	if rounds > 0 {
		t.Logf("speed over the scenes, each its median round (min/median/max): cold %s×, warm %s×", spread(coldMedians), spread(warmMedians))
	}
}
