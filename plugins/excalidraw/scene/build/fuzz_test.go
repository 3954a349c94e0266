package build

import (
	"encoding/json"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

// FuzzBuild feeds arbitrary JSON to Build. It must never panic, and
// whatever it builds must be well formed: valid, increasing indices after
// the existing ones, and every binding and label recorded on both sides.
func FuzzBuild(f *testing.F) {
	for _, c := range schemaCases {
		f.Add([]byte("[" + c.in + "]"))
	}
	seed, _ := json.Marshal(mixedInputs)
	f.Add(seed)
	f.Add([]byte(`[{"type":"arrow","startElementId":"old","endElementId":"n"},{"type":"ellipse","id":"n","x":300,"y":10,"angle":2}]`))
	f.Add([]byte(`[{"type":"arrow","x":-50,"y":-50,"points":[[0,0],[60,60],[200,20]],"startElementId":"old","endElementId":"old"}]`))
	f.Add([]byte(`{"type":"text","x":0,"y":0,"text":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var inputs []json.RawMessage
		if err := json.Unmarshal(data, &inputs); err != nil {
			inputs = []json.RawMessage{data}
		}
		// The prover's yes is the validator's (prove.go).
		for _, raw := range inputs {
			v, err := ojson.Decode(raw, ojson.Limits{MaxBytes: maxInputBytes, MaxDepth: 8})
			obj, ok := v.(*ojson.Object)
			if err != nil || !ok {
				continue
			}
			typ, _ := obj.String("type")
			if p := provers()[typ]; p != nil && p.accepts(obj) && branchValidators()[typ].Validate(toGeneric(obj)) != nil {
				t.Fatalf("the prover accepts %s, which the schema refuses", raw)
			}
		}
		old := parseObject(t, `{"id":"old","type":"rectangle","x":0,"y":0,"width":100,"height":80,"index":"a5","boundElements":null,"version":3}`)
		res, err := Build(inputs, testContext(old))
		if err != nil {
			return
		}
		checkWellFormed(t, res, []*ojson.Object{old})
	})
}

// checkWellFormed asserts the invariants every successful Build keeps.
func checkWellFormed(t *testing.T, res *Result, existing []*ojson.Object) {
	t.Helper()
	var keys []string
	if last := indexScene(existing).lastIndex; last != "" {
		keys = append(keys, last)
	}
	all := map[string]*ojson.Object{}
	for _, el := range existing {
		id, _ := el.String("id")
		all[id] = el
	}
	for _, el := range res.Updated {
		id, _ := el.String("id")
		all[id] = el
	}
	for _, el := range res.Elements {
		id, _ := el.String("id")
		if _, dup := all[id]; dup && !contains(res.Updated, el) {
			t.Fatalf("id %q used twice", id)
		}
		all[id] = el
		k, _ := el.String("index")
		keys = append(keys, k)
	}
	if bad := findex.CheckOrder(keys); len(bad) > 0 {
		t.Fatalf("indices %v invalid or out of order at %v", keys, bad)
	}
	for _, el := range res.Elements {
		id, _ := el.String("id")
		for _, end := range []string{"startBinding", "endBinding"} {
			b, ok := el.Object(end)
			if !ok {
				continue
			}
			target, _ := b.String("elementId")
			if !hasBound(all[target], "arrow", id) {
				t.Fatalf("%s of %q names %q, which does not list the arrow", end, id, target)
			}
		}
		if cid, ok := el.String("containerId"); ok && !hasBound(all[cid], "text", id) {
			t.Fatalf("label %q names container %q, which does not list it", id, cid)
		}
		list, _ := el.Array("boundElements")
		for _, entry := range list {
			o := entry.(*ojson.Object)
			kind, _ := o.String("type")
			other, _ := o.String("id")
			peer := all[other]
			if peer == nil {
				t.Fatalf("%q lists missing %s %q", id, kind, other)
			}
			if kind == "text" {
				if c, _ := peer.String("containerId"); c != id {
					t.Fatalf("%q lists text %q whose containerId is %q", id, other, c)
				}
				continue
			}
			if !bindsTo(peer, id) {
				t.Fatalf("%q lists arrow %q, which is not bound to it", id, other)
			}
		}
	}
}

func hasBound(el *ojson.Object, kind, id string) bool {
	if el == nil {
		return false
	}
	for _, got := range boundIDs(el, kind) {
		if got == id {
			return true
		}
	}
	return false
}

func bindsTo(arrow *ojson.Object, target string) bool {
	for _, end := range []string{"startBinding", "endBinding"} {
		if b, ok := arrow.Object(end); ok {
			if id, _ := b.String("elementId"); id == target {
				return true
			}
		}
	}
	return false
}

func contains(els []*ojson.Object, el *ojson.Object) bool {
	for _, e := range els {
		if e == el {
			return true
		}
	}
	return false
}

// The invariants hold on the mixed scene too (not only under fuzzing).
func TestMixedSceneWellFormed(t *testing.T) {
	res := mustBuild(t, testContext(), mixedInputs...)
	checkWellFormed(t, res, nil)
}
