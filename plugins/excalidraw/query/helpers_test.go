package query

import (
	"errors"
	"slices"
	"testing"

	"github.com/dshgo/dsh/plugins/excalidraw/scene/ojson"
	"github.com/dshgo/dsh/plugins/excalidraw/sceneerr"
)

// fixtureJSON is a small scene: two labelled boxes joined by a labelled
// arrow, an arrow leaving b for nowhere, a floating arrow, a decorative
// line, a free text with a link, a frame holding b, a group, a tombstone.
const fixtureJSON = `[
 {"id":"a","type":"rectangle","x":0,"y":0,"width":100,"height":50,"angle":0,"backgroundColor":"#a5d8ff","groupIds":["g1"],
  "boundElements":[{"type":"text","id":"la"},{"type":"arrow","id":"e1"}]},
 {"id":"la","type":"text","x":20,"y":12,"width":60,"height":25,"text":"Client","originalText":"Client","containerId":"a","groupIds":["g1"]},
 {"id":"b","type":"rectangle","x":300,"y":0,"width":100,"height":50,"frameId":"f","boundElements":[{"type":"text","id":"lb"}]},
 {"id":"lb","type":"text","x":320,"y":12,"width":60,"height":25,"text":"Server","originalText":"Server","containerId":"b","frameId":"f"},
 {"id":"c","type":"ellipse","x":0,"y":200,"width":80,"height":80,"strokeColor":"#e03131"},
 {"id":"e1","type":"arrow","x":100,"y":25,"width":200,"height":0,"points":[[0,0],[200,0]],
  "startBinding":{"elementId":"a","focus":0,"gap":1},"endBinding":{"elementId":"b","focus":0,"gap":1},
  "startArrowhead":null,"endArrowhead":"arrow","boundElements":[{"type":"text","id":"le1"}]},
 {"id":"le1","type":"text","x":180,"y":15,"width":40,"height":20,"text":"calls","originalText":"calls","containerId":"e1"},
 {"id":"e2","type":"arrow","x":350,"y":50,"width":150,"height":150,"points":[[0,0],[150,150]],
  "startBinding":{"elementId":"b","focus":0,"gap":1},"endBinding":null,"startArrowhead":null,"endArrowhead":"arrow"},
 {"id":"e3","type":"arrow","x":0,"y":400,"width":100,"height":0,"points":[[0,0],[100,0]],"startBinding":null,"endBinding":null,
  "startArrowhead":"dot","endArrowhead":"arrow","strokeStyle":"dashed"},
 {"id":"l1","type":"line","x":0,"y":500,"width":400,"height":0,"points":[[0,0],[400,0]]},
 {"id":"t","type":"text","x":500,"y":0,"width":220,"height":25,"text":"Notes about\nthe system","originalText":"Notes about the system","link":"https://example.com/notes","fontSize":36},
 {"id":"gone","type":"rectangle","x":0,"y":0,"width":10,"height":10,"isDeleted":true},
 {"id":"f","type":"frame","x":280,"y":-20,"width":160,"height":100,"name":"Backend"}
]`

// elements decodes a JSON array of element objects.
func elements(t testing.TB, s string) []*ojson.Object {
	t.Helper()
	v, err := ojson.Decode([]byte(s), ojson.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	arr := v.([]any)
	out := make([]*ojson.Object, len(arr))
	for i, x := range arr {
		out[i] = x.(*ojson.Object)
	}
	return out
}

func fixture(t testing.TB) []*ojson.Object { return elements(t, fixtureJSON) }

// ids are the ids of els, in order.
func ids(els []*ojson.Object) []string {
	out := make([]string, len(els))
	for i, el := range els {
		out[i], _ = el.String("id")
	}
	return out
}

// selectIDs runs Select and returns the ids.
func selectIDs(t *testing.T, all []*ojson.Object, tg Target) []string {
	t.Helper()
	els, err := Select(all, tg)
	if err != nil {
		t.Fatalf("%+v: %v", tg, err)
	}
	return ids(els)
}

func wantIDs(t *testing.T, name string, got []string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: got %q, want %q", name, got, want)
	}
}

// wantInvalid checks err is invalid_operation at pointer.
func wantInvalid(t *testing.T, err error, pointer string) *sceneerr.Error {
	t.Helper()
	var se *sceneerr.Error
	if !errors.As(err, &se) || se.Code != sceneerr.InvalidOperation {
		t.Fatalf("want invalid_operation, got %v", err)
	}
	if p, _ := se.Details["pointer"].(string); p != pointer {
		t.Fatalf("pointer %q, want %q (%v)", p, pointer, err)
	}
	return se
}

func marshal(t testing.TB, v any) string {
	t.Helper()
	b, err := ojson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func ptr[T any](v T) *T { return &v }
