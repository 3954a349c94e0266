package build

import (
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/findex"
	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
)

var mixedInputs = []string{
	`{"type":"rectangle","id":"a","x":0,"y":0,"label":{"text":"A"}}`,
	`{"type":"arrow","startElementId":"a","endElementId":"b","label":{"text":"to b"}}`,
	`{"type":"diamond","id":"b","x":300,"y":200,"label":{"text":"B"}}`,
	`{"type":"text","x":0,"y":400,"text":"note"}`,
	`{"type":"freedraw","x":0,"y":500,"points":[[0,0],[5,5]]}`,
}

func TestBuildIsDeterministic(t *testing.T) {
	a := mustBuild(t, testContext(), mixedInputs...)
	b := mustBuild(t, testContext(), mixedInputs...)
	if compact(toAny(a.Elements)) != compact(toAny(b.Elements)) {
		t.Fatal("same seed and clock gave different elements")
	}
	ctx := testContext()
	ctx.Rand = nil // a random source: ids differ
	c := mustBuild(t, ctx, mixedInputs...)
	if c.IDs[1] == a.IDs[1] {
		t.Fatal("unseeded builds share generated ids")
	}
}

func TestOutputOrderAndIDs(t *testing.T) {
	res := mustBuild(t, testContext(), mixedInputs...)
	if len(res.IDs) != 5 || res.IDs[0] != "a" || res.IDs[2] != "b" {
		t.Fatalf("IDs %v", res.IDs)
	}
	var types []string
	for _, el := range res.Elements {
		typ, _ := el.String("type")
		types = append(types, typ)
	}
	want := []string{"rectangle", "text", "arrow", "text", "diamond", "text", "text", "freedraw"}
	if compact(toAnyStrings(types)) != compact(toAnyStrings(want)) {
		t.Fatalf("types %v, want %v (labels right after their containers)", types, want)
	}
	for i, el := range res.Elements {
		if i > 0 {
			if cid, ok := el.String("containerId"); ok {
				prev, _ := res.Elements[i-1].String("id")
				if cid != prev {
					t.Errorf("label %d follows %q, not its container %q", i, prev, cid)
				}
			}
		}
	}
	var keys []string
	for _, el := range res.Elements {
		k, _ := el.String("index")
		keys = append(keys, k)
	}
	if bad := findex.CheckOrder(keys); len(bad) > 0 {
		t.Fatalf("indices %v out of order at %v", keys, bad)
	}
}

func TestIndicesFollowExisting(t *testing.T) {
	existing := []*ojson.Object{
		parseObject(t, `{"id":"x1","type":"rectangle","index":"a5"}`),
		parseObject(t, `{"id":"x2","type":"rectangle","index":"b00"}`),
		parseObject(t, `{"id":"x3","type":"rectangle","index":"a9"}`), // out of order
		parseObject(t, `{"id":"x4","type":"rectangle","index":"not an index!"}`),
		parseObject(t, `{"id":"x5","type":"rectangle"}`),
	}
	res := mustBuild(t, testContext(existing...), `{"type":"ellipse","x":0,"y":0}`, `{"type":"ellipse","x":0,"y":0}`)
	first, _ := res.Elements[0].String("index")
	second, _ := res.Elements[1].String("index")
	if first <= "b00" || second <= first {
		t.Fatalf("indices %q, %q must follow the greatest existing index b00", first, second)
	}
}

func TestNilElementsInContextAreIgnored(t *testing.T) {
	mustBuild(t, testContext(nil), `{"type":"ellipse","x":0,"y":0}`)
}

func toAnyStrings(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
