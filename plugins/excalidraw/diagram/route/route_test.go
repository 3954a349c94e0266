package route

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/geom"
)

func routeOK(t *testing.T, p placement, o Options) []Path {
	t.Helper()
	paths, err := Route(p.boxes, p.edges, o)
	if err != nil {
		t.Fatal(err)
	}
	probs := check(p.boxes, p.edges, paths)
	for i, pr := range probs {
		if i == 20 {
			t.Errorf("... and %d more", len(probs)-20)
			break
		}
		t.Error(pr)
	}
	return paths
}

func wantFullClearance(t *testing.T, paths []Path, o Options) {
	t.Helper()
	want, _ := o.resolve()
	for _, p := range paths {
		if p.Blocked || p.Clearance != want.Clearance {
			t.Errorf("path %s: blocked %v, clearance %v, want %v", p.ID, p.Blocked, p.Clearance, want.Clearance)
		}
	}
}

func TestPlacements(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    placement
	}{
		{"grid 4x5", gridPlacement(4, 5, 1)},
		{"grid 8x8", gridPlacement(8, 8, 2)},
		{"layered 30 roomy", layeredPlacement(30, 60, 70, 3)},
		{"layered 100 roomy", layeredPlacement(100, 60, 70, 4)},
		{"layered 100 dot gaps", layeredPlacement(100, 40, 60, 8)},
		{"layered 300 dot gaps", layeredPlacement(300, 40, 60, 9)},
		{"random 40", randomPlacement(40, 60, 60, 5)},
		{"random 100", randomPlacement(100, 150, 60, 6)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			paths := routeOK(t, tc.p, Options{})
			dumpSVG(strings.ReplaceAll(tc.name, " ", "_"), tc.p.boxes, paths)
			wantFullClearance(t, paths, Options{})
			t.Logf("%d boxes, %d edges: %v", len(tc.p.boxes), len(tc.p.edges), measure(paths))
		})
	}
}

func TestDeterministic(t *testing.T) {
	p := layeredPlacement(60, 50, 60, 7)
	a, err := Route(p.boxes, p.edges, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		b, _ := Route(p.boxes, p.edges, Options{})
		if !reflect.DeepEqual(a, b) {
			t.Fatal("two runs differ")
		}
	}
}

