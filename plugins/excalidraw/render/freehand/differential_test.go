package freehand

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/dshgo/dsh/internal/jsmath"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dshgo/dsh/internal/e2e/restorecheck"
	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/internal/testkit/testenv"
)

// The differential test runs the real perfect-freehand 1.2.0 and
// Excalidraw 0.18.1 (installed for the restore harness, see
// internal/e2e/restorecheck) once, through testdata/freehand.mjs, on random
// strokes and on the freedraw elements of the test corpus, and compares
// every outline coordinate and every path string with this package's.

// tolerance is the largest deviation allowed of an outline coordinate,
// relative to the largest coordinate of its outline (and at least 1).
const tolerance = 1e-9

// tipCase is a Tip as the script reads it: taper a number, "all" or
// false; cap true or false.
type tipCase struct {
	Taper any   `json:"taper,omitempty"`
	Cap   *bool `json:"cap,omitempty"`
}

// optionsCase is a stroke's options both ways: what perfect-freehand is
// given (JSON; "defaults" sends none) and the Go Options meant to equal it.
type optionsCase struct {
	js   map[string]any
	want Options
}

type strokeCase struct {
	name    string
	points  [][3]float64
	options optionsCase
}

func (c strokeCase) MarshalJSON() ([]byte, error) {
	pts := make([][]float64, len(c.points))
	for i, p := range c.points {
		if math.IsNaN(p[2]) {
			pts[i] = []float64{p[0], p[1]} // pressure undefined
		} else {
			pts[i] = p[:]
		}
	}
	return json.Marshal(map[string]any{"points": pts, "options": c.options.js})
}

type elementCase struct {
	name string
	e    Element
}

func (c elementCase) MarshalJSON() ([]byte, error) {
	var last any
	if c.e.LastCommitted {
		last = [2]float64{}
		if n := len(c.e.Points); n > 0 {
			last = c.e.Points[n-1]
		}
	}
	pts := c.e.Points
	if pts == nil {
		pts = [][2]float64{}
	}
	pr := c.e.Pressures
	if pr == nil {
		pr = []float64{}
	}
	return json.Marshal(map[string]any{
		"points": pts, "pressures": pr, "simulatePressure": c.e.SimulatePressure,
		"strokeWidth": c.e.StrokeWidth, "lastCommittedPoint": last,
	})
}

// flatOutline is an outline as the script writes it: x0, y0, x1, y1, …
// as numbers, or as strings when one of them is not finite.
type flatOutline []float64

func (f *flatOutline) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, (*[]float64)(f)); err == nil {
		return nil
	}
	var ss []string
	if err := json.Unmarshal(b, &ss); err != nil {
		return err
	}
	*f = make(flatOutline, len(ss))
	for i, s := range ss {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return err
		}
		(*f)[i] = v
	}
	return nil
}

func (f flatOutline) points() [][2]float64 {
	pts := make([][2]float64, len(f)/2)
	for i := range pts {
		pts[i] = [2]float64{f[2*i], f[2*i+1]}
	}
	return pts
}

type reference struct {
	Trig     [][3]float64  `json:"trig"`
	Strokes  []flatOutline `json:"strokes"`
	Elements []struct {
		Outline flatOutline `json:"outline"`
		Path    string      `json:"path"`
	} `json:"elements"`
}

