package query

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene"
)

// Each field alone: a positive and a negative case.
func TestSelectFields(t *testing.T) {
	all := fixture(t)
	live := []string{"a", "la", "b", "lb", "c", "e1", "le1", "e2", "e3", "l1", "t", "f"}
	cases := []struct {
		name string
		tg   Target
		want []string
	}{
		{"zero value: every live element", Target{}, live},
		{"ids, in scene order", Target{IDs: []string{"c", "a", "nope"}}, []string{"a", "c"}},
		{"ids: none", Target{IDs: []string{"nope"}}, nil},
		{"ids: a tombstone needs include_deleted", Target{IDs: []string{"gone"}}, nil},
		{"frame_ids", Target{FrameIDs: []string{"f"}}, []string{"b", "lb"}},
		{"frame_ids: another frame", Target{FrameIDs: []string{"zz"}}, nil},
		{"frame_name, any case", Target{FrameName: "backend"}, []string{"b", "lb"}},
		{"frame_name: none", Target{FrameName: "Frontend"}, nil},
		{"frame_name and frame_ids must agree", Target{FrameName: "Backend", FrameIDs: []string{"zz"}}, nil},
		{"group_id", Target{GroupID: "g1"}, []string{"a", "la"}},
		{"group_id: none", Target{GroupID: "g2"}, nil},
		{"types", Target{Types: []string{"ellipse", "frame"}}, []string{"c", "f"}},
		{"types: none of them", Target{Types: []string{"image"}}, nil},
		{"role container", Target{Role: RoleContainer}, []string{"a", "b"}},
		{"role label", Target{Role: RoleLabel}, []string{"la", "lb", "le1"}},
		{"role connector", Target{Role: RoleConnector}, []string{"e1", "e2"}},
		{"role standalone", Target{Role: RoleStandalone}, []string{"c", "e3", "l1", "t"}},
		{"role frame", Target{Role: RoleFrame}, []string{"f"}},
		{"text_contains: text, container label, arrow label, frame name", Target{TextContains: "e"}, []string{"a", "la", "b", "lb", "t", "f"}},
		{"text_contains ignores case", Target{TextContains: "CALLS"}, []string{"e1", "le1"}},
		{"text_contains: originalText, not the wrapped text", Target{TextContains: "about the"}, []string{"t"}},
		{"text_contains: none", Target{TextContains: "database"}, nil},
		{"text_regex", Target{TextRegex: `^(Client|Server)$`}, []string{"a", "la", "b", "lb"}},
		{"text_regex case-sensitive by default", Target{TextRegex: `^client$`}, nil},
		{"text_regex (?i)", Target{TextRegex: `(?i)^client$`}, []string{"a", "la"}},
		{"has_link true", Target{HasLink: ptr(true)}, []string{"t"}},
		{"has_link false", Target{HasLink: ptr(false)}, []string{"a", "la", "b", "lb", "c", "e1", "le1", "e2", "e3", "l1", "f"}},
		{"changed ids", Target{ChangedIDs: map[string]bool{"c": true, "t": true, "a": false}}, []string{"c", "t"}},
		{"changed ids: empty map selects nothing", Target{ChangedIDs: map[string]bool{}}, nil},
		{"include_deleted", Target{IncludeDeleted: true, Types: []string{"rectangle"}}, []string{"a", "b", "gone"}},
		{"region intersects (default)", Target{Region: &Region{X: 90, Y: 20, Width: 20, Height: 10}}, []string{"a", "e1"}},
		{"region touching an edge intersects", Target{Region: &Region{X: 440, Y: 80, Width: 5, Height: 5}}, []string{"e2", "f"}},
		{"region contains", Target{Region: &Region{X: -1, Y: -1, Width: 102, Height: 52, Mode: ModeContains}}, []string{"a", "la"}},
		{"region: nothing there", Target{Region: &Region{X: 5000, Y: 5000, Width: 10, Height: 10}}, nil},
	}
	for _, c := range cases {
		wantIDs(t, c.name, selectIDs(t, all, c.tg), c.want...)
	}
}

