package editor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The diagrams create_diagram draws are elbow arrows bound at both ends
// by fixedPoint, with fixedSegments listing every inner segment: when a
// person drags a box in the real editor, the editor keeps the route's
// middle and re-routes only the two ends. These tests drag a box of a
// drawn diagram with the mouse in Chromium, save, and check the saved
// file: every arrow still bound at both ends (to live elements that list
// it), still orthogonal, and through no box it does not connect.

// smallFlow is a left-to-right flow: seven nodes, a group, two labels.
func smallFlow(name string) map[string]any {
	return map[string]any{"name": name, "direction": "LR",
		"nodes": []any{
			map[string]any{"id": "req", "label": "Request", "shape": "rounded"},
			map[string]any{"id": "parse", "label": "Parse"},
			map[string]any{"id": "ok", "label": "Valid?", "shape": "diamond"},
			map[string]any{"id": "handle", "label": "Handle", "group": "svc"},
			map[string]any{"id": "store", "label": "Store", "shape": "cylinder", "role": "database", "group": "svc"},
			map[string]any{"id": "reply", "label": "Reply"},
			map[string]any{"id": "reject", "label": "Reject", "role": "warning"},
		},
		"edges": []any{
			map[string]any{"from": "req", "to": "parse"},
			map[string]any{"from": "parse", "to": "ok"},
			map[string]any{"from": "ok", "to": "handle", "label": "yes"},
			map[string]any{"from": "ok", "to": "reject", "label": "no"},
			map[string]any{"from": "handle", "to": "store"},
			map[string]any{"from": "handle", "to": "reply"},
			map[string]any{"from": "reject", "to": "reply", "line": "dashed"},
		},
		"groups": []any{map[string]any{"id": "svc", "label": "Service"}},
	}
}

// architecture is draw_test.go's architecture(): 15 nodes, 15 edges,
// three groups.
func architecture(name string) map[string]any {
	var d map[string]any
	if err := json.Unmarshal([]byte(`{"direction":"LR",
		"groups":[{"id":"edge","label":"Edge"},{"id":"core","label":"Core services"},{"id":"data","label":"Data"}],
		"nodes":[
			{"id":"user","label":"User","role":"user","shape":"circle"},
			{"id":"cdn","label":"CDN","group":"edge"},
			{"id":"lb","label":"Load balancer","group":"edge"},
			{"id":"api","label":"API gateway","group":"core","role":"primary"},
			{"id":"auth","label":"Auth service","group":"core"},
			{"id":"orders","label":"Orders service","group":"core"},
			{"id":"billing","label":"Billing service","group":"core"},
			{"id":"search","label":"Search service","group":"core"},
			{"id":"queue","label":"Event queue","role":"queue","shape":"rounded"},
			{"id":"worker","label":"Worker"},
			{"id":"pg","label":"PostgreSQL","group":"data","role":"database","shape":"cylinder"},
			{"id":"redis","label":"Redis cache","group":"data","role":"database","shape":"cylinder"},
			{"id":"es","label":"Elasticsearch","group":"data","role":"database","shape":"cylinder"},
			{"id":"s3","label":"Object storage","group":"data","role":"storage"},
			{"id":"pay","label":"Payment provider","role":"external"}],
		"edges":[
			{"from":"user","to":"cdn","label":"HTTPS"},{"from":"cdn","to":"lb"},{"from":"lb","to":"api"},
			{"from":"api","to":"auth","label":"verify"},{"from":"api","to":"orders"},{"from":"api","to":"search"},
			{"from":"orders","to":"billing"},{"from":"orders","to":"pg"},{"from":"orders","to":"queue","label":"events","line":"dashed"},
			{"from":"queue","to":"worker"},{"from":"worker","to":"s3"},{"from":"billing","to":"pay","label":"charge"},
			{"from":"auth","to":"redis"},{"from":"search","to":"es"},{"from":"worker","to":"es","label":"index"}]}`), &d); err != nil {
		panic(err)
	}
	d["name"] = name
	return d
}