func TestStraight(t *testing.T) {
	boxes := map[string]geom.Rect{"a": geom.R(0, 0, 100, 40), "b": geom.R(20, 120, 100, 160)}
	paths, err := Route(boxes, []Edge{{ID: "ab", From: "a", To: "b", FromSide: Bottom, ToSide: Top}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := paths[0]
	if len(p.Points) != 2 || p.FromSide != Bottom || p.ToSide != Top {
		t.Fatalf("got %+v, want one straight segment from bottom to top", p)
	}
}

func TestErrors(t *testing.T) {
	boxes := map[string]geom.Rect{"a": geom.R(0, 0, 10, 10)}
	for _, tc := range []struct {
		boxes map[string]geom.Rect
		edges []Edge
		o     Options
		want  string
	}{
		{boxes, []Edge{{From: "a", To: "x"}}, Options{}, `to "x"`},
		{boxes, []Edge{{From: "y", To: "a"}}, Options{}, `from "y"`},
		{boxes, []Edge{{From: "a", To: "a", FromSide: 9}}, Options{}, "unknown side"},
		{map[string]geom.Rect{"a": geom.R(10, 0, 0, 10)}, nil, Options{}, "min beyond"},
		{boxes, nil, Options{Spacing: -1}, "Spacing"},
	} {
		_, err := Route(tc.boxes, tc.edges, tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want an error with %q", err, tc.want)
		}
	}
}

// TestChecker makes sure the checks catch each broken promise.
func TestChecker(t *testing.T) {
	boxes := map[string]geom.Rect{
		"a": geom.R(0, 0, 100, 40), "b": geom.R(0, 200, 100, 240), "c": geom.R(300, 200, 400, 240), "x": geom.R(150, 80, 250, 120),
	}
	edges := []Edge{{ID: "ab", From: "a", To: "b"}, {ID: "ac", From: "a", To: "c"}}
	good := []Path{
		{ID: "ab", Points: pts(40, 40, 40, 200), FromSide: Bottom, ToSide: Top, FromAt: 0.4, ToAt: 0.4, Clearance: 16},
		{ID: "ac", Points: pts(60, 40, 60, 160, 350, 160, 350, 200), FromSide: Bottom, ToSide: Top, FromAt: 0.6, ToAt: 0.5, Clearance: 16},
	}
	if probs := check(boxes, edges, good); len(probs) > 0 {
		t.Fatalf("good paths: %v", probs)
	}
	for _, tc := range []struct {
		name   string
		break_ func(ps []Path)
		want   string
	}{
		{"diagonal", func(ps []Path) { ps[1].Points[1].X = 61 }, "not orthogonal"},
		{"off its side", func(ps []Path) { ps[0].Points[0].Y = 41; ps[0].Points[1].X = 40 }, "not on the bottom side"},
		{"wrong fraction", func(ps []Path) { ps[0].FromAt = 0.9 }, "not the point"},
		{"along its side", func(ps []Path) {
			ps[1].Points = pts(100, 20, 350, 20, 350, 200)
			ps[1].FromSide, ps[1].FromAt = Right, 0.5
			ps[1].Points = pts(100, 20, 100, 10, 350, 10, 350, 200)
		}, "not perpendicular"},
		{"through a box", func(ps []Path) {
			ps[1].Points = pts(60, 40, 60, 100, 350, 100, 350, 200)
		}, "from box x"},
		{"too close to a box", func(ps []Path) {
			ps[1].Points = pts(60, 40, 60, 130, 350, 130, 350, 200)
		}, "from box x"},
		{"into its own box", func(ps []Path) {
			ps[0].Points = pts(40, 40, 40, 220, 60, 220, 60, 200)
			ps[0].ToAt = 0.6
		}, "enters its own box"},
		{"one point", func(ps []Path) {
			ps[1].Points[0].X, ps[1].Points[1].X, ps[1].FromAt = 40, 40, 0.4
		}, "end at one point"},
		{"collinear overlap", func(ps []Path) {
			ps[1].Points = pts(60, 40, 60, 160, 40, 160, 40, 180, 350, 180, 350, 200)
		}, "overlap on a line"},
	} {
		ps := make([]Path, len(good))
		for i, p := range good {
			ps[i] = p
			ps[i].Points = append([]geom.Vec(nil), p.Points...)
		}
		tc.break_(ps)
		probs := check(boxes, edges, ps)
		if !strings.Contains(strings.Join(probs, "\n"), tc.want) {
			t.Errorf("%s: got %q, want a problem with %q", tc.name, probs, tc.want)
		}
	}
}

func TestFanOut(t *testing.T) {
	boxes := map[string]geom.Rect{"s": geom.R(200, 0, 320, 40)}
	var edges []Edge
	for i := 0; i < 6; i++ {
		id := name(i)
		x := float64(i) * 110
		boxes[id] = geom.R(x, 160, x+80, 200)
		edges = append(edges, Edge{ID: id, From: "s", To: id, FromSide: Bottom, ToSide: Top})
	}
	paths := routeOK(t, placement{boxes, edges}, Options{})
	st := measure(paths)
	if st.crossings != 0 {
		t.Errorf("%d crossings, want 0", st.crossings)
	}
	for i := 1; i < len(paths); i++ {
		if paths[i].FromSide != Bottom || paths[i].FromAt <= paths[i-1].FromAt {
			t.Errorf("ends on s: %v at %v after %v at %v, want them in the targets' order along the bottom", paths[i].FromSide, paths[i].FromAt, paths[i-1].FromSide, paths[i-1].FromAt)
		}
	}
	t.Log(st)
}

func TestParallelAndLoops(t *testing.T) {
	boxes := map[string]geom.Rect{"a": geom.R(0, 0, 120, 50), "b": geom.R(300, 0, 420, 50)}
	edges := []Edge{
		{ID: "1", From: "a", To: "b", FromSide: Right, ToSide: Left},
		{ID: "2", From: "a", To: "b", FromSide: Right, ToSide: Left},
		{ID: "3", From: "b", To: "a", FromSide: Right, ToSide: Left},
		{ID: "4", From: "a", To: "a"},
		{ID: "5", From: "b", To: "b", FromSide: Bottom, ToSide: Bottom},
	}
	paths := routeOK(t, placement{boxes, edges}, Options{})
	wantFullClearance(t, paths, Options{})
	if p := paths[4]; p.FromSide != Bottom || p.ToSide != Left {
		t.Errorf("loop asking bottom to bottom goes %v to %v, want bottom to left", p.FromSide, p.ToSide)
	}
	if p := paths[3]; p.FromSide == p.ToSide {
		t.Errorf("loop leaves and enters by the %v side", p.FromSide)
	}
	t.Log(measure(paths))
}

// TestTight has a box walled in 20 apart from its neighbours: routes to
// it keep less than the clearance, and say so.
func TestTight(t *testing.T) {
	boxes := map[string]geom.Rect{
		"d":     geom.R(0, 0, 100, 40),
		"left":  geom.R(-120, -100, -20, 140),
		"right": geom.R(120, -100, 220, 140),
		"lid":   geom.R(0, -100, 100, -20),
		"floor": geom.R(0, 60, 100, 140),
		"a":     geom.R(-100, -300, 0, -260),
		"c":     geom.R(400, 0, 500, 40),
	}
	edges := []Edge{{ID: "ad", From: "a", To: "d"}, {ID: "ac", From: "a", To: "c"}}
	paths := routeOK(t, placement{boxes, edges}, Options{Clearance: 16})
	for _, p := range paths {
		if p.Blocked {
			t.Errorf("%s blocked", p.ID)
		}
	}
	if paths[0].Clearance != 8 {
		t.Errorf("ad keeps %v, want 8 between boxes 20 apart", paths[0].Clearance)
	}
	if paths[1].Clearance != 16 {
		t.Errorf("ac keeps %v, want 16", paths[1].Clearance)
	}
}

// TestBlocked has an end inside another box: no clear route exists.
func TestBlocked(t *testing.T) {
	boxes := map[string]geom.Rect{"a": geom.R(0, 0, 100, 40), "frame": geom.R(-50, -50, 150, 90), "b": geom.R(300, 0, 400, 40)}
	edges := []Edge{{ID: "ab", From: "a", To: "b"}}
	paths := routeOK(t, placement{boxes, edges}, Options{})
	if !paths[0].Blocked {
		t.Errorf("got %+v, want it blocked", paths[0])
	}
}

func TestEmpty(t *testing.T) {
	paths, err := Route(nil, nil, Options{})
	if err != nil || len(paths) != 0 {
		t.Fatalf("got %v, %v", paths, err)
	}
	// A zero-size box is a point.
	paths = routeOK(t, placement{map[string]geom.Rect{"p": geom.R(0, 0, 0, 0), "q": geom.R(100, 100, 100, 100)}, []Edge{{ID: "pq", From: "p", To: "q"}}}, Options{})
	t.Log(paths[0].Points)
}

// pts is the points (x0, y0, x1, y1, ...).
func pts(xy ...float64) []geom.Vec {
	out := make([]geom.Vec, 0, len(xy)/2)
	for i := 0; i+1 < len(xy); i += 2 {
		out = append(out, geom.V(xy[i], xy[i+1]))
	}
	return out
}

func TestCrossings(t *testing.T) {
	for _, tc := range []struct {
		name string
		p, q []geom.Vec
		want int
	}{
		{"through", pts(0, 50, 100, 50), pts(50, 0, 50, 100), 1},
		{"apart", pts(0, 50, 100, 50), pts(0, 60, 100, 60), 0},
		{"corners touch", pts(50, 0, 50, 50, 100, 50), pts(0, 50, 50, 50, 50, 100), 0},
		{"merge onto one line", pts(0, 0, 50, 0, 50, 100, 80, 100), pts(0, 200, 50, 200, 50, 100, 80, 100), 0},
		// Run together down x=50 from y=0 to 100; part to the sides they came from.
		{"bundle, same sides", pts(0, 0, 50, 0, 50, 100, 0, 100), pts(100, 0, 50, 0, 50, 100, 100, 100), 0},
		{"bundle, other sides", pts(0, 0, 50, 0, 50, 100, 100, 100), pts(100, 0, 50, 0, 50, 100, 0, 100), 1},
		{"bundle, one goes on", pts(0, 0, 50, 0, 50, 200), pts(100, 0, 50, 0, 50, 100, 0, 100), 1},
		{"bundle, the other way", pts(0, 0, 50, 0, 50, 100, 100, 100), pts(0, 100, 50, 100, 50, 0, 100, 0), 1},
		{"turn into a passing route", pts(0, 0, 50, 0, 50, 100), pts(50, 50, 50, 150), 0},
	} {
		if got := crossings(tc.p, tc.q); got != tc.want {
			t.Errorf("%s: %d crossings, want %d", tc.name, got, tc.want)
		}
		if got := crossings(tc.q, tc.p); got != tc.want {
			t.Errorf("%s, swapped: %d crossings, want %d", tc.name, got, tc.want)
		}
	}
}

// TestLarge routes a thousand boxes laid out in layers and checks every
// promise there too.
func TestLarge(t *testing.T) {
	p := cut(layeredPlacement(1000, 40, 60, 12), 1500)
	paths := routeOK(t, p, Options{})
	bends, relaxed := 0, 0
	for _, q := range paths {
		bends += len(q.Points) - 2
		if q.Clearance < DefaultClearance || q.Blocked {
			relaxed++
		}
	}
	t.Logf("%d boxes, %d edges: %d bends, %d with less clearance", len(p.boxes), len(p.edges), bends, relaxed)
}

func TestAlongAndFixedPoint(t *testing.T) {
	b := geom.R(10, 20, 110, 60)
	for _, tc := range []struct {
		s    Side
		at   float64
		want geom.Vec
		fp   [2]float64
	}{
		{Top, 0.25, geom.V(35, 20), [2]float64{0.25, 0}},
		{Bottom, 0.5, geom.V(60, 60), [2]float64{0.5, 1}},
		{Left, 0.75, geom.V(10, 50), [2]float64{0, 0.75}},
		{Right, 0, geom.V(110, 20), [2]float64{1, 0}},
	} {
		if got := Along(b, tc.s, tc.at); !got.Equal(tc.want) {
			t.Errorf("Along(%v, %v) = %v, want %v", tc.s, tc.at, got, tc.want)
		}
		fp := tc.s.FixedPoint(tc.at)
		if fp != tc.fp {
			t.Errorf("%v.FixedPoint(%v) = %v, want %v", tc.s, tc.at, fp, tc.fp)
		}
		// The fixed point is the same place, as fractions of the box.
		if p := geom.V(b.MinX+fp[0]*b.W(), b.MinY+fp[1]*b.H()); !p.Equal(tc.want) {
			t.Errorf("%v.FixedPoint(%v) is %v, want %v", tc.s, tc.at, p, tc.want)
		}
	}
}

// TestCorners: ends on a box with rounded corners stay on the straight
// part of its sides (within the quarter-side cap), so Excalidraw's
// outline there is the box's own, and the routes stay sound.
func TestCorners(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    placement
	}{
		{"layered 30", layeredPlacement(30, 60, 70, 3)},
		{"grid 4x5", gridPlacement(4, 5, 1)},
		{"random 40", randomPlacement(40, 60, 60, 5)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			corners := map[string]float64{}
			for id, b := range tc.p.boxes {
				corners[id] = min(32, 0.25*min(b.W(), b.H()))
			}
			o := Options{Corners: corners}
			paths := routeOK(t, tc.p, o)
			ends := 0
			for i, p := range paths {
				e := tc.p.edges[i]
				for _, end := range []struct {
					box  string
					side Side
					at   geom.Vec
				}{{e.From, p.FromSide, p.Points[0]}, {e.To, p.ToSide, p.Points[len(p.Points)-1]}} {
					b := tc.p.boxes[end.box]
					lo, hi, v := b.MinY, b.MaxY, end.at.Y
					if end.side.horizontal() {
						lo, hi, v = b.MinX, b.MaxX, end.at.X
					}
					want := min(corners[end.box], (hi-lo)/4)
					if v < lo+want-1e-6 || v > hi-want+1e-6 {
						t.Errorf("path %s: end at %v on %s of %s is within %v of a corner", p.ID, end.at, end.side, end.box, want)
					}
					ends++
				}
			}
			if ends == 0 {
				t.Fatal("no ends checked")
			}
		})
	}
}

