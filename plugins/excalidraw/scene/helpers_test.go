package scene

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// Builders of complete, valid elements (every field Excalidraw 0.18
// writes), for tests to break one thing at a time.

func num(f float64) json.Number { return json.Number(strconv.FormatFloat(f, 'f', -1, 64)) }

func baseElement(id, typ string, x, y, w, h float64) *ojson.Object {
	return ojson.New().
		Set("id", id).Set("type", typ).
		Set("x", num(x)).Set("y", num(y)).Set("width", num(w)).Set("height", num(h)).
		Set("angle", num(0)).Set("strokeColor", "#1e1e1e").Set("backgroundColor", "transparent").
		Set("fillStyle", "solid").Set("strokeWidth", num(2)).Set("strokeStyle", "solid").
		Set("roughness", num(1)).Set("opacity", num(100)).Set("groupIds", []any{}).
		Set("frameId", nil).Set("index", nil).Set("roundness", nil).
		Set("seed", num(1)).Set("version", num(1)).Set("versionNonce", num(1)).
		Set("isDeleted", false).Set("boundElements", nil).Set("updated", num(1700000000000)).
		Set("link", nil).Set("locked", false)
}

func rect(id string) *ojson.Object { return baseElement(id, "rectangle", 0, 0, 100, 50) }

func textEl(id, containerID string) *ojson.Object {
	el := baseElement(id, "text", 10, 10, 40, 25)
	var cid any
	if containerID != "" {
		cid = containerID
	}
	return el.Set("text", "hi").Set("fontSize", num(20)).Set("fontFamily", num(5)).
		Set("textAlign", "center").Set("verticalAlign", "middle").Set("containerId", cid).
		Set("originalText", "hi").Set("autoResize", true).Set("lineHeight", num(1.25))
}

func binding(id string) any {
	if id == "" {
		return nil
	}
	return ojson.New().Set("elementId", id).Set("focus", num(0)).Set("gap", num(1))
}

func linear(id, typ, start, end string) *ojson.Object {
	el := baseElement(id, typ, 100, 25, 100, 0)
	return el.Set("points", []any{[]any{num(0), num(0)}, []any{num(100), num(0)}}).
		Set("lastCommittedPoint", nil).Set("startBinding", binding(start)).Set("endBinding", binding(end)).
		Set("startArrowhead", nil).Set("endArrowhead", "arrow")
}

func arrow(id, start, end string) *ojson.Object { return linear(id, "arrow", start, end) }

func freedrawEl(id string) *ojson.Object {
	return baseElement(id, "freedraw", 0, 0, 10, 10).
		Set("points", []any{[]any{num(0), num(0)}, []any{num(10), num(10)}}).
		Set("pressures", []any{}).Set("simulatePressure", true).Set("lastCommittedPoint", nil)
}

func imageEl(id, fileID string) *ojson.Object {
	return baseElement(id, "image", 0, 0, 10, 10).
		Set("status", "saved").Set("fileId", fileID).Set("scale", []any{num(1), num(1)}).Set("crop", nil)
}

func frameEl(id string) *ojson.Object {
	return baseElement(id, "frame", -50, -50, 500, 500).Set("name", "Frame")
}

// bind records, on target, that el (an arrow or text) is bound to it.
func bind(target *ojson.Object, id, kind string) {
	arr, _ := target.Array("boundElements")
	target.Set("boundElements", append(arr, ojson.New().Set("id", id).Set("type", kind)))
}

const pngURL = "data:image/png;base64,iVBORw0KGgo="

func fileEntry(id string) *ojson.Object {
	return ojson.New().Set("mimeType", "image/png").Set("id", id).Set("dataURL", pngURL).Set("created", num(1700000000000))
}

// docOf makes a document of the elements, numbering their indices.
func docOf(els ...*ojson.Object) *Document {
	d := NewDocument()
	prev := ""
	for _, el := range els {
		if el == nil {
			continue
		}
		if v, ok := el.Get("index"); ok && v == nil {
			prev = nextIndex(prev)
			el.Set("index", prev)
		}
	}
	d.SetElements(els)
	return d
}

// nextIndex returns a fractional index after prev ("" for the first).
func nextIndex(prev string) string {
	k, err := findex.Between(prev, "")
	if err != nil {
		panic(err)
	}
	return k
}
func mustMarshal(t testing.TB, d *Document) []byte {
	t.Helper()
	b, err := d.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustParse(t testing.TB, data []byte) *Document {
	t.Helper()
	d, err := Parse(data, Limits{})
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, data)
	}
	return d
}

// find returns the diagnostics with the code.
func find(r Report, code string) []Diagnostic {
	var out []Diagnostic
	for _, d := range r.Diagnostics {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

// only fails unless r holds exactly the wanted code (once per want entry,
// in order) and nothing else.
func only(t *testing.T, r Report, want ...string) {
	t.Helper()
	got := make([]string, len(r.Diagnostics))
	for i, d := range r.Diagnostics {
		got[i] = d.Code
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v:\n%s", got, want, dump(r.Diagnostics))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v:\n%s", got, want, dump(r.Diagnostics))
		}
	}
}

func roundnessOf(t any) *ojson.Object { return ojson.New().Set("type", t) }