// TestPersonDragsDiagramBoxFlow: a middle node of a small drawn flow is
// dragged 120 px down; every arrow stays bound, orthogonal and off the
// boxes it does not connect.
func TestPersonDragsDiagramBoxFlow(t *testing.T) {
	w := newWorld(t)
	tab := w.drawDiagram("flow", smallFlow("flow"))
	before := w.diagramFile("flow")
	before.check(t, "as drawn")

	w.screenshot(tab, "before")
	w.dragNode(tab, before, "ok", 0, 120)
	w.screenshot(tab, "after")

	after := w.saveDiagram(tab, "flow")
	moved := after.node("ok")
	if d := moved.y() - before.node("ok").y(); math.Abs(d-120) > 2 {
		t.Fatalf("the drag moved the box %.1f px down, want 120", d)
	}
	after.logChanged(t, before)
	after.check(t, "after the drag")
}

// TestPersonDragsDiagramBoxArchitecture: a node of a 15-node
// architecture is dragged a modest distance into free space, found from
// the scene; every arrow stays bound, orthogonal and off the boxes it
// does not connect.
func TestPersonDragsDiagramBoxArchitecture(t *testing.T) {
	w := newWorld(t)
	tab := w.drawDiagram("arch", architecture("arch"))
	before := w.diagramFile("arch")
	before.check(t, "as drawn")

	key := "worker"
	dx, dy, ok := before.freeSpot(key, 60, 200)
	if !ok {
		t.Fatalf("no free place for %s within 200 px", key)
	}
	w.screenshot(tab, "before")
	w.dragNode(tab, before, key, dx, dy)
	w.screenshot(tab, "after")

	after := w.saveDiagram(tab, "arch")
	n0, n1 := before.node(key), after.node(key)
	if math.Abs(n1.x()-n0.x()-dx) > 2 || math.Abs(n1.y()-n0.y()-dy) > 2 {
		t.Fatalf("the drag moved the box by (%.1f, %.1f), want (%.1f, %.1f)", n1.x()-n0.x(), n1.y()-n0.y(), dx, dy)
	}
	after.logChanged(t, before)
	after.check(t, "after the drag")
}