// Every field given must match.
func TestSelectAND(t *testing.T) {
	all := fixture(t)
	wantIDs(t, "type and text", selectIDs(t, all, Target{Types: []string{"text"}, TextContains: "client"}), "la")
	wantIDs(t, "role and text", selectIDs(t, all, Target{Role: RoleContainer, TextContains: "client"}), "a")
	wantIDs(t, "frame and role", selectIDs(t, all, Target{FrameIDs: []string{"f"}, Role: RoleLabel}), "lb")
	wantIDs(t, "group and frame: disjoint", selectIDs(t, all, Target{GroupID: "g1", FrameIDs: []string{"f"}}))
	wantIDs(t, "ids and type", selectIDs(t, all, Target{IDs: []string{"a", "c", "e1"}, Types: []string{"arrow", "ellipse"}}), "c", "e1")
	wantIDs(t, "floating arrows", selectIDs(t, all, Target{Types: []string{"arrow"}, Role: RoleStandalone}), "e3")
	wantIDs(t, "region and regex", selectIDs(t, all, Target{Region: &Region{X: 0, Y: 0, Width: 400, Height: 60}, TextRegex: "^S"}), "b", "lb")
	wantIDs(t, "changed and link", selectIDs(t, all, Target{ChangedIDs: map[string]bool{"t": true, "c": true}, HasLink: ptr(false)}), "c")
	wantIDs(t, "deleted and ids", selectIDs(t, all, Target{IncludeDeleted: true, IDs: []string{"gone", "a"}}), "a", "gone")
}

func TestSelectRegexBounds(t *testing.T) {
	all := fixture(t)
	ok := strings.Repeat("a", MaxRegexLength)
	if _, err := Select(all, Target{TextRegex: ok}); err != nil {
		t.Fatalf("a %d-byte pattern is allowed: %v", MaxRegexLength, err)
	}
	se := wantInvalid(t, Target{TextRegex: ok + "a"}.Check(), "/text_regex")
	if se.Details["max"] != MaxRegexLength || se.Details["actual"] != MaxRegexLength+1 {
		t.Fatalf("details %v", se.Details)
	}
	for _, bad := range []string{`(unclosed`, `a**`, `[z-a]`, `(?<name`, `\8`} {
		_, err := Select(all, Target{TextRegex: bad})
		se := wantInvalid(t, err, "/text_regex")
		if !strings.Contains(se.Message, "RE2") || strings.Contains(se.Message, "error parsing regexp") {
			t.Errorf("%s: %s", bad, se.Message)
		}
	}
	// Backtracking bombs are linear in RE2: this returns at once.
	long := strings.Repeat("a", 100000)
	bomb := elements(t, `[{"id":"x","type":"text","x":0,"y":0,"width":1,"height":1,"text":"`+long+`"}]`)
	wantIDs(t, "bomb", selectIDs(t, bomb, Target{TextRegex: `(a+)+$b`}))
}

func TestTargetCheck(t *testing.T) {
	if err := (Target{}).Check(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		tg      Target
		pointer string
	}{
		{Target{Types: []string{"rectangle", "rect"}}, "/types/1"},
		{Target{Role: "shape"}, "/role"},
		{Target{Region: &Region{Width: -1}}, "/region/width"},
		{Target{Region: &Region{Height: -1}}, "/region/height"},
		{Target{Region: &Region{X: math.NaN()}}, "/region/x"},
		{Target{Region: &Region{Y: math.Inf(1)}}, "/region/y"},
		{Target{Region: &Region{Mode: "inside"}}, "/region/mode"},
		{Target{TextRegex: "("}, "/text_regex"},
	}
	for _, c := range cases {
		wantInvalid(t, c.tg.Check(), c.pointer)
		if _, err := Select(fixture(t), c.tg); err == nil {
			t.Errorf("Select accepted %+v", c.tg)
		}
	}
	se := wantInvalid(t, Target{Types: []string{"rect"}}.Check(), "/types/0")
	if !strings.Contains(se.Message, "rectangle") {
		t.Errorf("the message should list the types: %s", se.Message)
	}
}

