package route

import (
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
