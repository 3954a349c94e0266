package lint

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/build"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/textmetrics"
)

// kv is a test element's fields.
type kv = map[string]any

// toOJSON turns Go maps and slices into ojson values (object keys in
// sorted order, so fixtures are deterministic).
func toOJSON(v any) any {
	switch t := v.(type) {
	case kv:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		o := ojson.New()
		for _, k := range keys {
			o.Set(k, toOJSON(t[k]))
		}
		return o
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = toOJSON(x)
		}
		return out
	case [][2]float64:
		out := make([]any, len(t))
		for i, p := range t {
			out[i] = []any{p[0], p[1]}
		}
		return out
	case []string:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = x
		}
		return out
	}
	return v
}

// mk makes an element from base fields and overrides.
func mk(base kv, over ...kv) *ojson.Object {
	m := kv{}
	for k, v := range base {
		m[k] = v
	}
	for _, o := range over {
		for k, v := range o {
			m[k] = v
		}
	}
	return toOJSON(m).(*ojson.Object)
}

func common(typ, id string, x, y, w, h float64) kv {
	return kv{"type": typ, "id": id, "x": x, "y": y, "width": w, "height": h, "angle": 0.0,
		"strokeColor": "#1e1e1e", "backgroundColor": "transparent", "fillStyle": "solid", "opacity": 100.0,
		"groupIds": []any{}, "frameId": nil, "boundElements": nil, "isDeleted": false}
}

// shape makes a rectangle, ellipse, diamond, image or frame.
func shape(typ, id string, x, y, w, h float64, over ...kv) *ojson.Object {
	return mk(common(typ, id, x, y, w, h), over...)
}

func rectangle(id string, x, y, w, h float64, over ...kv) *ojson.Object {
	return shape("rectangle", id, x, y, w, h, over...)
}

// text makes a free, auto-sized text measured as the editor measures it.
func text(id string, x, y float64, s string, over ...kv) *ojson.Object {
	m := textmetrics.Measure(s, textmetrics.DefaultFamily, 20)
	base := common("text", id, x, y, m.Width, m.Height)
	for k, v := range (kv{"text": s, "originalText": s, "fontSize": 20.0, "fontFamily": 5.0, "textAlign": "left",
		"verticalAlign": "top", "containerId": nil, "autoResize": true, "lineHeight": 1.25}) {
		base[k] = v
	}
	return mk(base, over...)
}

// linear makes an arrow or line at (x, y) with points relative to it.
func linear(typ, id string, x, y float64, pts [][2]float64, over ...kv) *ojson.Object {
	lo, hi := pts[0], pts[0]
	for _, p := range pts {
		lo = [2]float64{min(lo[0], p[0]), min(lo[1], p[1])}
		hi = [2]float64{max(hi[0], p[0]), max(hi[1], p[1])}
	}
	base := common(typ, id, x, y, hi[0]-lo[0], hi[1]-lo[1])
	base["points"] = pts
	base["startBinding"] = nil
	base["endBinding"] = nil
	return mk(base, over...)
}

func arrow(id string, x, y float64, pts [][2]float64, over ...kv) *ojson.Object {
	return linear("arrow", id, x, y, pts, over...)
}

// bindEnd binds an arrow's end ("start" or "end") to a target, both
// sides.
func bindEnd(a *ojson.Object, end string, target *ojson.Object) {
	tid, _ := target.String("id")
	aid, _ := a.String("id")
	a.Set(end+"Binding", toOJSON(kv{"elementId": tid, "focus": 0.0, "gap": 5.0}))
	addBound(target, aid, "arrow")
}

func addBound(target *ojson.Object, id, typ string) {
	list, _ := target.Array("boundElements")
	target.Set("boundElements", append(list, toOJSON(kv{"id": id, "type": typ})))
}

// label binds a new text to a container, laid out as the builder lays
// labels out.
func label(c *ojson.Object, id, s string, over ...kv) *ojson.Object {
	cid, _ := c.String("id")
	t := text(id, 0, 0, s, kv{"containerId": cid, "textAlign": "center", "verticalAlign": "middle"})
	for _, o := range over {
		for k, v := range o {
			t.Set(k, toOJSON(v))
		}
	}
	lay := build.LayoutLabel(c, t)
	t.Set("x", lay.X).Set("y", lay.Y).Set("width", lay.Width).Set("height", lay.Height).Set("text", lay.Text)
	addBound(c, id, "text")
	return t
}

// built builds agent inputs into elements, deterministically.
func built(t testing.TB, inputs ...string) []*ojson.Object {
	t.Helper()
	raw := make([]json.RawMessage, len(inputs))
	for i, s := range inputs {
		raw[i] = json.RawMessage(s)
	}
	res, err := build.Build(raw, build.Context{Rand: rand.New(rand.NewPCG(7, 7)), Now: func() time.Time { return time.UnixMilli(0) }})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return res.Elements
}

func list(xs ...*ojson.Object) []*ojson.Object { return xs }

// find returns the findings with the code.
func find(fs []Finding, code string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Code == code {
			out = append(out, f)
		}
	}
	return out
}

// expect checks that exactly one finding has the code and the ids.
func expect(t *testing.T, fs []Finding, code string, ids ...string) Finding {
	t.Helper()
	slices.Sort(ids)
	var hit []Finding
	for _, f := range find(fs, code) {
		if slices.Equal(f.IDs, ids) {
			hit = append(hit, f)
		}
	}
	if len(hit) != 1 {
		t.Fatalf("want one %s on %v, got %d; all findings:\n%s", code, ids, len(hit), dump(fs))
	}
	return hit[0]
}

// none checks that no finding has the code.
func none(t *testing.T, fs []Finding, code string) {
	t.Helper()
	if got := find(fs, code); len(got) > 0 {
		t.Fatalf("want no %s, got:\n%s", code, dump(got))
	}
}

func dump(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		s, _ := json.Marshal(f.Suggestion)
		fmt.Fprintf(&b, "  %s %s %v %s %s\n", f.Severity, f.Code, f.IDs, f.Message, s)
	}
	return b.String()
}

// only runs one rule.
func only(code string) Options {
	off := map[string]bool{}
	for _, c := range Codes() {
		if c != code {
			off[c] = true
		}
	}
	return Options{Disabled: off}
}