// runReference runs the script on the cases and returns its answers.
func runReference(t *testing.T, trig []float64, strokes []strokeCase, elements []elementCase) reference {
	t.Helper()
	node := restorecheck.Require(t)
	modules := filepath.Join(restorecheck.Dir(), "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "perfect-freehand", "package.json")); err != nil {
		testenv.Missing(t, "perfect-freehand is not installed in "+modules+"; run bash "+filepath.Join(restorecheck.Dir(), "setup.sh"))
	}
	script, err := filepath.Abs(filepath.Join("testdata", "freehand.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := json.Marshal(map[string]any{"trig": trig, "strokes": strokes, "elements": elements})
	if err != nil {
		t.Fatal(err)
	}
	out := restorecheck.Run(t, node, script, in, modules, t.TempDir())
	var ref reference
	if err := json.Unmarshal(out, &ref); err != nil {
		t.Fatalf("reading the script's answer: %v", err)
	}
	if len(ref.Trig) != len(trig) || len(ref.Strokes) != len(strokes) || len(ref.Elements) != len(elements) {
		t.Fatalf("the script answered %d/%d/%d cases for %d/%d/%d", len(ref.Trig), len(ref.Strokes), len(ref.Elements), len(trig), len(strokes), len(elements))
	}
	return ref
}

// comparison gathers the deviations of outlines from the reference.
type comparison struct {
	t          *testing.T
	coords     int
	exact      int
	maxDev     float64
	maxDevCase string
	failures   int
}

func (c *comparison) outline(name string, got [][2]float64, flat flatOutline) {
	c.t.Helper()
	want := flat.points()
	if len(got) != len(want) || len(flat)%2 != 0 {
		c.fail("%s: %d outline points, want %d", name, len(got), len(want))
		return
	}
	scale := 1.0
	for _, p := range want {
		scale = math.Max(scale, math.Max(math.Abs(p[0]), math.Abs(p[1])))
	}
	for i := range got {
		for j := range 2 {
			g, w := got[i][j], want[i][j]
			c.coords++
			if g == w || math.IsNaN(g) && math.IsNaN(w) {
				c.exact++
				continue
			}
			dev := math.Abs(g-w) / scale
			if math.IsNaN(dev) {
				dev = math.Inf(1)
			}
			if dev > c.maxDev {
				c.maxDev, c.maxDevCase = dev, fmt.Sprintf("%s point %d", name, i)
			}
			if dev > tolerance {
				c.fail("%s: point %d[%d] = %v, want %v", name, i, j, g, w)
				return
			}
		}
	}
}

func (c *comparison) fail(format string, args ...any) {
	c.t.Helper()
	if c.failures++; c.failures <= 20 {
		c.t.Errorf(format, args...)
	}
}

func TestAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(0x5eed, 2025))
	trig := trigProbes(r)
	strokes := randomStrokes(r)
	elements := append(randomElements(r), corpusElements(t)...)
	// This package's answers, worked out while Node works out its own.
	done := make(chan answers, 1)
	go func() { done <- answer(strokes, elements) }()
	ref := runReference(t, trig, strokes, elements)
	ours := <-done

	trigOff := 0
	for i, x := range trig {
		w := ref.Trig[i]
		if jsmath.Sin(x) != w[0] || jsmath.Cos(x) != w[1] || jsmath.Hypot(x, x/3) != w[2] {
			if trigOff++; trigOff <= 5 {
				t.Errorf("x = %v: sin, cos, hypot = %v %v %v, Node %v %v %v", x, jsmath.Sin(x), jsmath.Cos(x), jsmath.Hypot(x, x/3), w[0], w[1], w[2])
			}
		}
	}

	cmp := &comparison{t: t}
	for i, c := range strokes {
		cmp.outline(c.name, ours.strokes[i], ref.Strokes[i])
	}
	pathOff := 0
	for i, c := range elements {
		want := ref.Elements[i]
		cmp.outline(c.name, ours.elements[i], want.Outline)
		if p := ours.paths[i]; p != want.Path {
			pathOff++
			why := " (formatting)"
			if PathData(want.Outline.points()) == want.Path {
				why = " (the outline differs)"
			}
			cmp.fail("%s: path data differs%s\n got %.300s\nwant %.300s", c.name, why, p, want.Path)
		}
	}
	t.Logf("trig probes: %d, off %d", len(trig), trigOff)
	if cmp.maxDevCase == "" {
		cmp.maxDevCase = "none"
	}
	t.Logf("outlines: %d strokes + %d elements, %d coordinates, %d bit-exact; max deviation %.3g (at %s)",
		len(strokes), len(elements), cmp.coords, cmp.exact, cmp.maxDev, cmp.maxDevCase)
	t.Logf("path data: %d compared with Excalidraw's getFreeDrawSvgPath, %d differ", len(elements), pathOff)
}

// answers are this package's outlines of the cases, and the path data of
// the elements'.
type answers struct {
	strokes, elements [][][2]float64
	paths             []string
}

func answer(strokes []strokeCase, elements []elementCase) answers {
	var a answers
	for _, c := range strokes {
		a.strokes = append(a.strokes, Stroke(c.points, c.options.want))
	}
	for _, c := range elements {
		o := Outline(c.e)
		a.elements = append(a.elements, o)
		a.paths = append(a.paths, PathData(o))
	}
	return a
}

// trigProbes are angles for Math.sin, Math.cos and Math.hypot: the range
// the outline turns through, the easing's, and reduction edge cases.
func trigProbes(r *rand.Rand) []float64 {
	var xs []float64
	for range 4000 {
		xs = append(xs, (r.Float64()-0.5)*20)
	}
	for range 500 {
		xs = append(xs, (r.Float64()-0.5)*1e6, (r.Float64()-0.5)*1e-6, r.Float64()*math.Pi/4)
	}
	for k := -40; k <= 40; k++ {
		c := float64(k) * math.Pi / 2
		xs = append(xs, c, math.Nextafter(c, math.Inf(1)), math.Nextafter(c, math.Inf(-1)))
	}
	return append(xs, 0, math.Copysign(0, -1), 1e-300, 0.78125, 0.3, 823549.6, 823550.5)
}

