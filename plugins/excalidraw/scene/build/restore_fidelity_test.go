package build

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/dshgo/dsh/internal/e2e/restorecheck"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// recomputedByRestore lists fields that restore is allowed to change, with
// the reason. It is empty: the builder writes exactly what restore
// returns. A field listed here is skipped when comparing.
var recomputedByRestore = map[string]string{}

// requireRestoreHelper returns the node binary for the restore harness
// (see internal/e2e/restorecheck).
func requireRestoreHelper(t *testing.T) string { return restorecheck.Require(t) }

// runRestore pipes elements through Excalidraw's restoreElements.
func runRestore(t *testing.T, node string, elements []*ojson.Object, args ...string) []*ojson.Object {
	t.Helper()
	in, err := ojson.Marshal(toAny(elements))
	if err != nil {
		t.Fatal(err)
	}
	out := restorecheck.Run(t, node, "restore.mjs", in, args...)
	v, err := ojson.Decode(out, ojson.Limits{})
	if err != nil {
		t.Fatalf("restore output: %v", err)
	}
	arr, _ := v.([]any)
	restored := make([]*ojson.Object, len(arr))
	for i, e := range arr {
		restored[i] = e.(*ojson.Object)
	}
	return restored
}

func toAny(els []*ojson.Object) []any {
	out := make([]any, len(els))
	for i, e := range els {
		out[i] = e
	}
	return out
}

// fidelityScene builds, in two calls, a scene with every type, labels in
// three shapes, bound arrows (routed, snapped, to existing elements and
// to text and images), lines, freedraw, text in several fonts and an
// image. It returns the whole scene in array order.
func fidelityScene(t *testing.T) []*ojson.Object {
	t.Helper()
	ctx := testContext()
	first := mustBuild(t, ctx,
		`{"type":"rectangle","id":"old-box","x":-400,"y":-300,"width":160,"height":90,"backgroundColor":"#a5d8ff","fillStyle":"hachure"}`,
		`{"type":"text","id":"old-note","x":-400,"y":-120,"text":"existing note","fontFamily":"virgil"}`,
	)
	ctx.Existing = first.Elements
	second := mustBuild(t, ctx,
		`{"type":"rectangle","id":"r","x":0,"y":0,"width":220,"height":100,"label":{"text":"A rectangle with a label long enough to wrap twice"}}`,
		`{"type":"ellipse","id":"e","x":420,"y":-40,"label":{"text":"Ellipse","fontFamily":"nunito","fontSize":28}}`,
		`{"type":"diamond","id":"d","x":180,"y":260,"width":180,"height":120,"angle":0.3,"label":{"text":"Decide?","textAlign":"left","verticalAlign":"top"}}`,
		`{"type":"rectangle","id":"sharp","x":700,"y":300,"width":120,"height":60,"roundness":"sharp","strokeStyle":"dashed","opacity":60}`,
		`{"type":"arrow","id":"a1","startElementId":"r","endElementId":"e","label":{"text":"routes"}}`,
		`{"type":"arrow","id":"a2","x":110,"y":130,"points":[[0,0],[0,80],[120,190]],"startElementId":"r","endElementId":"d","endArrowhead":"triangle","startArrowhead":"bar"}`,
		`{"type":"arrow","id":"a3","startElementId":"d","endElementId":"old-box"}`,
		`{"type":"arrow","id":"a4","x":600,"y":200,"width":100,"height":100,"startElementId":"e","endElementId":"sharp","roundness":"sharp"}`,
		`{"type":"arrow","id":"a5","startElementId":"old-note","endElementId":"img"}`,
		`{"type":"arrow","id":"a6","x":-200,"y":400,"width":150,"height":-40,"startArrowhead":"circle","endArrowhead":null}`,
		`{"type":"line","id":"l1","x":-300,"y":500,"points":[[10,10],[60,-20],[120,40],[10,10]],"backgroundColor":"#ffec99"}`,
		`{"type":"line","id":"l2","x":-300,"y":600,"width":200,"height":0,"roundness":"sharp","strokeWidth":4}`,
		`{"type":"freedraw","id":"f1","x":100,"y":600,"points":[[0,0],[3,2],[8,5],[15,4],[20,-1]]}`,
		`{"type":"freedraw","id":"f2","x":200,"y":600,"points":[[5,5],[6,8],[9,12]],"pressures":[0.2,0.5,0.9]}`,
		`{"type":"text","id":"t1","x":0,"y":800,"text":"Excalifont default"}`,
		`{"type":"text","id":"t2","x":300,"y":800,"text":"Helvetica\ncentred","fontFamily":2,"textAlign":"center","fontSize":16}`,
		`{"type":"text","id":"t3","x":600,"y":800,"text":"Cascadia code\twith a tab","fontFamily":"cascadia","verticalAlign":"middle"}`,
		`{"type":"text","id":"t4","x":0,"y":900,"text":"Lilita One, Comic Shanns and Liberation Sans fixed width","fontFamily":"lilita-one","width":150}`,
		`{"type":"text","id":"t5","x":300,"y":900,"text":"Comic Shanns","fontFamily":8,"textAlign":"right","strokeColor":"#e03131"}`,
		`{"type":"text","id":"t6","x":600,"y":900,"text":"Liberation Sans","fontFamily":9,"link":"https://excalidraw.com","locked":true}`,
		// Text outside Excalidraw's fonts, marked for the editor to re-measure.
		`{"type":"text","id":"t7","x":0,"y":1000,"text":"مرحبا Γειά नमस्ते 😀","fontFamily":"nunito"}`,
		`{"type":"rectangle","id":"r7","x":300,"y":1000,"width":160,"height":80,"label":{"text":"שלום עולם"}}`,
		`{"type":"image","id":"img","x":900,"y":-200,"width":120,"height":80,"fileId":"file-1","scale":[-1,1]}`,
		`{"type":"ellipse","id":"grouped","x":900,"y":100,"width":80,"height":80,"groupIds":["g1"],"label":{"text":"in a group"}}`,
		// Elbow arrows: routed around the shapes, and along given points.
		`{"type":"arrow","id":"a7","elbowed":true,"startElementId":"sharp","endElementId":"r7","label":{"text":"elbow"}}`,
		`{"type":"arrow","id":"a8","elbowed":true,"x":820,"y":330,"points":[[0,0],[60,0],[60,-250],[120,-250],[120,-220]],"startElementId":"sharp","endElementId":"grouped"}`,
		`{"type":"arrow","id":"a9","elbowed":true,"x":-300,"y":700,"points":[[0,0],[100,0.4],[100,50]]}`,
	)
	scene := append([]*ojson.Object{}, first.Elements...)
	for i, el := range scene {
		id, _ := el.String("id")
		for _, u := range second.Updated {
			if uid, _ := u.String("id"); uid == id {
				scene[i] = u
			}
		}
	}
	return append(scene, second.Elements...)
}