// TestPersonDragsDiagramBoxAnywhere drags every node of the
// architecture 120 px up, down, left and right, one drag at a time from
// the drawing as made, and looks at what the editor did. What must hold
// after any drag is asserted: every arrow bound at both ends, ending at
// its boxes, orthogonal. Routes are not: the editor moves only the moved
// box's arrows, and re-routes only their two end segments, avoiding just
// the two boxes an arrow joins; a box dropped on another arrow's route,
// or an end re-routed through a neighbour, is logged (-v) and counted.
// Last, one drag that lands the box on another arrow's route is saved,
// and the file is checked the same way.
func TestPersonDragsDiagramBoxAnywhere(t *testing.T) {
	w := newWorld(t)
	tab := w.drawDiagram("any", architecture("any"))
	drawn := w.diagramFile("any")
	drawn.check(t, "as drawn")
	evalJS[bool](w, tab, `(window.dshDrawn = JSON.stringify(window.dshEditor.api.getSceneElementsIncludingDeleted()), true)`)

	type drag struct {
		key    string
		dx, dy float64
	}
	var (
		drags                             int
		landed, onBox, rerouted, foldings []string
		onRoute, throughEnd               *drag
	)
	for _, n := range drawn.boxes() {
		_, key, _ := n.part()
		for _, d := range [][2]float64{{0, 120}, {0, -120}, {120, 0}, {-120, 0}, {0, 240}, {0, -240}, {240, 0}, {-240, 0}} {
			if !w.boxStaysInView(tab, n, d[0], d[1]) {
				continue
			}
			w.dragNode(tab, drawn, key, d[0], d[1])
			drags++
			what := fmt.Sprintf("%s by (%+.0f, %+.0f)", key, d[0], d[1])
			r := n.rect()
			moved := [4]float64{r[0] + d[0], r[1] + d[1], r[2] + d[0], r[3] + d[1]}
			onOther := false
			for _, b := range drawn.boxes() {
				onOther = onOther || (b.id() != n.id() && overlaps(moved, b.rect()))
			}
			for _, f := range w.pageDiagram(tab).flaws() {
				a := drawn.byID[f.arrow]
				own := bindingID(a, "startBinding") == n.id() || bindingID(a, "endBinding") == n.id()
				switch {
				case f.kind == "folds":
					foldings = append(foldings, "fold: "+what+": "+f.text)
				case f.kind != "through":
					t.Errorf("after dragging %s: %s", what, f.text)
				case own && overlaps(moved, drawn.byID[f.box].rect()):
					// The box was dropped on another: its ends are in it.
					onBox = append(onBox, "into the box it was dropped on: "+what+": "+f.text)
				case !own && f.box == n.id():
					// The box was dropped on a route the editor leaves be.
					landed = append(landed, "under the dropped box: "+what+": "+f.text)
					if onRoute == nil && !onOther {
						onRoute = &drag{key, d[0], d[1]}
					}
				default:
					rerouted = append(rerouted, "re-routed end past a box: "+what+": "+f.text)
					if throughEnd == nil {
						throughEnd = &drag{key, d[0], d[1]}
					}
				}
			}
			w.restoreDrawn(tab, n)
		}
	}
	t.Logf("%d drags; segments through a box: %d of arrows under the dropped box, %d of its own arrows into a box it was dropped on, %d of its own arrows' re-routed ends past a box; %d folds",
		drags, len(landed), len(onBox), len(rerouted), len(foldings))
	for _, l := range [][]string{landed, onBox, rerouted, foldings} {
		for _, s := range l {
			t.Log(s)
		}
	}
	if drags < 30 {
		t.Fatalf("only %d drags kept their box in view", drags)
	}
	if onRoute == nil {
		t.Fatal("no drag landed a box on another arrow's route")
	}
	if throughEnd != nil {
		onRoute = throughEnd // the more telling one to save and look at
	}

	// One such drag, saved: the file holds what the editor showed.
	w.dragNode(tab, drawn, onRoute.key, onRoute.dx, onRoute.dy)
	w.screenshot(tab, "on a route")
	saved := w.saveDiagram(tab, "any")
	saved.logChanged(t, drawn)
	for _, f := range saved.flaws() {
		if f.kind == "through" || f.kind == "folds" {
			t.Logf("saved after dragging %s by (%+.0f, %+.0f): %s", onRoute.key, onRoute.dx, onRoute.dy, f.text)
			continue
		}
		t.Errorf("saved after dragging %s: %s", onRoute.key, f.text)
	}
}

// boxStaysInView reports whether the box, moved by (dx, dy), stays well
// inside the canvas.
func (w *world) boxStaysInView(tab context.Context, n sceneEl, dx, dy float64) bool {
	w.t.Helper()
	r := n.rect()
	return evalJS[bool](w, tab, fmt.Sprintf(`(() => {
		const a = window.dshEditor.api.getAppState(), z = a.zoom.value;
		const l = (%f + a.scrollX) * z, t = (%f + a.scrollY) * z, r = (%f + a.scrollX) * z, b = (%f + a.scrollY) * z;
		return l >= 20 && t >= 20 && r <= a.width - 20 && b <= a.height - 20;
	})()`, r[0]+dx, r[1]+dy, r[2]+dx, r[3]+dy))
}