// Roles: one per live element, by the documented rules.
func TestRoles(t *testing.T) {
	all := elements(t, `[
	 {"id":"box","type":"diamond","x":0,"y":0,"width":10,"height":10},
	 {"id":"lbl","type":"text","x":0,"y":0,"width":1,"height":1,"text":"x","containerId":"box"},
	 {"id":"orphan","type":"text","x":0,"y":0,"width":1,"height":1,"text":"x","containerId":"missing"},
	 {"id":"old","type":"rectangle","x":0,"y":0,"width":10,"height":10,"isDeleted":true},
	 {"id":"ghostlabel","type":"text","x":0,"y":0,"width":1,"height":1,"text":"x","containerId":"old"},
	 {"id":"emptyc","type":"text","x":0,"y":0,"width":1,"height":1,"text":"x","containerId":""},
	 {"id":"free","type":"arrow","x":0,"y":0,"width":1,"height":1,"points":[[0,0],[1,1]]},
	 {"id":"freelabel","type":"text","x":0,"y":0,"width":1,"height":1,"text":"y","containerId":"free"},
	 {"id":"half","type":"line","x":0,"y":0,"width":1,"height":1,"points":[[0,0],[1,1]],"endBinding":{"elementId":"box"}},
	 {"id":"dangling","type":"arrow","x":0,"y":0,"width":1,"height":1,"points":[[0,0],[1,1]],"startBinding":{"elementId":"old"},"endBinding":{"elementId":"missing"}},
	 {"id":"tolabel","type":"arrow","x":0,"y":0,"width":1,"height":1,"points":[[0,0],[1,1]],"startBinding":{"elementId":"lbl"}},
	 {"id":"mf","type":"magicframe","x":0,"y":0,"width":10,"height":10},
	 {"id":"img","type":"image","x":0,"y":0,"width":10,"height":10},
	 {"id":"pen","type":"freedraw","x":0,"y":0,"width":10,"height":10,"points":[[0,0],[10,10]]}
	]`)
	ix := newIndex(all)
	want := map[string]string{
		"box": RoleContainer, "lbl": RoleLabel, "orphan": RoleStandalone, "ghostlabel": RoleStandalone,
		"emptyc": RoleStandalone, "free": RoleStandalone, "freelabel": RoleLabel, "half": RoleConnector,
		"dangling": RoleStandalone, "tolabel": RoleConnector, "mf": RoleFrame, "img": RoleStandalone, "pen": RoleStandalone,
	}
	for _, el := range all {
		id := scene.StringOf(el, "id")
		if scene.IsDeleted(el) {
			continue
		}
		if got := ix.role(el); got != want[id] {
			t.Errorf("%s: role %s, want %s", id, got, want[id])
		}
	}
	// An arrow bound to a label is bound to its container.
	if rows, _ := Rows(all[10:11], all, nil); marshal(t, rows[0]) != `{"id":"tolabel","type":"arrow","x":0,"y":0,"w":1,"h":1,"ends":"box —"}` {
		t.Errorf("%s", marshal(t, rows[0]))
	}
	// Every role is one of the five and the roles partition the scene.
	n := 0
	for _, r := range roles {
		els, _ := Select(all, Target{Role: r})
		n += len(els)
	}
	if live, _ := Select(all, Target{}); n != len(live) {
		t.Errorf("roles cover %d of %d live elements", n, len(live))
	}
}