// randomPath is n points of a pen moving about: mostly smooth, with
// pauses (repeated points), jumps and sharp turns.
func randomPath(r *rand.Rand, n int) [][2]float64 {
	pts := make([][2]float64, n)
	x, y := 0.0, 0.0
	if r.IntN(3) == 0 {
		x, y = (r.Float64()-0.5)*2000, (r.Float64()-0.5)*2000
	}
	heading := r.Float64() * 2 * math.Pi
	turn := (r.Float64() - 0.5) * 0.6
	for i := range pts {
		pts[i] = [2]float64{x, y}
		step := r.ExpFloat64() * 4
		switch k := r.IntN(20); {
		case k < 2:
			step = 0
		case k < 3:
			step *= 25
		case k < 5:
			heading += math.Pi * (0.8 + r.Float64()*0.4) // a sharp turn
		}
		turn += (r.Float64() - 0.5) * 0.2
		heading += turn * 0.3
		x += step * math.Cos(heading)
		y += step * math.Sin(heading)
		if r.IntN(10) == 0 {
			x, y = math.Round(x), math.Round(y)
		}
	}
	return pts
}

var pointCounts = []int{1, 1, 2, 2, 3, 4, 5, 6, 8, 10, 11, 12, 15, 20, 30, 50, 80, 120, 200, 300}

// randomPressures is n pressures in one of several styles; NaN is "not given".
func randomPressures(r *rand.Rand, n int) []float64 {
	p := make([]float64, n)
	style := r.IntN(6)
	v := r.Float64()
	for i := range p {
		switch style {
		case 0:
			p[i] = math.NaN()
		case 1:
			p[i] = r.Float64()
		case 2:
			p[i] = 0
		case 3:
			p[i] = 0.5
		case 4:
			v = math.Min(1, math.Max(0, v+(r.Float64()-0.5)*0.1))
			p[i] = v
		default:
			p[i] = []float64{0, 1, -1, math.NaN(), r.Float64(), 2}[r.IntN(6)]
		}
	}
	return p
}

var strokeWidths = []float64{1, 2, 4, 0.5, 3, 6, 1.5, 0.1, 10}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// randomOptions is an options case: Excalidraw's for a stroke width, the
// library's defaults, or any mix.
func randomOptions(r *rand.Rand) optionsCase {
	switch r.IntN(4) {
	case 0:
		e := Element{StrokeWidth: pick(r, strokeWidths...), SimulatePressure: r.IntN(2) == 0, LastCommitted: r.IntN(2) == 0}
		return optionsCase{js: map[string]any{
			"size": e.StrokeWidth * 4.25, "thinning": 0.6, "smoothing": 0.5, "streamline": 0.5,
			"easing": "sine", "simulatePressure": e.SimulatePressure, "last": e.LastCommitted,
		}, want: ExcalidrawOptions(e)}
	case 1:
		return optionsCase{js: map[string]any{}, want: DefaultOptions()}
	}
	o := Options{
		Size:             pick(r, 16, 4.25, 8.5, 17, 1, 0.3, 40, 0, -2),
		Thinning:         pick(r, 0.6, 0.5, 0, -0.5, 1, 0.9),
		Smoothing:        pick(r, 0.5, 0, 1, 0.23),
		Streamline:       pick(r, 0.5, 0, 1, 0.9, 0.2),
		SimulatePressure: r.IntN(2) == 0,
		Last:             r.IntN(2) == 0,
	}
	js := map[string]any{
		"size": o.Size, "thinning": o.Thinning, "smoothing": o.Smoothing, "streamline": o.Streamline,
		"simulatePressure": o.SimulatePressure, "last": o.Last,
	}
	easing := pick(r, "linear", "sine", "quad")
	js["easing"] = easing
	o.Easing = map[string]func(float64) float64{"linear": nil, "sine": SineEasing, "quad": func(t float64) float64 { return t * t }}[easing]
	tip := func(tp *Tip) *tipCase {
		var c tipCase
		switch r.IntN(5) {
		case 0:
			return nil
		case 1:
			c.Taper, tp.TaperAll = "all", true
		case 2:
			tp.Taper = pick[float64](r, 5, 30, 200, 1000)
			c.Taper = tp.Taper
		case 3:
			c.Taper = false
		}
		if r.IntN(3) == 0 {
			cp := r.IntN(2) == 0
			c.Cap, tp.NoCap = &cp, !cp
		}
		return &c
	}
	if c := tip(&o.Start); c != nil {
		js["start"] = c
	}
	if c := tip(&o.End); c != nil {
		js["end"] = c
	}
	return optionsCase{js: js, want: o}
}