// TestRegions: a route keeps out of a region it is not within (a group
// between its ends), and goes through one it is within.
func TestRegions(t *testing.T) {
	boxes := map[string]geom.Rect{
		"a": geom.R(0, 0, 100, 50), "b": geom.R(0, 200, 100, 250), "c": geom.R(0, 400, 100, 450),
	}
	group := geom.R(-20, 180, 300, 270) // holds b, wide to the right
	edges := []Edge{{ID: "ac", From: "a", To: "c", FromSide: Bottom, ToSide: Top, Within: nil}}
	enters := func(pts []geom.Vec) bool {
		for _, p := range pts {
			if inside(group, p) {
				return true
			}
		}
		for k := 1; k < len(pts); k++ {
			lo, hi := geom.V(min(pts[k-1].X, pts[k].X), min(pts[k-1].Y, pts[k].Y)), geom.V(max(pts[k-1].X, pts[k].X), max(pts[k-1].Y, pts[k].Y))
			if lo.X < group.MaxX && hi.X > group.MinX && lo.Y < group.MaxY && hi.Y > group.MinY {
				return true
			}
		}
		return false
	}
	paths, err := Route(boxes, edges, Options{Regions: map[string]geom.Rect{"g": group}})
	if err != nil {
		t.Fatal(err)
	}
	if enters(paths[0].Points) {
		t.Errorf("a→c enters the group it is not within: %v", paths[0].Points)
	}
	edges[0].Within = []string{"g"}
	paths, err = Route(boxes, edges, Options{Regions: map[string]geom.Rect{"g": group}})
	if err != nil {
		t.Fatal(err)
	}
	if !enters(paths[0].Points) {
		t.Errorf("a→c within the group goes round it: %v", paths[0].Points)
	}
	if _, err := Route(boxes, edges, Options{Regions: map[string]geom.Rect{"g": geom.R(0, 0, math.NaN(), 1)}}); err == nil {
		t.Error("a region that is not finite is taken")
	}
}

// TestTips: every end on a box of Options.Tips is at the middle of a
// side, however many edges meet it.
func TestTips(t *testing.T) {
	p := layeredPlacement(30, 60, 70, 3)
	tips := map[string]bool{}
	for id := range p.boxes {
		tips[id] = true
	}
	paths, err := Route(p.boxes, p.edges, Options{Tips: tips})
	if err != nil {
		t.Fatal(err)
	}
	for _, pr := range check(p.boxes, p.edges, paths) {
		// Ends may share a tip, a box has four, and then their last
		// stretches run together into it.
		if !strings.Contains(pr, "end at one point") && !strings.Contains(pr, "overlap on a line") {
			t.Error(pr)
		}
	}
	for _, path := range paths {
		for _, at := range []float64{path.FromAt, path.ToAt} {
			if math.Abs(at-0.5) > 1e-9 {
				t.Errorf("path %s ends at %v along a side, not its middle", path.ID, at)
			}
		}
	}
}