// Region with a rotated shape: rotation-aware bounds decide.
func TestRegionRotated(t *testing.T) {
	// A 100×20 bar at the origin; turned a quarter it stands 20×100 about
	// its centre (50, 10): x 40…60, y −40…60.
	flat := `{"id":"bar","type":"rectangle","x":0,"y":0,"width":100,"height":20,"angle":0}`
	turned := strings.Replace(flat, `"angle":0`, `"angle":1.5707963267948966`, 1)
	above := &Region{X: 45, Y: -45, Width: 10, Height: 10}                     // only the turned bar reaches up here
	tall := &Region{X: 35, Y: -45, Width: 30, Height: 110, Mode: ModeContains} // holds the turned bar, not the flat one
	wide := &Region{X: -5, Y: -5, Width: 110, Height: 30, Mode: ModeContains}  // holds the flat bar, not the turned one
	right := &Region{X: 90, Y: 0, Width: 30, Height: 20, Mode: ModeIntersects} // the flat bar's end; the turned one is gone
	for _, c := range []struct {
		el     string
		region *Region
		want   bool
	}{
		{flat, above, false}, {turned, above, true},
		{flat, tall, false}, {turned, tall, true},
		{flat, wide, true}, {turned, wide, false},
		{flat, right, true}, {turned, right, false},
	} {
		got := len(selectIDs(t, elements(t, "["+c.el+"]"), Target{Region: c.region})) == 1
		if got != c.want {
			t.Errorf("%s in %+v: %v, want %v", c.el, *c.region, got, c.want)
		}
	}
}

func TestElementBounds(t *testing.T) {
	near := func(a, b Box) bool {
		return math.Abs(a.X-b.X) < 1e-9 && math.Abs(a.Y-b.Y) < 1e-9 && math.Abs(a.Width-b.Width) < 1e-9 && math.Abs(a.Height-b.Height) < 1e-9
	}
	q := math.Pi / 4
	r2 := math.Sqrt2
	for _, c := range []struct {
		el   string
		want Box
	}{
		{`{"type":"rectangle","x":10,"y":20,"width":30,"height":40}`, Box{10, 20, 30, 40}},
		{`{"type":"rectangle","x":10,"y":20,"width":-30,"height":40}`, Box{-20, 20, 30, 40}},
		// A 100×100 square turned 45° reaches √2·50 from its centre.
		{`{"type":"rectangle","x":0,"y":0,"width":100,"height":100,"angle":` + ftoa(q) + `}`, Box{50 - 50*r2, 50 - 50*r2, 100 * r2, 100 * r2}},
		// A diamond's vertices are mid-edges: turned 45° it spans 50√2 each way.
		{`{"type":"diamond","x":0,"y":0,"width":100,"height":100,"angle":` + ftoa(q) + `}`, Box{50 - 25*r2, 50 - 25*r2, 50 * r2, 50 * r2}},
		// A circle stays its own size whatever the angle.
		{`{"type":"ellipse","x":0,"y":0,"width":100,"height":100,"angle":1}`, Box{0, 0, 100, 100}},
		// A 200×100 ellipse turned a quarter is 100×200 about (100, 50).
		{`{"type":"ellipse","x":0,"y":0,"width":200,"height":100,"angle":` + ftoa(math.Pi/2) + `}`, Box{50, -50, 100, 200}},
		// Lines: their points, not x, y, width, height.
		{`{"type":"arrow","x":10,"y":10,"width":1,"height":1,"points":[[0,0],[-10,30],[40,5]]}`, Box{0, 10, 50, 30}},
		// Turned a quarter about the points' centre (25, 25): x 10…40, y 0…50.
		{`{"type":"line","x":10,"y":10,"width":50,"height":30,"points":[[0,0],[-10,30],[40,5]],"angle":` + ftoa(math.Pi/2) + `}`, Box{10, 0, 30, 50}},
		{`{"type":"freedraw","x":5,"y":5,"points":[]}`, Box{5, 5, 0, 0}},
	} {
		got, ok := ElementBounds(elements(t, "["+c.el+"]")[0])
		if !ok || !near(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.el, got, c.want)
		}
	}
	if _, ok := ElementBounds(elements(t, `[{"type":"rectangle","x":"1","y":0}]`)[0]); ok {
		t.Error("bounds of an element without a numeric x")
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