func randomStrokes(r *rand.Rand) []strokeCase {
	var cases []strokeCase
	for i := range 800 {
		n := pick(r, pointCounts...)
		if i%100 == 0 {
			n = pick(r, 500, 1000)
		}
		path, pressures := randomPath(r, n), randomPressures(r, n)
		pts := make([][3]float64, n)
		for k := range pts {
			pts[k] = [3]float64{path[k][0], path[k][1], pressures[k]}
		}
		cases = append(cases, strokeCase{name: fmt.Sprintf("stroke %d (%d points)", i, n), points: pts, options: randomOptions(r)})
	}
	// A pen that never moves: one spine point, a dot (or, tapered and not
	// complete, a bare pair of sides); at pressure 0 with full thinning its
	// radius is 0 and the dot takes the clamped one.
	for i := range 120 {
		p := [3]float64{r.Float64() * 100, r.Float64() * 100, pick(r, 0, 0.5, 1, math.NaN())}
		o := randomOptions(r)
		if i%4 == 0 {
			o.js["thinning"], o.want.Thinning = 1.0, 1
			o.js["simulatePressure"], o.want.SimulatePressure = false, false
		}
		pts := make([][3]float64, 2+r.IntN(4))
		for k := range pts {
			pts[k] = p
		}
		cases = append(cases, strokeCase{name: fmt.Sprintf("still pen %d", i), points: pts, options: o})
	}
	return append(cases, strokeCase{name: "no points", options: optionsCase{js: map[string]any{}, want: DefaultOptions()}})
}

func randomElements(r *rand.Rand) []elementCase {
	var cases []elementCase
	add := func(name string, e Element) {
		cases = append(cases, elementCase{name: fmt.Sprintf("element %d %s", len(cases), name), e: e})
	}
	for _, sim := range []bool{false, true} {
		for _, last := range []bool{false, true} {
			add("without points", Element{SimulatePressure: sim, LastCommitted: last, StrokeWidth: 2})
		}
	}
	for i := range 800 {
		n := pick(r, pointCounts...)
		if i%100 == 0 {
			n = pick(r, 500, 1000)
		}
		path := randomPath(r, n)
		// Excalidraw's points start at the element's origin.
		for k := range path {
			path[k][0] -= path[0][0]
			path[k][1] -= path[0][1]
		}
		e := Element{Points: path, StrokeWidth: pick(r, strokeWidths...), SimulatePressure: r.IntN(2) == 0, LastCommitted: r.IntN(2) == 0}
		switch r.IntN(4) {
		case 0: // no pressures recorded
		case 1: // fewer pressures than points
			e.Pressures = finite(randomPressures(r, r.IntN(n+1)))
		default:
			e.Pressures = finite(randomPressures(r, n))
		}
		// Odd scales, to print numbers in exponent notation.
		if r.IntN(30) == 0 {
			s := pick(r, 1e-7, 3e-9, 1e-12, 1e19, 7e21)
			for k := range e.Points {
				e.Points[k][0] *= s
				e.Points[k][1] *= s
			}
			e.StrokeWidth *= s
		}
		add(fmt.Sprintf("(%d points)", n), e)
	}
	return cases
}

// finite replaces the NaNs (which JSON cannot carry) by 0.
func finite(p []float64) []float64 {
	for i := range p {
		if math.IsNaN(p[i]) {
			p[i] = 0
		}
	}
	return p
}

// corpusElements are the freedraw elements of the test corpus (the
// generated one, or DSH_CORPUS's): as stored, and as restore leaves them
// (lastCommittedPoint null).
func corpusElements(t *testing.T) []elementCase {
	files := testcorpus.Files(t)
	var cases []elementCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Elements []json.RawMessage }
		if !bytes.Contains(b, []byte(`"freedraw"`)) || json.Unmarshal(b, &doc) != nil {
			continue
		}
		for _, raw := range doc.Elements {
			var el struct {
				Type               string
				ID                 string
				Points             [][2]float64
				Pressures          []float64
				SimulatePressure   bool
				StrokeWidth        float64
				LastCommittedPoint json.RawMessage
			}
			if json.Unmarshal(raw, &el) != nil || el.Type != "freedraw" {
				continue
			}
			e := Element{Points: el.Points, Pressures: el.Pressures, SimulatePressure: el.SimulatePressure, StrokeWidth: el.StrokeWidth}
			name := strings.TrimSuffix(filepath.Base(f), ".excalidraw") + " " + el.ID
			cases = append(cases, elementCase{name: name, e: e})
			if l := strings.TrimSpace(string(el.LastCommittedPoint)); l != "" && l != "null" && len(e.Points) > 0 {
				e.LastCommitted = true
				cases = append(cases, elementCase{name: name + " (committed)", e: e})
			}
		}
	}
	if len(cases) == 0 {
		t.Error("the corpus has no freedraw elements")
	}
	return cases
}
