package build

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// checkInputOf fails t when inputOf reads raw (an object) otherwise than
// json.Unmarshal does. The json.RawMessage fields are compared by what
// they hold, since inputOf writes them out again.
func checkInputOf(t *testing.T, raw []byte) (fast bool) {
	t.Helper()
	doc, err := ojson.Decode(raw, ojson.Limits{MaxBytes: maxInputBytes, MaxDepth: 8})
	if err != nil {
		return false
	}
	obj, ok := doc.(*ojson.Object)
	if !ok {
		return false
	}
	got, ok := inputOf(obj)
	if !ok {
		return false
	}
	var want input
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatalf("%s: inputOf read it, json.Unmarshal refuses it: %v", raw, err)
	}
	norm := func(in *input) {
		for _, p := range []*json.RawMessage{&in.FontFamily, &in.StartArrowhead, &in.EndArrowhead} {
			*p = normalRaw(t, *p)
		}
		if in.Label != nil {
			in.Label.FontFamily = normalRaw(t, in.Label.FontFamily)
		}
	}
	norm(got)
	norm(&want)
	if !reflect.DeepEqual(*got, want) {
		t.Fatalf("%s:\ninputOf        %+v\njson.Unmarshal %+v", raw, *got, want)
	}
	return true
}

// normalRaw is raw written out again by encoding/json (nil stays nil).
func normalRaw(t *testing.T, raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("raw %s: %v", raw, err)
	}
	b, _ := json.Marshal(v)
	return b
}

// inputOf reads every field as json.Unmarshal does, and hands back to it
// what it does not know.
func TestInputOfIsUnmarshal(t *testing.T) {
	for _, c := range []struct {
		raw  string
		fast bool
	}{
		{`{"type":"rectangle","id":"a","x":1,"y":-2.5,"width":1e2,"height":3,"angle":0.5,"strokeColor":"#1e1e1e","backgroundColor":"transparent","fillStyle":"hachure","strokeWidth":2,"strokeStyle":"dashed","roughness":0,"opacity":50,"roundness":"round","groupIds":["g1","g2"],"frameId":null,"link":"https://x","locked":true}`, true},
		{`{"type":"text","text":"h\u00e9llo\n","fontSize":20,"fontFamily":"Virgil","textAlign":"center","verticalAlign":"middle"}`, true},
		{`{"type":"text","text":"x","fontFamily":5}`, true},
		{`{"type":"rectangle","label":{"text":"L","fontSize":16,"fontFamily":1,"textAlign":"left","verticalAlign":"top","strokeColor":"#e03131"}}`, true},
		{`{"type":"rectangle","label":null}`, true},
		{`{"type":"arrow","points":[[0,0],[100,50.5]],"startArrowhead":null,"endArrowhead":"triangle","startElementId":"a","endElementId":"b","elbowed":true}`, true},
		{`{"type":"freedraw","points":[[0,0],[1,1]],"pressures":[0.5,1],"simulatePressure":false}`, true},
		{`{"type":"image","fileId":"f1","scale":[1,-1]}`, true},
		{`{"type":null,"id":null,"x":null,"groupIds":null,"points":null,"locked":null,"fontFamily":null}`, true},
		// Handed back: json.Unmarshal matches names by case, and reads a
		// point of three numbers; inputOf leaves both to it.
		{`{"type":"rectangle","X":5}`, false},
		{`{"type":"line","points":[[0,0,9]]}`, false},
		{`{"type":"rectangle","label":{"Text":"L"}}`, false},
		{`{"type":"rectangle","x":"5"}`, false},
		{`{"type":"rectangle","x":1e400}`, false},
	} {
		if got := checkInputOf(t, []byte(c.raw)); got != c.fast {
			t.Errorf("%s: read by inputOf %v, want %v", c.raw, got, c.fast)
		}
	}
}

func FuzzInputOf(f *testing.F) {
	for _, s := range []string{
		`{"type":"rectangle","x":1,"label":{"text":"a"},"groupIds":["g"]}`,
		`{"type":"arrow","points":[[0,0],[1,2]],"endArrowhead":"dot"}`,
		`{"type":"text","text":"x","fontFamily":"Excalifont","scale":[1,1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { checkInputOf(t, raw) })
}