// restoreDrawn puts the drawing back as it was drawn (stored in
// window.dshDrawn), nothing selected, and waits until the box is back.
func (w *world) restoreDrawn(tab context.Context, n sceneEl) {
	w.t.Helper()
	evalJS[bool](w, tab, `(() => {
		const {api, lib} = window.dshEditor;
		// As a new version of each element (as an undo makes one): the
		// board's room stores what rose, so the drawing goes back there too.
		const now = new Map(api.getSceneElementsIncludingDeleted().map(e => [e.id, e.version]));
		const els = JSON.parse(window.dshDrawn).map(e => ({...e, version: Math.max(e.version, now.get(e.id) || 0) + 1, versionNonce: Math.floor(Math.random() * 2 ** 31)}));
		api.updateScene({elements: els, appState: {selectedElementIds: {}}, captureUpdate: lib.CaptureUpdateAction.NEVER});
		return true;
	})()`)
	w.waitJS(tab, "the drawing restored", fmt.Sprintf(`(() => {
		const {api} = window.dshEditor;
		const e = api.getSceneElements().find(e => e.id === %q);
		return e.x === %v && e.y === %v && Object.keys(api.getAppState().selectedElementIds).length === 0;
	})()`, n.id(), n.x(), n.y()))
}

// drawDiagram creates a scene, has the agent draw the diagram into it
// with create_diagram, and opens it in the browser with the whole
// diagram in view.
func (w *world) drawDiagram(name string, args map[string]any) context.Context {
	w.t.Helper()
	w.tool("excalidraw_scene_create", map[string]any{"name": name})
	res := w.tool("create_diagram", args)
	if res["diagram"] == nil {
		w.t.Fatalf("create_diagram: %v", res)
	}
	tab := w.browser
	w.openScene(tab, name)
	evalJS[bool](w, tab, `document.fonts.ready.then(() => true)`)
	// Fit the whole diagram in the window, so every box is on screen.
	evalJS[bool](w, tab, `(() => {
		const {api} = window.dshEditor;
		api.scrollToContent(api.getSceneElements(), {fitToContent: true, animate: false});
		return true;
	})()`)
	w.waitJS(tab, "the diagram in view", `(() => {
		const {api} = window.dshEditor;
		const a = api.getAppState(), z = a.zoom.value;
		return api.getSceneElements().every(e => {
			const xs = e.points ? e.points.map(p => e.x + p[0]) : [e.x, e.x + e.width];
			const ys = e.points ? e.points.map(p => e.y + p[1]) : [e.y, e.y + e.height];
			const l = (Math.min(...xs) + a.scrollX) * z, r = (Math.max(...xs) + a.scrollX) * z;
			const t = (Math.min(...ys) + a.scrollY) * z, b = (Math.max(...ys) + a.scrollY) * z;
			return l >= -1 && t >= -1 && r <= a.width + 1 && b <= a.height + 1;
		});
	})()`)
	return tab
}