func TestRestoreFidelity(t *testing.T) {
	node := requireRestoreHelper(t)
	scene := fidelityScene(t)
	for _, mode := range [][]string{nil, {"--repair-bindings"}} {
		t.Run(fmt.Sprintf("restore%v", mode), func(t *testing.T) {
			restored := runRestore(t, node, scene, mode...)
			if len(restored) != len(scene) {
				t.Fatalf("restore returned %d elements for %d", len(restored), len(scene))
			}
			for i := range scene {
				if diffs := diffElements(scene[i], restored[i]); len(diffs) > 0 {
					id, _ := scene[i].String("id")
					t.Errorf("element %d (%s) changed by restore:\n  %s", i, id, joinLines(diffs))
				}
			}
		})
	}
}

// diffElements lists how restore changed an element: members added,
// removed, reordered or changed, except recomputedByRestore.
func diffElements(want, got *ojson.Object) []string {
	var diffs []string
	wk, gk := filterKeys(want.Keys()), filterKeys(got.Keys())
	if fmt.Sprint(wk) != fmt.Sprint(gk) {
		diffs = append(diffs, fmt.Sprintf("keys %v\n     became %v", wk, gk))
	}
	for _, k := range wk {
		wv, _ := want.Get(k)
		gv, ok := got.Get(k)
		if !ok {
			continue
		}
		if !sameJSON(wv, gv) {
			diffs = append(diffs, fmt.Sprintf("%s: %s became %s", k, compact(wv), compact(gv)))
		}
	}
	return diffs
}

func filterKeys(keys []string) []string {
	var out []string
	for _, k := range keys {
		if _, skip := recomputedByRestore[k]; !skip {
			out = append(out, k)
		}
	}
	return out
}

// sameJSON compares JSON values; numbers by value, objects by members in
// order.
func sameJSON(a, b any) bool { return ojson.Equal(a, b, true) }

func compact(v any) string {
	b, err := ojson.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func joinLines(lines []string) string {
	var b bytes.Buffer
	for i, l := range lines {
		if i > 0 {
			b.WriteString("\n  ")
		}
		b.WriteString(l)
	}
	return b.String()
}

// The comparison must see restore's repairs, or a pass means nothing:
// elements written the way newElement writes them (boundElements null,
// points not starting at the origin, no elbowed) come back changed.
func TestRestoreFidelityDetectsRepairs(t *testing.T) {
	node := requireRestoreHelper(t)
	res := mustBuild(t, testContext(),
		`{"type":"rectangle","x":0,"y":0}`,
		`{"type":"arrow","x":0,"y":0,"points":[[0,0],[10,10]]}`,
	)
	rect, arrow := res.Elements[0], res.Elements[1]
	rect.Set("boundElements", nil)
	arrow.Set("points", []any{[]any{5, 5}, []any{10, 10}})
	arrow.Delete("elbowed")
	restored := runRestore(t, node, res.Elements)
	if len(diffElements(rect, restored[0])) == 0 {
		t.Error("boundElements null -> [] went unnoticed")
	}
	if len(diffElements(arrow, restored[1])) < 2 {
		t.Errorf("arrow repairs went unnoticed: %v", diffElements(arrow, restored[1]))
	}
}
