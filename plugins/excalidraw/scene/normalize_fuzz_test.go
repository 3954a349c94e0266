package scene

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/dshgo/dsh/internal/testcorpus"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// fuzzFields are the members damageScene picks from: every field restore
// looks at, and the legacy ones.
var fuzzFields = []string{
	"id", "type", "x", "y", "width", "height", "angle", "strokeColor", "backgroundColor", "fillStyle",
	"strokeWidth", "strokeStyle", "roughness", "opacity", "seed", "version", "versionNonce", "isDeleted",
	"groupIds", "boundElements", "updated", "link", "locked", "index", "frameId", "roundness",
	"strokeSharpness", "boundElementIds", "text", "fontSize", "fontFamily", "textAlign", "verticalAlign",
	"containerId", "originalText", "lineHeight", "autoResize", "font", "rawText", "points",
	"startBinding", "endBinding", "startArrowhead", "endArrowhead", "elbowed", "lastCommittedPoint",
	"pressures", "simulatePressure", "status", "fileId", "scale", "crop", "name", "customData",
}

// fuzzValue makes a fresh value of kind k; other is the id of another
// element, for references.
func fuzzValue(k byte, other string) (v any, remove bool) {
	switch k % 24 {
	case 0:
		return nil, true
	case 1:
		return nil, false
	case 2:
		return num(0), false
	case 3:
		return num(-7.5), false
	case 4:
		return "", false
	case 5:
		return "a0", false
	case 6:
		return true, false
	case 7:
		return false, false
	case 8:
		return "round", false
	case 9:
		return []any{}, false
	case 10:
		return []any{pt(3, 4)}, false
	case 11:
		return []any{pt(1, 2), pt(30, -4), []any{num(5), num(6), num(0.5)}}, false
	case 12:
		return ojson.New().Set("elementId", other).Set("gap", num(1)), false
	case 13:
		return other, false
	case 14:
		return []any{entry(other, "arrow"), entry(other, "text"), entry("nope", "arrow")}, false
	case 15:
		return []any{other, "nope"}, false
	case 16:
		return roundnessOf(num(3)), false
	case 17:
		return "20px Virgil", false
	case 18:
		return "javascript:alert(1)", false
	case 19:
		return ojson.New().Set("elementId", other).Set("focus", num(0)).Set("fixedPoint", []any{num(0.5), num(0.5)}), false
	case 20:
		return json.Number("1e999"), false
	case 21:
		return "Zz", false
	case 22:
		return []any{num(0.5), "x"}, false
	}
	return "text\nwith lines", false
}

// damageScene breaks a parsed scene the ways real files are broken,
// driven by ops: each three bytes pick an element, a field and a value.
func damageScene(d *Document, ops []byte) {
	els := d.Elements()
	if len(els) == 0 {
		return
	}
	for i := 0; i+2 < len(ops); i += 3 {
		el := els[int(ops[i])%len(els)]
		other := elementID(els[int(ops[i+2])%len(els)])
		field := fuzzFields[int(ops[i+1])%len(fuzzFields)]
		v, remove := fuzzValue(ops[i+2], other)
		if remove {
			el.Delete(field)
			continue
		}
		el.Set(field, v)
	}
}

// FuzzNormalize: on any scene Parse accepts, damaged further, Normalize
// never panics, keeps the element count, writes a scene Parse accepts, and
// is idempotent: normalizing again, in memory or after a round trip,
// changes nothing.
func FuzzNormalize(f *testing.F) {
	ops := []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26}
	for _, path := range testcorpus.Seeds(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) <= 16<<10 {
			f.Add(data, ops)
		}
	}
	edge := NewDocument()
	edge.SetElements(edgeCaseScene())
	data, err := edge.Marshal()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, []byte{})
	f.Add(data, ops)
	f.Add(data, []byte{7, 12, 3, 11, 48, 14, 2, 19, 9, 5, 20, 13})
	f.Fuzz(func(t *testing.T, data, ops []byte) {
		d, err := Parse(data, Limits{})
		if err != nil {
			return
		}
		damageScene(d, ops)
		admitted := admit(d, Limits{}.Effective()) == nil // damage may leave an element without a type
		n := d.ElementCount()
		Normalize(d)
		if d.ElementCount() != n {
			t.Fatalf("element count %d became %d", n, d.ElementCount())
		}
		out, err := d.Marshal()
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		if again := Normalize(d); again.Changed != 0 {
			t.Fatalf("second Normalize changed %d elements: %v\n%s", again.Changed, again.Fixes, out)
		}
		if !admitted {
			return
		}
		back, err := Parse(out, Limits{})
		if err != nil {
			t.Fatalf("Parse of normalized scene: %v", err)
		}
		if again := Normalize(back); again.Changed != 0 {
			t.Fatalf("Normalize after a round trip changed %d elements: %v", again.Changed, again.Fixes)
		}
		if out2, _ := back.Marshal(); !bytes.Equal(out, out2) {
			t.Fatalf("round trip of a normalized scene differs")
		}
	})
}
