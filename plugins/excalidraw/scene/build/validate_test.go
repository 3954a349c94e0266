package build

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

func TestPointerTo(t *testing.T) {
	cases := map[string]string{"x": "/x", "a/b": "/a~1b", "m~n": "/m~0n"}
	for in, want := range cases {
		if got := pointerTo(in); got != want {
			t.Errorf("pointerTo(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestToGenericKeepsNumbers(t *testing.T) {
	v, err := ojson.Decode([]byte(`{"a":[1.50,{"b":null}]}`), ojson.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	g := toGeneric(v).(map[string]any)
	arr := g["a"].([]any)
	if arr[0] != json.Number("1.50") {
		t.Fatalf("number became %#v", arr[0])
	}
	if inner := arr[1].(map[string]any); inner["b"] != nil {
		t.Fatalf("null became %#v", inner["b"])
	}
}

func TestDecodeInputReadsEveryField(t *testing.T) {
	in, err := decodeInput(0, json.RawMessage(`{"type":"arrow","id":"a","x":1,"y":2,"points":[[0,0],[3,4]],"startArrowhead":null,
		"endArrowhead":"bar","startElementId":"s","endElementId":"e","roundness":"sharp","strokeColor":"#000","backgroundColor":"#fff",
		"fillStyle":"hachure","strokeWidth":1,"strokeStyle":"dashed","roughness":2,"opacity":10,"groupIds":["g"],"frameId":null,
		"link":"https://x","locked":true,"label":{"text":"l","fontSize":12,"fontFamily":"nunito","textAlign":"left","strokeColor":"#111"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if *in.ID != "a" || *in.X != 1 || len(in.Points) != 2 || in.Points[1] != [2]float64{3, 4} ||
		arrowhead(in.StartArrowhead, "arrow") != nil || arrowhead(in.EndArrowhead, nil) != "bar" ||
		*in.StartElementID != "s" || *in.EndElementID != "e" || *in.Opacity != 10 || !*in.Locked ||
		in.Label.Text != "l" || *in.Label.FontSize != 12 || in.FrameID != nil {
		t.Fatalf("decoded %+v", in)
	}
}

func TestDecodeInputRejectsDeepNesting(t *testing.T) {
	deep := `{"type":"rectangle","x":0,"y":0,"label":{"text":[[[[[[[[[[["x"]]]]]]]]]]]}}`
	if _, err := decodeInput(0, json.RawMessage(deep)); err == nil {
		t.Fatal("deeply nested input accepted")
	}
}

// Many inputs are decoded in parallel; the error is still the first bad
// input's, as a loop over them would report, whichever fails first.
func TestDecodeInputsReportsTheFirstBadInput(t *testing.T) {
	inputs := make([]json.RawMessage, 400)
	for i := range inputs {
		inputs[i] = json.RawMessage(fmt.Sprintf(`{"type":"rectangle","x":%d,"y":0,"width":10,"height":10}`, i))
	}
	inputs[351] = json.RawMessage(`{"type":"rectangle","x":"far"}`)
	inputs[97] = json.RawMessage(`{"type":"nonsense"}`)
	inputs[260] = json.RawMessage(`[1]`)
	for range 20 {
		out, errs := decodeInputs(inputs)
		first := slices.IndexFunc(errs, func(err error) bool { return err != nil })
		_, want := decodeInput(97, inputs[97])
		if first != 97 || errs[97].Error() != want.Error() {
			t.Fatalf("first error at %d (%v), want 97 (%v)", first, errs[first], want)
		}
		for i := range 97 {
			if out[i] == nil {
				t.Fatalf("input %d before the first bad one was not decoded", i)
			}
		}
	}
}