// dragNode drags the node's box by (dx, dy) scene px with the mouse,
// pressing inside it away from its label, in several moves as a hand
// does, and waits until the editor shows it there.
func (w *world) dragNode(tab context.Context, s *diagramScene, key string, dx, dy float64) {
	w.t.Helper()
	n := s.node(key)
	id := n.id()
	v := evalJS[map[string]float64](w, tab, fmt.Sprintf(`(() => {
		const {api} = window.dshEditor;
		const a = api.getAppState();
		const e = api.getSceneElements().find(e => e.id === %q);
		const z = a.zoom.value;
		return {x: (e.x + e.width / 2 + a.scrollX) * z + a.offsetLeft, y: (e.y + e.height / 2 + a.scrollY) * z + a.offsetTop, z};
	})()`, id))
	x, y, z := v["x"], v["y"], v["z"]
	// Nothing (a panel) over the box: the press lands on the canvas.
	w.waitJS(tab, "the canvas under the pointer at "+key, fmt.Sprintf(`(() => {
		const e = document.elementFromPoint(%f, %f);
		return e !== null && e.tagName === "CANVAS" && e.classList.contains("interactive");
	})()`, x, y))
	acts := []chromedp.Action[chromedp.Void]{chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1))}
	const steps = 6
	for i := 1; i <= steps; i++ {
		f := float64(i) / steps
		acts = append(acts, chromedp.MouseEvent(chromedp.MouseMoved, x+dx*z*f, y+dy*z*f, chromedp.ButtonLeft))
	}
	acts = append(acts, chromedp.MouseEvent(chromedp.MouseReleased, x+dx*z, y+dy*z, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	w.run(tab, acts...)
	w.waitJS(tab, "the drag to move "+key, fmt.Sprintf(`(() => {
		const e = window.dshEditor.api.getSceneElements().find(e => e.id === %q);
		return Math.abs(e.x - %f) <= 2 && Math.abs(e.y - %f) <= 2;
	})()`, id, n.x()+dx, n.y()+dy))
}

// saveDiagram presses Ctrl+S, waits for the save and reads the file. In
// the board's room the drag is stored as it is made (the press may find
// nothing left to save): saved, with nothing unacknowledged, is the drag
// on disk.
func (w *world) saveDiagram(tab context.Context, name string) *diagramScene {
	w.t.Helper()
	w.pressSave(tab)
	w.waitJS(tab, "the save", `(() => { const s = window.dshEditor.state(); return s.status === "saved" && !s.dirty && s.unacked === 0; })()`)
	return w.diagramFile(name)
}

// diagramScene is a saved scene's elements, by id.
type diagramScene struct {
	els  []sceneEl
	byID map[string]sceneEl
}

type sceneEl map[string]any

func (e sceneEl) id() string  { s, _ := e["id"].(string); return s }
func (e sceneEl) typ() string { s, _ := e["type"].(string); return s }
func (e sceneEl) num(k string) float64 {
	f, _ := e[k].(float64)
	return f
}
func (e sceneEl) x() float64    { return e.num("x") }
func (e sceneEl) y() float64    { return e.num("y") }
func (e sceneEl) deleted() bool { b, _ := e["isDeleted"].(bool); return b }

// part is the element's customData.dshDiagram: kind, key and piece.
func (e sceneEl) part() (kind, key, piece string) {
	cd, _ := e["customData"].(map[string]any)
	p, _ := cd["dshDiagram"].(map[string]any)
	kind, _ = p["kind"].(string)
	key, _ = p["key"].(string)
	piece, _ = p["piece"].(string)
	return
}

// rect is the element's box (diagrams draw no rotated boxes).
func (e sceneEl) rect() [4]float64 {
	return [4]float64{e.x(), e.y(), e.x() + e.num("width"), e.y() + e.num("height")}
}

// points are an arrow's points in scene coordinates.
func (e sceneEl) points() [][2]float64 {
	var out [][2]float64
	for _, p := range e["points"].([]any) {
		q := p.([]any)
		out = append(out, [2]float64{e.x() + q[0].(float64), e.y() + q[1].(float64)})
	}
	return out
}

func (w *world) diagramFile(name string) *diagramScene {
	w.t.Helper()
	var doc struct {
		Elements []sceneEl `json:"elements"`
	}
	if err := json.Unmarshal(w.sceneFile(name), &doc); err != nil {
		w.t.Fatal(err)
	}
	return newDiagramScene(doc.Elements)
}

// pageDiagram is the scene the editor shows.
func (w *world) pageDiagram(tab context.Context) *diagramScene {
	w.t.Helper()
	var els []sceneEl
	raw := evalJS[string](w, tab, `JSON.stringify(window.dshEditor.api.getSceneElementsIncludingDeleted())`)
	if err := json.Unmarshal([]byte(raw), &els); err != nil {
		w.t.Fatal(err)
	}
	return newDiagramScene(els)
}

func newDiagramScene(els []sceneEl) *diagramScene {
	s := &diagramScene{byID: map[string]sceneEl{}}
	for _, e := range els {
		if e.deleted() {
			continue
		}
		s.els = append(s.els, e)
		s.byID[e.id()] = e
	}
	return s
}

// node is the box of the diagram's node key.
func (s *diagramScene) node(key string) sceneEl {
	for _, e := range s.els {
		if k, ky, p := e.part(); k == "node" && ky == key && p == "" {
			return e
		}
	}
	panic("no node " + key)
}

// boxes are the node boxes, the obstacles arrows keep out of.
func (s *diagramScene) boxes() []sceneEl {
	var out []sceneEl
	for _, e := range s.els {
		if k, _, p := e.part(); k == "node" && p == "" && slices.Contains([]string{"rectangle", "ellipse", "diamond"}, e.typ()) {
			out = append(out, e)
		}
	}
	return out
}

// arrows are the diagram's edges.
func (s *diagramScene) arrows() []sceneEl {
	var out []sceneEl
	for _, e := range s.els {
		if k, _, p := e.part(); k == "edge" && p == "" && e.typ() == "arrow" {
			out = append(out, e)
		}
	}
	return out
}

// freeSpot is an offset of at least min and at most max px (down, up,
// right or left first, then diagonals) that puts the node's box, with a
// margin, clear of every other element and every arrow's segments.
func (s *diagramScene) freeSpot(key string, min, max float64) (float64, float64, bool) {
	n := s.node(key)
	r := n.rect()
	const margin = 30
	var others [][4]float64
	for _, e := range s.els {
		if e.id() == n.id() || e["containerId"] == n.id() {
			continue
		}
		if e.typ() == "arrow" {
			continue
		}
		if k, _, _ := e.part(); k == "group" && e.typ() == "rectangle" {
			continue // a background: a box may move over it
		}
		others = append(others, e.rect())
	}
	clear := func(dx, dy float64) bool {
		m := [4]float64{r[0] + dx - margin, r[1] + dy - margin, r[2] + dx + margin, r[3] + dy + margin}
		for _, o := range others {
			if o[0] < m[2] && m[0] < o[2] && o[1] < m[3] && m[1] < o[3] {
				return false
			}
		}
		// Arrows not its own: the moved box may not land on their routes.
		for _, a := range s.arrows() {
			if bindingID(a, "startBinding") == n.id() || bindingID(a, "endBinding") == n.id() {
				continue
			}
			pts := a.points()
			for i := 1; i < len(pts); i++ {
				if segmentEnters(pts[i-1], pts[i], m, 0) {
					return false
				}
			}
		}
		return true
	}
	for d := min; d <= max; d += 10 {
		for _, v := range [][2]float64{{0, d}, {0, -d}, {d, 0}, {-d, 0}, {d, d}, {-d, d}, {d, -d}, {-d, -d}} {
			if clear(v[0], v[1]) {
				return v[0], v[1], true
			}
		}
	}
	return 0, 0, false
}

func bindingID(a sceneEl, k string) string {
	b, _ := a[k].(map[string]any)
	id, _ := b["elementId"].(string)
	return id
}

func overlaps(a, b [4]float64) bool {
	return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

// segmentEnters reports whether the axis-aligned segment p–q enters the
// interior of r shrunk by inset.
func segmentEnters(p, q [2]float64, r [4]float64, inset float64) bool {
	minX, minY, maxX, maxY := r[0]+inset, r[1]+inset, r[2]-inset, r[3]-inset
	sx0, sx1 := math.Min(p[0], q[0]), math.Max(p[0], q[0])
	sy0, sy1 := math.Min(p[1], q[1]), math.Max(p[1], q[1])
	return sx0 < maxX && sx1 > minX && sy0 < maxY && sy1 > minY
}

// A flaw is what is wrong with one arrow of a scene.
type flaw struct {
	kind  string // "unbound", "diagonal", "through" (a node box not its own) or "folds" (a segment doubles back)
	arrow string // the arrow's id
	box   string // for "through": the box's id
	text  string
}

// flaws lists what is wrong with the scene's arrows: each should be an
// elbow arrow bound at both ends to live elements that list it, ending
// at those boxes, orthogonal, and through no node box but its own two.
// A segment that doubles back over the one before is listed as "folds":
// harmless to the checks above, but worth knowing.
func (s *diagramScene) flaws() []flaw {
	var out []flaw
	for _, a := range s.arrows() {
		_, key, _ := a.part()
		name := fmt.Sprintf("arrow %s (edge %s)", a.id(), key)
		add := func(kind, box, format string, args ...any) {
			out = append(out, flaw{kind: kind, arrow: a.id(), box: box, text: name + ": " + fmt.Sprintf(format, args...)})
		}
		if a["elbowed"] != true {
			add("diagonal", "", "is not elbowed")
		}
		pts := a.points()
		ends := map[string]bool{}
		for i, k := range []string{"startBinding", "endBinding"} {
			id := bindingID(a, k)
			target, ok := s.byID[id]
			if !ok {
				add("unbound", "", "%s names %q, no live element: %v", k, id, a[k])
				continue
			}
			ends[id] = true
			listed := false
			for _, b := range asAnyList(target["boundElements"]) {
				if m, _ := b.(map[string]any); m["id"] == a.id() {
					listed = true
				}
			}
			if !listed {
				add("unbound", "", "its %s %s does not list it in boundElements: %v", k, id, target["boundElements"])
			}
			// The end lies at the box (5 px out, as elbow ends do).
			end := pts[0]
			if i == 1 {
				end = pts[len(pts)-1]
			}
			r := target.rect()
			ddx := math.Max(math.Max(r[0]-end[0], 0), end[0]-r[2])
			ddy := math.Max(math.Max(r[1]-end[1], 0), end[1]-r[3])
			if d := math.Hypot(ddx, ddy); d > 12 {
				add("unbound", "", "its %s end %v is %.1f px from %s", k, end, d, id)
			}
		}
		for i := 1; i < len(pts); i++ {
			if math.Abs(pts[i][0]-pts[i-1][0]) > 1 && math.Abs(pts[i][1]-pts[i-1][1]) > 1 {
				add("diagonal", "", "segment %d %v→%v is diagonal; points %v", i, pts[i-1], pts[i], a["points"])
			}
			if i >= 2 {
				u := [2]float64{pts[i-1][0] - pts[i-2][0], pts[i-1][1] - pts[i-2][1]}
				v := [2]float64{pts[i][0] - pts[i-1][0], pts[i][1] - pts[i-1][1]}
				if u[0]*v[0]+u[1]*v[1] < -1 {
					add("folds", "", "segment %d %v→%v doubles back over segment %d", i, pts[i-1], pts[i], i-1)
				}
			}
		}
		for _, b := range s.boxes() {
			if ends[b.id()] {
				continue
			}
			for i := 1; i < len(pts); i++ {
				if segmentEnters(pts[i-1], pts[i], b.rect(), 1) {
					_, bk, _ := b.part()
					add("through", b.id(), "segment %d %v→%v passes through node %s %v", i, pts[i-1], pts[i], bk, b.rect())
				}
			}
		}
	}
	return out
}

// check fails the test on any flaw but a fold, which it logs.
func (s *diagramScene) check(t *testing.T, when string) {
	t.Helper()
	if len(s.arrows()) == 0 {
		t.Fatalf("%s: no arrows", when)
	}
	for _, f := range s.flaws() {
		if f.kind == "folds" {
			t.Logf("%s: %s", when, f.text)
			continue
		}
		t.Errorf("%s: %s", when, f.text)
	}
}

// logChanged logs each arrow whose route the editor changed: points,
// fixedSegments and bindings before and after.
func (s *diagramScene) logChanged(t *testing.T, before *diagramScene) {
	t.Helper()
	for _, a := range s.arrows() {
		b := before.byID[a.id()]
		pa, pb := fmt.Sprint(a.points()), fmt.Sprint(b.points())
		if pa == pb {
			continue
		}
		_, key, _ := a.part()
		t.Logf("edge %s re-routed:\n  before points %s fixedSegments %s start %s end %s\n  after  points %s fixedSegments %s start %s end %s",
			key, pb, js(b["fixedSegments"]), js(b["startBinding"]), js(b["endBinding"]),
			pa, js(a["fixedSegments"]), js(a["startBinding"]), js(a["endBinding"]))
	}
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return strings.TrimSpace(string(b))
}

func asAnyList(v any) []any {
	l, _ := v.([]any)
	return l
}
